#include "ws/analysis/crosscheck.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <tuple>

namespace ws::analysis {

namespace {

// One lane access, in backend-independent terms.
struct Access {
  uint32_t block, thread, line;
  std::string allocation;
  uint64_t byte_offset;
  AccessKind kind;
  auto key() const { return std::tie(block, thread, line, allocation, byte_offset, kind); }
  bool operator<(const Access& o) const { return key() < o.key(); }
  bool operator==(const Access& o) const { return key() == o.key(); }
};

std::vector<Access> accesses(const Trace& t, const std::vector<uint32_t>& blocks) {
  std::vector<Access> out;
  for (const Event& e : t.events) {
    if (e.type != EventType::Access || !std::binary_search(blocks.begin(), blocks.end(), e.block)) continue;
    const std::string& name = e.alloc < t.allocations.size() ? t.allocations[e.alloc].name : std::string("?");
    const uint32_t line = e.site < t.sites.size() ? t.sites[e.site].line : 0;
    auto lanes = t.lanes(e);
    size_t k = 0;
    for (uint32_t m = e.mask; m; m &= m - 1, ++k)
      out.push_back({e.block, uint32_t(e.warp) * kWarpSize + uint32_t(std::countr_zero(m)), line, name, lanes[k], e.kind});
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string describe(const Access& a, const Trace& t) {
  const char* kind = to_string(a.kind);
  uint32_t elem = 1;
  for (const Allocation& al : t.allocations)
    if (al.name == a.allocation) elem = std::max<uint32_t>(al.elem_size, 1);
  char buf[256];
  std::snprintf(buf, sizeof buf, "block %u thread %u line %u: %s %s[%llu]", a.block, a.thread, a.line, kind,
                a.allocation.c_str(), static_cast<unsigned long long>(a.byte_offset / elem));
  return buf;
}

}  // namespace

Crosscheck crosscheck(const Trace& emu, const Trace& gpu, size_t max_differences) {
  Crosscheck c;
  std::set_intersection(emu.recorded_blocks.begin(), emu.recorded_blocks.end(), gpu.recorded_blocks.begin(),
                        gpu.recorded_blocks.end(), std::back_inserter(c.blocks));
  const std::vector<Access> a = accesses(emu, c.blocks), b = accesses(gpu, c.blocks);
  c.emu_accesses = a.size();
  c.gpu_accesses = b.size();
  c.identical = a == b && !emu.truncated && !gpu.truncated;
  for (const auto& [t, who] : {std::pair<const Trace*, const char*>{&emu, "the emulator's"}, {&gpu, "the GPU's"}})
    if (t->truncated)
      c.incomplete += std::string(c.incomplete.empty() ? "" : "; ") + who + " trace is incomplete: " +
                      std::to_string(t->dropped_events) + " warp instructions were not recorded (its record buffer "
                      "filled up: record fewer blocks, or raise --max-events)";
  // The accesses one side has more of than the other (sorted merge of two multisets).
  size_t i = 0, j = 0;
  while ((i < a.size() || j < b.size()) && c.differences.size() < max_differences) {
    if (j == b.size() || (i < a.size() && a[i] < b[j])) {
      c.differences.push_back("only the emulator: " + describe(a[i++], emu));
    } else if (i == a.size() || b[j] < a[i]) {
      c.differences.push_back("only the GPU: " + describe(b[j++], gpu));
    } else {
      ++i, ++j;
    }
  }
  // Grouping: warp instructions per (line, kind, allocation) on each side.
  std::map<std::tuple<uint32_t, AccessKind, std::string>, GroupingRow> rows;
  auto count = [&](const Trace& t, bool is_emu) {
    for (const Event& e : t.events) {
      if (e.type != EventType::Access || !std::binary_search(c.blocks.begin(), c.blocks.end(), e.block)) continue;
      const std::string& name = e.alloc < t.allocations.size() ? t.allocations[e.alloc].name : std::string("?");
      const uint32_t line = e.site < t.sites.size() ? t.sites[e.site].line : 0;
      GroupingRow& r = rows[{line, e.kind, name}];
      r.line = line;
      r.kind = e.kind;
      r.allocation = name;
      if (r.source.empty() && e.site < t.sites.size()) {
        const std::string& s = t.sites[e.site].text;
        const auto p = s.find_first_not_of(" \t");
        r.source = p == std::string::npos ? s : s.substr(p);
      }
      (is_emu ? r.emu_instructions : r.gpu_instructions) += 1;
      if (is_emu) r.lanes += uint64_t(std::popcount(e.mask));
    }
  };
  count(emu, true);
  count(gpu, false);
  std::map<std::pair<uint32_t, WarpOp>, WarpOpRow> ops;
  auto count_ops = [&](const Trace& t, bool is_emu) {
    for (const Event& e : t.events) {
      if (e.type != EventType::WarpSync || !std::binary_search(c.blocks.begin(), c.blocks.end(), e.block)) continue;
      const uint32_t line = e.site < t.sites.size() ? t.sites[e.site].line : 0;
      WarpOpRow& r = ops[{line, WarpOp(e.op)}];
      r.line = line;
      r.op = WarpOp(e.op);
      (is_emu ? r.emu_calls : r.gpu_calls) += 1;
      (is_emu ? r.emu_lanes : r.gpu_lanes) += uint64_t(std::popcount(e.mask));
    }
  };
  count_ops(emu, true);
  count_ops(gpu, false);
  for (auto& [k, r] : ops) {
    c.warp_op_differences += r.emu_lanes != r.gpu_lanes;
    c.warp_ops.push_back(r);
  }
  std::stable_partition(c.warp_ops.begin(), c.warp_ops.end(), [](const WarpOpRow& r) { return r.emu_lanes != r.gpu_lanes; });
  for (auto& [k, r] : rows) {
    c.grouping_differences += r.emu_instructions != r.gpu_instructions;
    c.grouping.push_back(r);
  }
  std::stable_partition(c.grouping.begin(), c.grouping.end(),
                        [](const GroupingRow& r) { return r.emu_instructions != r.gpu_instructions; });
  return c;
}

std::string format_crosscheck(const Crosscheck& c) {
  std::string out;
  char buf[512];
  std::snprintf(buf, sizeof buf, "accesses: emulator %llu, GPU %llu over %zu block(s): %s\n",
                static_cast<unsigned long long>(c.emu_accesses), static_cast<unsigned long long>(c.gpu_accesses),
                c.blocks.size(), c.identical ? "IDENTICAL" : c.incomplete.empty() ? "DIFFERENT" : "NOT COMPARABLE");
  out += buf;
  if (!c.incomplete.empty()) out += "  " + c.incomplete + "\n";
  for (const std::string& d : c.differences) out += "  " + d + "\n";
  std::snprintf(buf, sizeof buf, "grouping (warp instructions per line): %llu of %zu rows differ%s\n",
                static_cast<unsigned long long>(c.grouping_differences), c.grouping.size(),
                c.grouping_differences ? " (the hardware grouped lanes differently from the SIMT model)" : "");
  out += buf;
  std::snprintf(buf, sizeof buf, "  %5s %-6s %-12s %8s %8s %8s  %s\n", "line", "kind", "array", "emu", "gpu", "lanes",
                "source");
  out += buf;
  for (const GroupingRow& r : c.grouping) {
    std::snprintf(buf, sizeof buf, "  %5u %-6s %-12s %8llu %8llu %8llu  %s%s\n", r.line, to_string(r.kind),
                  r.allocation.c_str(), static_cast<unsigned long long>(r.emu_instructions),
                  static_cast<unsigned long long>(r.gpu_instructions), static_cast<unsigned long long>(r.lanes),
                  r.source.substr(0, 60).c_str(), r.emu_instructions != r.gpu_instructions ? "   <- differs" : "");
    out += buf;
  }
  if (!c.warp_ops.empty()) {
    std::snprintf(buf, sizeof buf, "warp-synchronous calls per line: %llu of %zu rows differ in lanes\n",
                  static_cast<unsigned long long>(c.warp_op_differences), c.warp_ops.size());
    out += buf;
    std::snprintf(buf, sizeof buf, "  %5s %-12s %8s %8s %10s %10s\n", "line", "call", "emu", "gpu", "emu lanes", "gpu lanes");
    out += buf;
    for (const WarpOpRow& r : c.warp_ops) {
      std::snprintf(buf, sizeof buf, "  %5u %-12s %8llu %8llu %10llu %10llu%s\n", r.line, to_string(r.op),
                    static_cast<unsigned long long>(r.emu_calls), static_cast<unsigned long long>(r.gpu_calls),
                    static_cast<unsigned long long>(r.emu_lanes), static_cast<unsigned long long>(r.gpu_lanes),
                    r.emu_lanes != r.gpu_lanes ? "   <- differs" : "");
      out += buf;
    }
  }
  return out;
}

}  // namespace ws::analysis
