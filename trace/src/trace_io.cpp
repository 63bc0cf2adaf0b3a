#include <algorithm>
#include <bit>
#include <cstring>

#include "ws/trace/trace_io.h"
#include "ws/trace/diagnostic_fields.h"
#include "ws/trace/field_codec.h"
#include "ws/util/atomic_file.h"
#include "ws/util/byte_codec.h"

namespace ws {

namespace {

constexpr char kMagic[8] = {'W', 'S', 'T', 'R', 'A', 'C', 'E', '\0'};
constexpr uint32_t kEndianMark = 0x01020304;
constexpr size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8;
constexpr size_t kEventBytes = 1 + 1 + 1 + 1 + 1 + 1 + 2 + 4 * 6 + 8 + 8;

uint64_t fnv1a(const char* p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ uint8_t(p[i])) * 0x100000001b3ull;
  return h;
}

// The codec is util's (ws/util/byte_codec.h), shared with the run process's wire.
using Writer = ByteWriter;
using Reader = ByteReader;

void put_dim(Writer& w, const Dim3& d) {
  w.u32(d.x);
  w.u32(d.y);
  w.u32(d.z);
}

Dim3 get_dim(Reader& r) {
  Dim3 d;
  d.x = r.u32();
  d.y = r.u32();
  d.z = r.u32();
  return d;
}

void write_payload(Writer& w, const Trace& t) {
  const LaunchInfo& l = t.launch;
  w.str(l.kernel);
  w.str(l.variant);
  w.str(l.backend);
  w.str(l.device);
  w.str(l.entry);
  put_dim(w, l.grid);
  put_dim(w, l.block);
  w.put(l.dynamic_shared_bytes);
  w.put(l.static_shared_bytes);
  w.put(l.n);
  w.put<uint64_t>(l.params.size());
  for (const auto& [k, v] : l.params) {
    w.str(k);
    w.str(v);
  }
  w.put<uint64_t>(t.allocations.size());
  for (const Allocation& a : t.allocations) {
    w.str(a.name);
    w.str(a.type_name);
    w.put(uint8_t(a.space));
    w.put(a.elem_size);
    w.put(a.extent);
    w.put(a.base);
    w.put(a.row_length);
  }
  w.put<uint64_t>(t.sites.size());
  for (const Site& s : t.sites) {
    w.str(s.file);
    w.put(s.line);
    w.put(s.column);
    w.put(s.rank);
    w.str(s.text);
  }
  w.put<uint64_t>(t.events.size());
  for (const Event& e : t.events) {
    w.put(uint8_t(e.type));
    w.put(uint8_t(e.kind));
    w.put(e.width);
    w.put(uint8_t(e.space));
    w.put(e.op);
    w.put(e.flags);
    w.put(e.warp);
    w.put(e.block);
    w.put(e.site);
    w.put(e.alloc);
    w.put(e.mask);
    w.put(e.step);
    w.put(e.sm);
    w.put(e.lane_begin);
    w.put(e.time);
  }
  w.put<uint64_t>(t.lane_offsets.size());
  for (uint64_t o : t.lane_offsets) w.put(o);
  w.put<uint64_t>(t.diagnostics.size());
  for (const Diagnostic& d : t.diagnostics) put_field(w, d);  // (its list: diagnostic_fields.h)
  w.put<uint64_t>(t.site_counters.size());
  for (const SiteCounters& c : t.site_counters) {
    w.put(c.site);
    w.put(uint8_t(c.kind));
    w.put(uint8_t(c.space));
    w.put(c.width);
    w.put(c.instructions);
    w.put(c.lanes);
    w.put(c.wavefronts);
    w.put(c.ideal_wavefronts);
    w.put(c.sectors);
    w.put(c.lines);
  }
  w.put<uint64_t>(t.recorded_blocks.size());
  for (uint32_t b : t.recorded_blocks) w.put(b);
  w.put(t.total_blocks);
  w.put(uint8_t(t.truncated));
  w.put(t.dropped_events);
  w.put(t.unrecorded_events);
  w.put(t.unrecorded_lane_accesses);
}

template <class E>
E enum_in_range(Reader& r, uint8_t v, uint8_t max, const char* what) {
  if (v > max) r.fail(std::string("unknown ") + what + " " + std::to_string(v));
  return E(v);
}

void read_payload(Reader& r, Trace& t, uint32_t version) {
  LaunchInfo& l = t.launch;
  l.kernel = r.str();
  l.variant = r.str();
  l.backend = r.str();
  l.device = r.str();
  l.entry = r.str();
  l.grid = get_dim(r);
  l.block = get_dim(r);
  l.dynamic_shared_bytes = r.get<uint32_t>();
  l.static_shared_bytes = r.get<uint32_t>();
  l.n = r.get<uint64_t>();
  for (uint64_t i = 0, n = r.count(8, "parameters"); i < n; ++i) {
    std::string k = r.str();
    l.params.emplace_back(std::move(k), r.str());
  }
  t.allocations.resize(r.count(4 + 4 + 1 + 4 + 8 + 8 + (version >= 3 ? 4 : 0), "allocations"));
  for (Allocation& a : t.allocations) {
    a.name = r.str();
    a.type_name = r.str();
    a.space = enum_in_range<MemSpace>(r, r.get<uint8_t>(), 1, "memory space");
    a.elem_size = r.get<uint32_t>();
    a.extent = r.get<uint64_t>();
    a.base = r.get<uint64_t>();
    if (version >= 3) a.row_length = r.get<uint32_t>();  // version 2 knew no matrix shapes
  }
  t.sites.resize(r.count(4 + 12 + 4, "sites"));
  for (Site& s : t.sites) {
    s.file = r.str();
    s.line = r.get<uint32_t>();
    s.column = r.get<uint32_t>();
    s.rank = r.get<uint32_t>();
    s.text = r.str();
  }
  t.events.resize(r.count(kEventBytes, "events"));
  for (Event& e : t.events) {
    e.type = enum_in_range<EventType>(r, r.get<uint8_t>(), 3, "event type");
    e.kind = enum_in_range<AccessKind>(r, r.get<uint8_t>(), 2, "access kind");
    e.width = r.get<uint8_t>();
    e.space = enum_in_range<MemSpace>(r, r.get<uint8_t>(), 1, "memory space");
    e.op = r.get<uint8_t>();
    e.flags = r.get<uint8_t>();
    e.warp = r.get<uint16_t>();
    e.block = r.get<uint32_t>();
    e.site = r.get<uint32_t>();
    e.alloc = r.get<uint32_t>();
    e.mask = r.get<uint32_t>();
    e.step = r.get<uint32_t>();
    e.sm = r.get<uint32_t>();
    e.lane_begin = r.get<uint64_t>();
    e.time = r.get<uint64_t>();
  }
  t.lane_offsets.resize(r.count(8, "lane offsets"));
  for (uint64_t& o : t.lane_offsets) o = r.get<uint64_t>();
  t.diagnostics.resize(r.count(1 + 8 + 12, "diagnostics"));
  for (Diagnostic& d : t.diagnostics) get_field(r, d);
  t.site_counters.resize(r.count(4 + 3 + 6 * 8, "site counters"));
  for (SiteCounters& c : t.site_counters) {
    c.site = r.get<uint32_t>();
    c.kind = enum_in_range<AccessKind>(r, r.get<uint8_t>(), 2, "access kind");
    c.space = enum_in_range<MemSpace>(r, r.get<uint8_t>(), 1, "memory space");
    c.width = r.get<uint8_t>();
    c.instructions = r.get<uint64_t>();
    c.lanes = r.get<uint64_t>();
    c.wavefronts = r.get<uint64_t>();
    c.ideal_wavefronts = r.get<uint64_t>();
    c.sectors = r.get<uint64_t>();
    c.lines = r.get<uint64_t>();
  }
  t.recorded_blocks.resize(r.count(4, "recorded blocks"));
  for (uint32_t& b : t.recorded_blocks) b = r.get<uint32_t>();
  t.total_blocks = r.get<uint64_t>();
  t.truncated = r.get<uint8_t>() != 0;
  t.dropped_events = r.get<uint64_t>();
  t.unrecorded_events = r.get<uint64_t>();
  t.unrecorded_lane_accesses = r.get<uint64_t>();
  if (!r.failed() && r.left() != 0) r.fail(std::to_string(r.left()) + " unexpected bytes after the trace");
}

// Whether `s` is well-formed UTF-8 (what JSON exports and the UI's text need).
bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    if (n == 2 && c < 0xC2) return false;  // overlong
    i += n;
  }
  return true;
}

