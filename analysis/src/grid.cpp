// grid_counters(): the device's per-site counters (Trace::site_counters) as whole-grid totals and
// per-site rows, under the same rules and names as the recorded blocks' analysis.
#include <algorithm>

#include "site_order.h"
#include "ws/analysis/analysis.h"

namespace ws::analysis {

GridCounters grid_counters(const Trace& trace) {
  GridCounters g;
  if (trace.site_counters.empty()) return g;
  g.present = true;
  g.blocks = trace.total_blocks;
  for (const SiteCounters& c : trace.site_counters) {
    const int k = std::min(static_cast<int>(c.kind), kAtom);
    SiteMetrics s;
    s.site = c.site;
    s.space = c.space;
    s.kind = static_cast<AccessKind>(k);
    s.width = c.width;
    s.instructions = c.instructions;
    s.lane_accesses = c.lanes;
    g.instructions += c.instructions;
    g.lane_accesses += c.lanes;
    if (c.space == MemSpace::Shared) {
      s.wavefronts = c.wavefronts;
      s.ideal_wavefronts = c.ideal_wavefronts;
      // The device adds both per instruction, so wavefronts >= ideal; a damaged file may not hold
      // to it, and a conflict count must not wrap around.
      s.conflicts = c.wavefronts > c.ideal_wavefronts ? c.wavefronts - c.ideal_wavefronts : 0;
      SharedCounters& t = g.shared[k];
      t.instructions += c.instructions;
      t.wavefronts += s.wavefronts;
      t.ideal_wavefronts += s.ideal_wavefronts;
      t.conflicts += s.conflicts;
      t.lane_accesses += c.lanes;
      t.bytes += c.lanes * c.width;
    } else {
      s.sectors = c.sectors;
      s.lines = c.lines;
      s.bytes_requested = c.lanes * c.width;
      s.bytes_moved = c.sectors * rules::kSectorBytes;
      GlobalCounters& t = g.global[k];
      t.instructions += c.instructions;
      t.requests += c.instructions;  // every counted instruction had an active lane
      t.sectors += c.sectors;
      t.lines += c.lines;
      t.lane_accesses += c.lanes;
      t.bytes_requested += s.bytes_requested;
      t.bytes_moved += s.bytes_moved;
    }
    g.sites.push_back(s);
  }
  std::stable_sort(g.sites.begin(), g.sites.end(), [&](const SiteMetrics& a, const SiteMetrics& b) {
    if (a.site != b.site) return site_before(trace.sites, a.site, b.site);
    if (a.space != b.space) return a.space < b.space;
    return a.kind < b.kind;
  });
  return g;
}

}  // namespace ws::analysis
