#include "ws/gpu/decode.h"

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <tuple>

#include "ws/trace/sources.h"

namespace ws::gpu {

namespace {

class SiteTable {
 public:
  SiteTable(Trace& t, const std::function<std::string(uint64_t)>& read) : t_(t), read_(read) {}

  uint32_t get(uint64_t file, uint32_t line, uint32_t column) {
    auto [it, inserted] = ids_.try_emplace(std::make_tuple(file, line, column), uint32_t(t_.sites.size()));
    if (inserted) {
      Site s;
      auto f = files_.find(file);
      if (f == files_.end()) f = files_.emplace(file, read_ ? read_(file) : std::string()).first;
      s.file = kernel_relative_path(f->second);
      s.line = line;
      s.column = column;
      s.text = source_line(s.file, line, f->second);
      t_.sites.push_back(std::move(s));
    }
    return it->second;
  }

 private:
  Trace& t_;
  const std::function<std::string(uint64_t)>& read_;
  std::map<std::tuple<uint64_t, uint32_t, uint32_t>, uint32_t> ids_;
  std::map<uint64_t, std::string> files_;
};

std::string record_name(const gpu_trace::Record& r) {
  size_t n = 0;
  while (n < sizeof r.name && r.name[n]) ++n;
  return std::string(r.name, n);
}

}  // namespace

Trace decode(const DecodeInput& in) {
  Trace t;
  t.launch = in.launch;
  t.allocations = in.globals;
  t.total_blocks = in.total_blocks;
  t.recorded_blocks = in.full_blocks;
  if (in.reserved > in.capacity) {
    t.truncated = true;
    t.dropped_events = in.reserved - in.capacity;
  }
  SiteTable sites(t, in.read_string);

  // Shared arrays are identified by (name, start in the shared window, element size).
  std::map<std::tuple<std::string, uint32_t, uint32_t>, uint32_t> shared_ids;
  auto shared_alloc = [&](const gpu_trace::Record& r) {
    const std::string name = record_name(r);
    auto [it, inserted] = shared_ids.try_emplace(std::make_tuple(name, r.shared_base, r.elem_size),
                                                 uint32_t(t.allocations.size()));
    if (inserted) {
      Allocation a;
      a.name = name.empty() ? "shared@" + std::to_string(r.shared_base) : name;
      a.space = MemSpace::Shared;
      a.elem_size = r.elem_size;
      a.extent = r.extent;
      a.base = r.shared_base;
      t.allocations.push_back(std::move(a));
    }
    return it->second;
  };

  // Blocks ascending; inside a block, reservation order (= each warp's issue order).
  const size_t n = std::min<uint64_t>(in.records.size(), std::min(in.reserved, in.capacity));
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return in.records[a].block < in.records[b].block; });

  std::map<std::pair<uint32_t, uint32_t>, uint32_t> steps;  // (block, warp) -> next step
  uint64_t t0 = UINT64_MAX;
  for (uint32_t i : order) t0 = std::min(t0, in.records[i].time);
  for (uint32_t i : order) {
    const gpu_trace::Record& r = in.records[i];
    Event e;
    e.block = r.block;
    e.warp = r.warp;
    e.mask = r.mask;
    e.sm = r.sm;
    e.time = r.time - t0;
    e.site = sites.get(r.file, r.line, r.column);
    e.step = steps[{r.block, r.warp}]++;
    if (r.type == gpu_trace::kRecordBarrier) {
      e.type = EventType::Barrier;
    } else if (r.type == gpu_trace::kRecordWarpOp) {
      e.type = EventType::WarpSync;
      e.op = std::min<uint8_t>(r.kind, uint8_t(WarpOp::Clock));
      e.alloc = uint32_t(r.alloc);  // the member mask the call named (Event::aux)
    } else {
      e.type = EventType::Access;
      e.kind = AccessKind(std::min<uint8_t>(r.kind, 2));
      e.width = r.width;
      e.space = r.space ? MemSpace::Shared : MemSpace::Global;
      e.op = r.atomic;
      e.flags = r.flags;
      if (e.space == MemSpace::Shared) {
        e.alloc = shared_alloc(r);
      } else if (r.alloc < in.globals.size()) {
        e.alloc = uint32_t(r.alloc);
      } else {
        Diagnostic d;
        d.severity = Severity::Warning;
        d.code = "unknown-allocation";
        d.message = "a gpu-trace record names global allocation " + std::to_string(r.alloc) + " of " +
                    std::to_string(in.globals.size()) + "; the record was skipped";
        t.diagnostics.push_back(std::move(d));
        continue;
      }
      e.lane_begin = t.lane_offsets.size();
      for (uint32_t m = r.mask; m; m &= m - 1) t.lane_offsets.push_back(r.offsets[std::countr_zero(m)]);
    }
    t.events.push_back(e);
  }

  // Per-site counters of every block, summed over the SMs' tables.
  std::map<std::tuple<uint32_t, uint8_t, uint8_t>, SiteCounters> totals;
  for (const gpu_trace::SiteCounter& c : in.counters) {
    if (!c.key) continue;
    const uint32_t site = sites.get(c.file, c.line, c.column);
    SiteCounters row;
    row.site = site;
    row.kind = AccessKind(std::min<uint8_t>(c.kind, 2));
    row.space = c.space ? MemSpace::Shared : MemSpace::Global;
    row.width = c.width;
    row.instructions = c.instructions;
    row.lanes = c.lanes;
    row.wavefronts = c.wavefronts;
    row.ideal_wavefronts = c.ideal_wavefronts;
    row.sectors = c.sectors;
    row.lines = c.lines;
    auto [it, inserted] = totals.try_emplace({site, c.kind, c.space}, row);
    if (!inserted) it->second += row;
  }
  for (auto& [key, s] : totals) t.site_counters.push_back(s);
  if (in.counter_overflow) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.code = "counter-overflow";
    d.message = "the kernel has more sites than the per-warp counter table holds (" +
                std::to_string(gpu_trace::kCounterSlots) + "); some per-site counters are missing";
    t.diagnostics.push_back(std::move(d));
  }
  if (t.truncated) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.code = "truncated";
    d.message = "the record buffer filled up: " + std::to_string(t.dropped_events) +
                " warp instructions were not recorded (record fewer blocks, or raise --max-events)";
    t.diagnostics.push_back(std::move(d));
  }
  assign_site_ranks(t);
  return t;
}

}  // namespace ws::gpu