std::string dim_text(const Dim3& d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

// What a launch can be on CUDA: the limits a recorded launch must keep (a damaged file breaks them).
std::string check_launch(const LaunchInfo& l) {
  const Dim3 &g = l.grid, &b = l.block;
  if (b.x == 0 || b.y == 0 || b.z == 0 || b.x > 1024 || b.y > 1024 || b.z > 64 || b.count() > 1024)
    return "the block " + dim_text(b) + " is not a CUDA block (each dimension >= 1; x, y <= 1024, z <= 64, "
           "at most 1024 threads)";
  if (g.x == 0 || g.y == 0 || g.z == 0 || g.x > 0x7fffffffu || g.y > 65535 || g.z > 65535)
    return "the grid " + dim_text(g) + " is not a CUDA grid (each dimension >= 1; x < 2^31, y, z <= 65535)";
  return {};
}

// What one site's whole-grid counters can be: every number follows from the warp instructions
// (a warp has 32 lanes; a lane moves at most 64 bytes, so at most 16 shared wavefronts and 3
// sectors, touching at most as many lines as sectors), so a damaged count cannot reach the views.
std::string check_counters(const SiteCounters& c, size_t sites) {
  const std::string at = "the counters of site " + std::to_string(c.site);
  if (c.site >= sites) return "a site counter names a missing site";
  if (c.width == 0 || c.width > 64) return at + " say " + std::to_string(c.width) + " bytes a lane (1 to 64)";
  if (c.instructions > (uint64_t(1) << 56)) return at + " count " + std::to_string(c.instructions) + " instructions: too many";
  const uint64_t lanes = c.instructions * kWarpSize;
  if (c.lanes > lanes) return at + " count more lanes than 32 a warp instruction";
  if (c.wavefronts > lanes * 16 || c.ideal_wavefronts > c.wavefronts)
    return at + " count impossible wavefronts (" + std::to_string(c.ideal_wavefronts) + " ideal of " +
           std::to_string(c.wavefronts) + ")";
  if (c.sectors > c.lanes * 3 || c.lines > c.sectors)
    return at + " count impossible sectors (" + std::to_string(c.sectors) + " sectors, " + std::to_string(c.lines) +
           " lines for " + std::to_string(c.lanes) + " lanes)";
  return {};
}

// Cross-references and sizes a well-formed file must satisfy, checked once here so that no
// consumer (the analysis, the views, the exports) meets an impossible value.
std::string check_consistency(const Trace& t) {
  if (std::string err = check_launch(t.launch); !err.empty()) return err;
  const uint64_t warps = (t.launch.block.count() + kWarpSize - 1) / kWarpSize;
  const uint64_t blocks = t.launch.grid.count();
  for (size_t i = 0; i < t.allocations.size(); ++i) {
    const Allocation& a = t.allocations[i];
    const std::string at = "allocation " + std::to_string(i) + " (" + a.name + ")";
    if (a.elem_size == 0 || a.elem_size > 1024) return at + " has elements of " + std::to_string(a.elem_size) + " bytes (1 to 1024)";
    // 2^40 elements and 2^48 bytes: far beyond any GPU's memory, far from overflowing an address.
    if (a.extent > (uint64_t(1) << 40) || a.extent * a.elem_size > (uint64_t(1) << 48))
      return at + " has " + std::to_string(a.extent) + " elements of " + std::to_string(a.elem_size) + " bytes: too large";
    if (a.space == MemSpace::Shared && a.extent * a.elem_size > (uint64_t(1) << 20))
      return at + " is a shared array of " + std::to_string(a.extent * a.elem_size) + " bytes (a block has at most 1 MiB)";
    if (a.base > (uint64_t(1) << 62)) return at + " starts at an impossible address";
    if (a.row_length > a.extent)
      return "allocation " + std::to_string(i) + " has rows of " + std::to_string(a.row_length) +
             " elements but only " + std::to_string(a.extent) + " elements";
    if (!valid_utf8(a.name) || !valid_utf8(a.type_name)) return at + ": its name is not valid UTF-8";
  }
  for (size_t i = 0; i < t.sites.size(); ++i)
    if (!valid_utf8(t.sites[i].file) || !valid_utf8(t.sites[i].text))
      return "site " + std::to_string(i) + ": its file name or source line is not valid UTF-8";
  const LaunchInfo& l = t.launch;
  for (const std::string* s : {&l.kernel, &l.variant, &l.backend, &l.device, &l.entry})
    if (!valid_utf8(*s)) return "the launch's names are not valid UTF-8";
  for (const auto& [k, v] : l.params)
    if (!valid_utf8(k) || !valid_utf8(v)) return "a launch parameter is not valid UTF-8";
  for (const Diagnostic& d : t.diagnostics)
    if (!valid_utf8(d.code) || !valid_utf8(d.message)) return "a diagnostic's text is not valid UTF-8";
  for (uint32_t b : t.recorded_blocks)
    if (b >= blocks) return "recorded block " + std::to_string(b) + " is outside the grid of " + std::to_string(blocks) + " blocks";
  for (size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    const std::string at = "event " + std::to_string(i);
    if (e.site >= t.sites.size()) return at + " names site " + std::to_string(e.site) + " of " + std::to_string(t.sites.size());
    if (e.block >= blocks) return at + " is in block " + std::to_string(e.block) + " of a grid of " + std::to_string(blocks);
    if (e.warp >= warps) return at + " is in warp " + std::to_string(e.warp) + " of a block of " + std::to_string(warps);
    // Lanes past the block's last thread do not exist.
    const uint64_t live = std::min<uint64_t>(kWarpSize, t.launch.block.count() - uint64_t(e.warp) * kWarpSize);
    if (live < kWarpSize && (e.mask >> live) != 0) return at + " names lanes past the block's last thread";
    if (e.type == EventType::Access) {
      if (e.alloc >= t.allocations.size())
        return at + " names allocation " + std::to_string(e.alloc) + " of " + std::to_string(t.allocations.size());
      if (e.width == 0 || e.width > 64) return at + " accesses " + std::to_string(e.width) + " bytes a lane (1 to 64)";
      const uint64_t n = uint64_t(std::popcount(e.mask));
      if (e.lane_begin > t.lane_offsets.size() || n > t.lane_offsets.size() - e.lane_begin)
        return at + " has lanes outside the lane table";
      // Out-of-bounds lanes can be real (a kernel's bug, recorded on the GPU), but not past any
      // address a GPU has: a lane's bytes must not wrap around the address space.
      const Allocation& a = t.allocations[e.alloc];
      const uint64_t limit = a.space == MemSpace::Shared ? (uint64_t(1) << 32) : (uint64_t(1) << 62);
      if (a.base >= limit - e.width) return at + " is in " + a.name + ", which starts past any address";
      for (uint64_t k = 0; k < n; ++k)
        if (t.lane_offsets[e.lane_begin + k] > limit - a.base - e.width)
          return at + " has a lane at byte " + std::to_string(t.lane_offsets[e.lane_begin + k]) + " of " + a.name +
                 ": past any address";
    }
  }
  for (const Diagnostic& d : t.diagnostics)
    if (d.site != Diagnostic::kNoSite && d.site >= t.sites.size()) return "a diagnostic names a missing site";
  if (t.total_blocks > blocks)
    return "the trace says " + std::to_string(t.total_blocks) + " blocks ran in a grid of " + std::to_string(blocks);
  for (const SiteCounters& c : t.site_counters)
    if (std::string err = check_counters(c, t.sites.size()); !err.empty()) return err;
  return {};
}

// The payload read and its meaning checked; a failure leaves an empty trace and says why.
LoadResult read_checked(const char* payload, size_t size, uint32_t version) {
  LoadResult res;
  Reader r(std::string_view(payload, size), "the file");
  read_payload(r, res.trace, version);
  if (r.failed()) {
    res.error = "damaged trace file: " + r.error();
  } else if (std::string bad = check_consistency(res.trace); !bad.empty()) {
    res.error = "damaged trace file: " + bad;
  }
  if (!res.ok()) res.trace = Trace{};
  return res;
}

}  // namespace

