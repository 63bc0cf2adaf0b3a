// Without a GPU: what the emulator counts per variant (the Timing panel's fallback).
#include "ws/analysis/analysis.h"
#include "ws/timing/timing.h"

#include <optional>
#include <algorithm>

namespace ws::timing {

std::vector<VariantCounts> count_variants(const Catalog& catalog, const std::string& kernel, const RunConfig& base, const Progress& progress,
                                          const std::atomic<bool>* cancel) {
  std::vector<VariantCounts> out;
  const std::optional<CatalogEntry> e = catalog.copy(kernel);  // (a copy: a kernel file may replace it)
  if (!e) return out;
  for (const VariantSpec& v : e->spec.variants) {
    if (v.broken || v.gpu_only) continue;
    if (cancel && cancel->load()) break;
    VariantCounts c;
    c.variant = v.id;
    c.variant_name = v.name;
    RunConfig cfg = base;
    cfg.variant = v.id;
    cfg.record.blocks.clear();  // every block: the counts are for the whole launch
    if (progress) progress("counting " + kernel + " " + v.id + " on the emulator");
    const RunResult r = catalog.run(kernel, cfg, BackendKind::Emu);
    if (!r.refused.empty() || !r.errors.empty()) {
      c.error = !r.refused.empty() ? r.refused : r.errors.front().message;
      out.push_back(std::move(c));
      continue;
    }
    bool truncated = false;
    analysis::Options opt;
    opt.hazards = false;
    opt.per_event = false;
    opt.heat_bins = 0;
    analysis::Totals tot;
    for (const Trace& t : r.launches) {
      truncated |= t.truncated;
      tot += analysis::analyze(t, opt).totals;
      // A block's barrier is one Barrier event per warp when it releases.
      const uint64_t warps = std::max<uint64_t>(1, (t.launch.block.count() + 31) / 32);
      uint64_t events = 0;
      for (const Event& e : t.events) events += e.type == EventType::Barrier;
      c.barriers += events / warps;
    }
    for (size_t k = 0; k < 3; ++k) {
      c.shared_wavefronts += tot.shared[k].wavefronts;
      c.shared_conflicts += tot.shared[k].conflicts;
      c.global_requests += tot.global[k].requests;
      c.global_sectors += tot.global[k].sectors;
    }
    c.warp_instructions = tot.divergence.instructions;
    c.simd_efficiency = tot.divergence.simd_efficiency();
    if (truncated) c.error = "the trace was truncated (lower n): counts would be partial";
    else c.ok = true;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ws::timing
