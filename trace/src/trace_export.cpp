// JSON exports, written by hand (streamed) because a trace can hold millions of lane accesses.
#include <bit>
#include <cinttypes>
#include <cstdio>

#include "ws/trace/trace_io.h"
#include "ws/util/atomic_file.h"

namespace ws {

namespace {

void escape(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (uint8_t(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          out += b;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void num(std::string& out, uint64_t v) { out += std::to_string(v); }

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

std::string instruction_name(const Trace& t, const Event& e) {
  switch (e.type) {
    case EventType::Access: {
      std::string name = e.alloc < t.allocations.size() ? t.allocations[e.alloc].name : "?";
      if (e.kind == AccessKind::Atomic) return std::string(to_string(AtomicOp(e.op))) + " " + name;
      return std::string(to_string(e.kind)) + " " + name;
    }
    case EventType::Barrier: return "__syncthreads";
    case EventType::WarpSync: return to_string(WarpOp(e.op));
    case EventType::Fence: return e.op ? "__threadfence_block" : "__threadfence";
  }
  return "?";
}

}  // namespace

std::string to_json(const Trace& t) {
  std::string o;
  o.reserve(256 + t.events.size() * 160 + t.lane_offsets.size() * 48);
  o += "{\n  \"format\": \"warpscope-instructions\",\n  \"version\": 1,\n  \"kernel\": ";
  escape(o, t.launch.kernel);
  o += ",\n  \"variant\": ";
  escape(o, t.launch.variant);
  o += ",\n  \"backend\": ";
  escape(o, t.launch.backend);
  o += ",\n  \"grid\": [" + std::to_string(t.launch.grid.x) + "," + std::to_string(t.launch.grid.y) + "," +
       std::to_string(t.launch.grid.z) + "],\n  \"block\": [" + std::to_string(t.launch.block.x) + "," +
       std::to_string(t.launch.block.y) + "," + std::to_string(t.launch.block.z) + "],\n";
  o += "  \"truncated\": ";
  o += t.truncated ? "true" : "false";
  o += ",\n  \"instructions\": [";
  bool first = true;
  for (const Event& e : t.events) {
    if (e.type != EventType::Access) continue;
    o += first ? "\n    {" : ",\n    {";
    first = false;
    const Site& s = t.sites.at(e.site);
    const Allocation& a = t.allocations.at(e.alloc);
    o += "\"block\": ";
    num(o, e.block);
    o += ", \"warp\": ";
    num(o, e.warp);
    o += ", \"step\": ";
    num(o, e.step);
    o += ", \"file\": ";
    escape(o, s.file);
    o += ", \"line\": ";
    num(o, s.line);
    o += ", \"source\": ";
    escape(o, trim(s.text));
    o += ", \"kind\": \"";
    o += to_string(e.kind);
    o += "\", \"space\": \"";
    o += to_string(e.space);
    o += "\", \"width\": ";
    num(o, e.width);
    o += ", \"allocation\": ";
    escape(o, a.name);
    o += ", \"mask\": \"" + hex32(e.mask) + "\", \"lanes\": [";
    auto offs = t.lanes(e);
    size_t k = 0;
    for (uint32_t m = e.mask; m; m &= m - 1, ++k) {
      const uint32_t lane = uint32_t(std::countr_zero(m));
      const Dim3 th = t.thread_index(e.warp, lane);
      if (k) o += ", ";
      o += "{\"lane\": " + std::to_string(lane) + ", \"thread\": [" + std::to_string(th.x) + "," +
           std::to_string(th.y) + "," + std::to_string(th.z) + "], \"element\": ";
      escape(o, element_name(a, offs[k]));
      o += ", \"address\": ";
      num(o, t.address(e, offs[k]));
      o += "}";
    }
    o += "]}";
  }
  o += "\n  ]\n}\n";
  return o;
}

std::string to_chrome_trace(std::span<const Trace> launches) {
  // The trace format counts "ts" in microseconds. A GPU trace has real time (%globaltimer, in ns:
  // shown as microseconds with three decimals); the emulator has none, only the block's issue
  // clock: one issue step is written as one microsecond, and every process says so.
  std::string o = "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"time\": ";
  bool any_emu = false, any_gpu = false;
  for (const Trace& t : launches) (t.launch.backend.rfind("gpu", 0) == 0 ? any_gpu : any_emu) = true;
  o += any_emu && any_gpu ? "\"gpu launches: nanoseconds of %globaltimer; emulator launches: issue steps, 1 step = 1 us\""
       : any_gpu          ? "\"nanoseconds of the GPU's %globaltimer\""
                          : "\"issue steps of the emulator's block clock, 1 step written as 1 us: an order, not a time\"";
  o += "}, \"traceEvents\": [\n";
  bool first = true;
  auto sep = [&] {
    if (!first) o += ",\n";
    first = false;
  };
  for (size_t l = 0; l < launches.size(); ++l) {
    const Trace& t = launches[l];
    const bool gpu_time = t.launch.backend.rfind("gpu", 0) == 0;
    // One process per (launch, block): pid = launch * 2^20 + block (blocks of a recorded launch
    // stay far below 2^20 in what a trace holds).
    const uint64_t pid_base = uint64_t(l) << 20;
    const std::string axis = gpu_time ? "" : ", x = issue steps";
    uint64_t t0 = UINT64_MAX;
    if (gpu_time)
      for (const Event& e : t.events) t0 = std::min(t0, e.time);
    for (uint32_t b : t.recorded_blocks) {
      sep();
      o += "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " + std::to_string(pid_base + b) +
           ", \"args\": {\"name\": ";
      escape(o, "launch " + std::to_string(l) + " " + t.launch.entry + ", block " + std::to_string(b) + axis);
      o += "}}";
    }
    uint32_t last_block = UINT32_MAX, warps_named = 0;
    for (const Event& e : t.events) {
      const uint64_t pid = pid_base + e.block;
      if (e.block != last_block) last_block = e.block, warps_named = 0;
      if (e.warp >= warps_named) {
        for (; warps_named <= e.warp; ++warps_named) {
          sep();
          o += "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": " + std::to_string(pid) +
               ", \"tid\": " + std::to_string(warps_named) + ", \"args\": {\"name\": \"warp " +
               std::to_string(warps_named) + "\"}}";
        }
      }
      const double ts = gpu_time ? double(e.time - t0) / 1000.0 : double(e.time);
      char tsbuf[32];
      std::snprintf(tsbuf, sizeof tsbuf, "%.3f", ts);
      sep();
      o += "{\"ph\": \"X\", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(e.warp) +
           ", \"ts\": " + tsbuf + ", \"dur\": " + (gpu_time ? "0.001" : "1") + ", \"name\": ";
      escape(o, instruction_name(t, e));
      o += ", \"cat\": \"" + std::string(to_string(e.type)) + "\", \"args\": {\"mask\": \"" + hex32(e.mask) +
           "\", \"active_lanes\": " + std::to_string(std::popcount(e.mask)) + ", \"line\": " +
           std::to_string(e.site < t.sites.size() ? t.sites[e.site].line : 0) + ", \"step\": " + std::to_string(e.step) +
           ", \"source\": ";
      escape(o, e.site < t.sites.size() ? trim(t.sites[e.site].text) : std::string());
      o += "}}";
    }
  }
  o += "\n]}\n";
  return o;
}

std::string to_chrome_trace(const Trace& t) { return to_chrome_trace(std::span<const Trace>(&t, 1)); }

std::string export_json(const Trace& t, const std::filesystem::path& path) {
  return write_file_atomic(path, to_json(t));
}

std::string export_chrome_trace(std::span<const Trace> launches, const std::filesystem::path& path) {
  return write_file_atomic(path, to_chrome_trace(launches));
}

}  // namespace ws