std::string serialize_trace(const Trace& t) {
  Writer payload;
  write_payload(payload, t);
  Writer file;
  file.raw(std::string_view(kMagic, sizeof kMagic));
  file.put(Trace::kFormatVersion);
  file.put(kEndianMark);
  file.put<uint64_t>(payload.bytes().size());
  file.put<uint64_t>(fnv1a(payload.bytes().data(), payload.bytes().size()));
  file.raw(payload.bytes());
  return file.take();
}

LoadResult deserialize_trace(const std::string& bytes) {
  LoadResult res;
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    res.error = "not a warpscope trace (the file does not start with the WSTRACE header)";
    return res;
  }
  Reader h(std::string_view(bytes.data() + 8, kHeaderBytes - 8), "the header");
  const uint32_t version = h.get<uint32_t>();
  const uint32_t mark = h.get<uint32_t>();
  const uint64_t size = h.get<uint64_t>();
  const uint64_t sum = h.get<uint64_t>();
  if (mark != kEndianMark) {
    res.error = "damaged trace file: bad byte-order mark";
    return res;
  }
  if (version < Trace::kOldestFormatVersion || version > Trace::kFormatVersion) {
    res.error = "trace format version " + std::to_string(version) + " is not supported (this warpscope reads versions " +
                std::to_string(Trace::kOldestFormatVersion) + " to " + std::to_string(Trace::kFormatVersion) + ")";
    return res;
  }
  if (size != bytes.size() - kHeaderBytes) {
    res.error = "damaged trace file: the header announces " + std::to_string(size) + " bytes of data but the file has " +
                std::to_string(bytes.size() - kHeaderBytes) + " (truncated?)";
    return res;
  }
  const char* payload = bytes.data() + kHeaderBytes;
  if (fnv1a(payload, size) != sum) {
    res.error = "damaged trace file: checksum mismatch (the data was changed after it was written)";
    return res;
  }
  return read_checked(payload, size, version);
}

LoadResult deserialize_trace_payload(const std::string& payload) {
  return read_checked(payload.data(), payload.size(), Trace::kFormatVersion);
}

std::string save_trace(const Trace& t, const std::filesystem::path& path) {
  return write_file_atomic(path, serialize_trace(t));
}

LoadResult load_trace(const std::filesystem::path& path) {
  std::string bytes, error;
  if (!read_file(path, bytes, error)) return {Trace{}, error};
  LoadResult r = deserialize_trace(bytes);
  if (!r.ok()) r.error = path.string() + ": " + r.error;
  return r;
}

}  // namespace ws
