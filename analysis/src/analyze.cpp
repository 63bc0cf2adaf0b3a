// analyze(): one pass over the trace's events, block by block.
#include <algorithm>
#include <span>
#include <bit>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "hazard_detector.h"
#include "site_order.h"
#include "ws/analysis/analysis.h"

namespace ws::analysis {
namespace {

// Nsight Compute's count of an atomic's sector accesses (l1tex__t_sectors_..._op_atom/_op_red):
// lanes on one address are served one after another, each pass over the sector counted, so per
// 32-byte sector: the most lanes that hit one address in it. Measured on an H100: exact for one
// address per sector or adjacent words; 1-2% under ncu where random words share a sector.
uint64_t atomic_sector_passes(std::span<const uint64_t> addresses) {
  uint64_t a[kWarpSize];
  const size_t n = std::min<size_t>(addresses.size(), kWarpSize);
  std::copy_n(addresses.begin(), n, a);
  std::sort(a, a + n);
  uint64_t passes = 0;
  for (size_t i = 0; i < n;) {
    const uint64_t sector = a[i] / rules::kSectorBytes;
    uint32_t most = 0;
    while (i < n && a[i] / rules::kSectorBytes == sector) {
      size_t j = i;
      while (j < n && a[j] == a[i]) ++j;
      most = std::max<uint32_t>(most, uint32_t(j - i));
      i = j;
    }
    passes += most;
  }
  return passes;
}


bool is_instruction(const Event& e) {
  return e.type == EventType::Access || e.type == EventType::WarpSync || e.type == EventType::Fence;
}

struct SiteKey {
  uint32_t site, alloc;
  uint8_t kind, space;
  bool operator==(const SiteKey&) const = default;
};
struct SiteKeyHash {
  size_t operator()(const SiteKey& k) const {
    uint64_t h = (uint64_t(k.site) << 32) ^ (uint64_t(k.alloc) * 0x9e3779b97f4a7c15ull);
    return static_cast<size_t>((h ^ (uint64_t(k.kind) << 3 | k.space)) * 0xff51afd7ed558ccdull);
  }
};

struct WarpState {
  uint32_t prev_mask = 0;
  bool has_prev = false;
  bool used = false;
  WarpMetrics m;
};

std::string thread_text(const Dim3& t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%u,%u,%u)", t.x, t.y, t.z);
  return buf;
}

// One pass of analyze(): the report being filled and what the pass keeps from event to event.
// Its steps, in the order analyze() takes them, each one of the sections below.
class Pass {
 public:
  Pass(const Trace& t, const Options& o)
      : trace(t),
        options(o),
        T(r.totals),
        hazards(t, o.max_readers_per_word),
        global_hazards(t, o.max_readers_per_word, MemSpace::Global),
        div(t.sites.size()),
        div_used(t.sites.size(), false) {
    r.launch = trace.launch;
    r.site_table = trace.sites;
    r.allocations = trace.allocations;
    r.total_blocks = trace.total_blocks;
    r.truncated = trace.truncated;
    r.dropped_events = trace.dropped_events;
    r.hazards_checked = options.hazards;
    if (options.per_event) r.events.assign(trace.events.size(), EventSummary{});
    addr.reserve(kWarpSize);
  }
  void select_blocks();
  void size_heatmaps();
  void run_blocks();
  void order_sites();
  void finish_hazards();
  void per_line();
  void add_diagnostics();
  Report take() {
    r.grid = grid_counters(trace);
    return std::move(r);
  }

 private:
  // What an instruction's divergence step hands to its access.
  struct Step {
    uint32_t live = 0;
    uint64_t split = 0, rec = 0, sw = 0;
    EventSummary* es = nullptr;
  };
  bool selected(uint32_t b) const { return std::binary_search(r.blocks.begin(), r.blocks.end(), b); }
  void event(size_t i, uint32_t block);
  Step divergence(size_t i, const Event& e, WarpState& ws);
  void access(size_t i, const Event& e, const Step& st);

  const Trace& trace;
  const Options& options;
  Report r;
  Totals& T;
  std::vector<uint32_t> present;  // the blocks the trace holds
  std::unordered_map<SiteKey, size_t, SiteKeyHash> site_index;
  detail::HazardDetector hazards, global_hazards;
  std::vector<SiteDivergence> div;
  std::vector<bool> div_used;
  std::vector<WarpState> warps;
  std::vector<uint64_t> addr;
};

// =================================================================================================
// [SECTION] Blocks and heatmaps
// =================================================================================================

// The blocks present in the trace (recorded_blocks, or derived from the events), and of them the
// ones asked for.
void Pass::select_blocks() {
  present = trace.recorded_blocks;
  if (present.empty())
    for (const Event& e : trace.events)
      if (present.empty() || present.back() != e.block) present.push_back(e.block);
  std::sort(present.begin(), present.end());
  present.erase(std::unique(present.begin(), present.end()), present.end());
  if (options.blocks.empty()) {
    r.blocks = present;
  } else {
    std::vector<uint32_t> want = options.blocks;
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    for (uint32_t b : want)
      (std::binary_search(present.begin(), present.end(), b) ? r.blocks : r.missing_blocks).push_back(b);
  }
}

// The memory heatmap's bins per allocation.
void Pass::size_heatmaps() {
  if (options.heat_bins) {
    r.heat.resize(trace.allocations.size());
    for (size_t a = 0; a < trace.allocations.size(); ++a) {
      AllocationHeat& h = r.heat[a];
      h.alloc = static_cast<uint32_t>(a);
      const uint64_t extent = std::max<uint64_t>(1, trace.allocations[a].extent);
      h.elements_per_bin = (extent + options.heat_bins - 1) / options.heat_bins;
      const size_t bins = static_cast<size_t>((extent + h.elements_per_bin - 1) / h.elements_per_bin);
      h.loads.assign(bins, 0);
      h.stores.assign(bins, 0);
      h.atomics.assign(bins, 0);
    }
  }
}

// =================================================================================================
// [SECTION] Events, block by block
// =================================================================================================

void Pass::run_blocks() {
  const size_t n = trace.events.size();
  size_t i = 0;
  while (i < n) {
    const uint32_t block = trace.events[i].block;
    size_t end = i;
    while (end < n && trace.events[end].block == block) ++end;
    if (!selected(block)) {
      i = end;
      continue;
    }
    if (options.hazards) hazards.begin_block(block), global_hazards.begin_block(block);
    warps.assign(warps.size(), WarpState{});
    for (; i < end; ++i) event(i, block);
    for (const WarpState& w : warps)
      if (w.used) r.warps.push_back(w.m);
  }
}

void Pass::event(size_t i, uint32_t block) {
  const Event& e = trace.events[i];
  ++T.events;
  if (e.warp >= warps.size()) warps.resize(e.warp + 1);
  WarpState& ws = warps[e.warp];
  if (!ws.used) {
    ws.used = true;
    ws.m.block = block;
    ws.m.warp = e.warp;
    ws.m.live_lanes = live_lanes(trace, e.warp);
  }
  if (e.type == EventType::Barrier) {
    ++T.barriers;
    ++ws.m.barriers;
    if (options.hazards) hazards.barrier(e.warp), global_hazards.barrier(e.warp);
    return;
  }
  if (!is_instruction(e)) return;
  const Step st = divergence(i, e, ws);
  if (e.type == EventType::WarpSync) {
    ++T.warp_syncs;
    if (options.hazards && static_cast<WarpOp>(e.op) == WarpOp::SyncWarp)
      hazards.syncwarp(e.warp, e.mask, e.aux(), i), global_hazards.syncwarp(e.warp, e.mask, e.aux(), i);
    return;
  }
  if (e.type == EventType::Fence) {
    ++T.fences;
    return;
  }
  access(i, e, st);
}

// The instruction's active lanes and mask transition, per warp, per site and in total.
Pass::Step Pass::divergence(size_t i, const Event& e, WarpState& ws) {
  const uint32_t active = static_cast<uint32_t>(std::popcount(e.mask));
  const uint32_t live = ws.m.live_lanes;
  const MaskTransition tr = ws.has_prev ? classify_transition(ws.prev_mask, e.mask) : MaskTransition::First;
  ws.prev_mask = e.mask;
  ws.has_prev = true;
  const uint64_t split = tr == MaskTransition::Split, rec = tr == MaskTransition::Reconverge,
                 sw = tr == MaskTransition::Switch;
  DivergenceCounters& D = T.divergence;
  ++D.instructions;
  D.active_lanes += active;
  D.live_lanes += live;
  D.splits += split;
  D.reconverges += rec;
  D.switches += sw;
  ++ws.m.instructions;
  ws.m.active_lanes += active;
  ws.m.splits += split;
  ws.m.reconverges += rec;
  ws.m.switches += sw;
  if (e.site < div.size()) {
    SiteDivergence& sd = div[e.site];
    div_used[e.site] = true;
    sd.site = e.site;
    ++sd.instructions;
    sd.active_lanes += active;
    sd.live_lanes += live;
    sd.splits += split;
    sd.reconverges += rec;
    sd.switches += sw;
  }
  EventSummary* es = options.per_event ? &r.events[i] : nullptr;
  if (es) {
    es->analyzed = true;
    es->active_lanes = static_cast<uint8_t>(active);
    es->transition = tr;
  }
  return {live, split, rec, sw, es};
}

// A memory access: its site's metrics, the heatmap, banks or sectors, atomics' contention.
void Pass::access(size_t i, const Event& e, const Step& st) {
  const uint32_t live = st.live;
  const uint64_t split = st.split, rec = st.rec, sw = st.sw;
  EventSummary* es = st.es;
  ++T.accesses;
  const auto offsets = trace.lanes(e);
  addr.clear();
  for (uint64_t off : offsets) addr.push_back(trace.address(e, off));
  const MemSpace space = e.alloc < trace.allocations.size() ? trace.allocations[e.alloc].space : e.space;
  const int k = static_cast<int>(e.kind) <= 2 ? static_cast<int>(e.kind) : kLd;
  const uint64_t lanes = addr.size();
  if (e.alloc < r.heat.size()) {
    AllocationHeat& h = r.heat[e.alloc];
    std::vector<uint32_t>& bins = k == kLd ? h.loads : k == kSt ? h.stores : h.atomics;
    const uint64_t esize = std::max<uint32_t>(1, trace.allocations[e.alloc].elem_size);
    for (uint64_t off : offsets) bins[std::min<uint64_t>(bins.size() - 1, off / esize / h.elements_per_bin)]++;
  }
  const uint32_t width = e.width ? e.width : 1;

  SiteKey key{e.site, e.alloc, static_cast<uint8_t>(k), static_cast<uint8_t>(space)};
  auto [it, inserted] = site_index.try_emplace(key, r.sites.size());
  if (inserted) {
    SiteMetrics sm;
    sm.site = e.site;
    sm.alloc = e.alloc;
    sm.space = space;
    sm.kind = static_cast<AccessKind>(k);
    r.sites.push_back(sm);
  }
  SiteMetrics& S = r.sites[it->second];
  S.width = std::max(S.width, width);
  ++S.instructions;
  S.lane_accesses += lanes;
  S.live_lanes += live;
  S.splits += split;
  S.reconverges += rec;
  S.switches += sw;
  if (space == MemSpace::Shared) {
    const rules::SharedCounts sc = rules::shared_bank_counts(width, e.mask, addr);
    SharedCounters& C = T.shared[k];
    ++C.instructions;
    C.wavefronts += sc.wavefronts;
    C.ideal_wavefronts += sc.ideal_wavefronts;
    C.conflicts += sc.wavefronts - sc.ideal_wavefronts;
    C.lane_accesses += lanes;
    C.bytes += lanes * width;
    C.max_ways = std::max(C.max_ways, sc.max_ways);
    S.wavefronts += sc.wavefronts;
    S.ideal_wavefronts += sc.ideal_wavefronts;
    S.conflicts += sc.wavefronts - sc.ideal_wavefronts;
    S.max_ways = std::max(S.max_ways, sc.max_ways);
    for (uint32_t b = 0; b < rules::kBanks; ++b) {
      S.bank_words[b] += sc.bank_words[b];
      if (sc.bank_ways[b] > 1) S.bank_excess[b] += sc.bank_ways[b] - 1u;
    }
    if (es) {
      es->wavefronts = static_cast<uint16_t>(sc.wavefronts);
      es->conflicts = static_cast<uint16_t>(sc.wavefronts - sc.ideal_wavefronts);
    }
    if (options.hazards) hazards.access(e, i);
  } else {
    if (options.hazards) global_hazards.access(e, i);
    const rules::GlobalCounts gc = rules::global_access_counts(width, addr);
    GlobalCounters& C = T.global[k];
    ++C.instructions;
    C.requests += lanes ? 1 : 0;
    C.sectors += gc.sectors;
    C.lines += gc.lines;
    C.lane_accesses += lanes;
    C.bytes_requested += lanes * width;
    C.bytes_moved += uint64_t(gc.sectors) * rules::kSectorBytes;
    S.sectors += gc.sectors;
    S.lines += gc.lines;
    S.bytes_requested += lanes * width;
    S.bytes_moved += uint64_t(gc.sectors) * rules::kSectorBytes;
    if (es) {
      es->sectors = static_cast<uint16_t>(gc.sectors);
      es->lines = static_cast<uint16_t>(gc.lines);
    }
  }
  if (e.kind == AccessKind::Atomic) {
    const rules::AtomicMetrics am = rules::atomic_contention(e.mask, addr);
    AtomicCounters& A = space == MemSpace::Shared ? T.atomics_shared : T.atomics_global;
    ++A.instructions;
    A.lane_accesses += lanes;
    A.serialized += am.max_same_address;
    A.max_same_address = std::max(A.max_same_address, am.max_same_address);
    A.distinct_addresses += am.distinct_addresses;
    const uint64_t passes = atomic_sector_passes(addr);
    A.sector_passes += passes;
    const bool aggregated = compiler_aggregates(trace, e, am.distinct_addresses);
    A.compiled_sector_passes += aggregated ? 1 : passes;
    A.aggregated_instructions += aggregated;
    S.serialized += am.max_same_address;
    S.max_same_address = std::max(S.max_same_address, am.max_same_address);
    if (es) es->max_same_address = static_cast<uint8_t>(am.max_same_address);
  }
}

// =================================================================================================
// [SECTION] After the events: sites in source order, hazards, lines, diagnostics
// =================================================================================================

void Pass::order_sites() {
  auto site_less = [&](uint32_t a, uint32_t b) { return site_before(trace.sites, a, b); };
  std::stable_sort(r.sites.begin(), r.sites.end(), [&](const SiteMetrics& a, const SiteMetrics& b) {
    if (a.site != b.site) return site_less(a.site, b.site);
    if (a.alloc != b.alloc) return a.alloc < b.alloc;
    return a.kind < b.kind;
  });
  for (size_t s = 0; s < div.size(); ++s)
    if (div_used[s]) r.divergence.push_back(div[s]);
  std::stable_sort(r.divergence.begin(), r.divergence.end(),
                   [&](const SiteDivergence& a, const SiteDivergence& b) { return site_less(a.site, b.site); });
}

void Pass::finish_hazards() {
  if (options.hazards) {
    r.hazards = hazards.take();
    r.hazard_elements = hazards.take_elements();
    // Global hazards after the shared ones, in the same order (scope, sites, kind).
    std::vector<Hazard> g = global_hazards.take();
    r.hazards.insert(r.hazards.end(), std::make_move_iterator(g.begin()), std::make_move_iterator(g.end()));
    std::stable_sort(r.hazards.begin(), r.hazards.end(), [&](const Hazard& a, const Hazard& b) { return a.scope < b.scope; });
    std::vector<ElementHazards> ge = global_hazards.take_elements();
    r.hazard_elements.insert(r.hazard_elements.end(), ge.begin(), ge.end());
    std::sort(r.hazard_elements.begin(), r.hazard_elements.end(), [](const ElementHazards& a, const ElementHazards& b) {
      return a.alloc != b.alloc ? a.alloc < b.alloc : a.element < b.element;
    });
    for (Hazard& h : r.hazards) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s hazard on %s in block %s: ", to_string(h.kind), h.element.c_str(),
                    thread_text(h.block_index).c_str());
      std::string msg = buf;
      msg += "thread " + thread_text(h.first.thread_index) + " " + to_string(h.first.kind) + " at " +
             site_location(r, h.first_site) + ", then thread " + thread_text(h.second.thread_index) + " " +
             to_string(h.second.kind) + " at " + site_location(r, h.second_site);
      switch (h.scope) {
        case HazardScope::InterWarp: msg += ", different warps, no __syncthreads() between"; break;
        case HazardScope::SameInstruction: msg += ", in the same instruction (which value lands is undefined)"; break;
        case HazardScope::IntraWarpLockstep:
          msg += ", same warp: safe only under lockstep; needs __syncwarp/volatile on Volta+";
          msg += h.volatile_count == h.count ? " (both volatile)"
                 : h.volatile_count      ? " (partly volatile)"
                                         : " (not volatile)";
          break;
      }
      msg += " (" + std::to_string(h.count) + (h.count == 1 ? " time)." : " times).");
      h.message = std::move(msg);
      (h.scope == HazardScope::IntraWarpLockstep ? T.lockstep_hazards : T.hazards) += h.count;
    }
  }
}

void Pass::per_line() {
  {
    std::map<std::pair<std::string, uint32_t>, LineMetrics> lines;
    auto line_of = [&](uint32_t site) -> LineMetrics* {
      if (site >= trace.sites.size()) return nullptr;
      const Site& st = trace.sites[site];
      LineMetrics& l = lines[{st.file, st.line}];
      l.file = st.file;
      l.line = st.line;
      return &l;
    };
    for (const SiteMetrics& s : r.sites) {
      LineMetrics* l = line_of(s.site);
      if (!l) continue;
      l->lane_accesses += s.lane_accesses;
      l->shared_wavefronts += s.wavefronts;
      l->shared_conflicts += s.conflicts;
      if (s.space == MemSpace::Global) l->global_requests += s.instructions;
      l->global_sectors += s.sectors;
      l->global_bytes_requested += s.bytes_requested;
      l->global_bytes_moved += s.bytes_moved;
    }
    for (const SiteDivergence& d : r.divergence) {  // every instruction kind, shuffles included
      LineMetrics* l = line_of(d.site);
      if (!l) continue;
      l->instructions += d.instructions;
      l->splits += d.splits;
      l->reconverges += d.reconverges;
      l->switches += d.switches;
    }
    for (const Hazard& h : r.hazards) {
      LineMetrics* a = line_of(h.first_site);
      LineMetrics* b = line_of(h.second_site);
      for (LineMetrics* l : {a, b == a ? nullptr : b})
        if (l) (h.scope == HazardScope::IntraWarpLockstep ? l->lockstep_hazards : l->hazards) += h.count;
    }
    for (auto& [key, l] : lines) r.lines.push_back(std::move(l));
  }
}

void Pass::add_diagnostics() {
  r.diagnostics = trace.diagnostics;
  if (trace.truncated) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.code = "trace-truncated";
    d.message = "The trace hit its record cap: " + std::to_string(trace.dropped_events) +
                " events were not stored, so the numbers below cover only part of the launch.";
    r.diagnostics.push_back(d);
  }
  if (!r.missing_blocks.empty()) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.code = "blocks-not-recorded";
    d.message = std::to_string(r.missing_blocks.size()) +
                " of the requested blocks are not in the trace (not recorded); they are left out.";
    r.diagnostics.push_back(d);
  }
  if (trace.total_blocks > present.size() && options.blocks.empty()) {
    Diagnostic d;
    d.severity = Severity::Info;
    d.code = "partial-recording";
    d.message = "Full records exist for " + std::to_string(present.size()) + " of " +
                std::to_string(trace.total_blocks) + " blocks; the totals cover the recorded blocks only" +
                (trace.site_counters.empty() ? std::string(".")
                                             : "; the per-site counters (grid) cover every block.");
    r.diagnostics.push_back(d);
  }
}

}  // namespace

std::string site_location(const Report& r, uint32_t site) {
  if (site >= r.site_table.size()) return "?";
  const Site& s = r.site_table[site];
  return s.file + ":" + std::to_string(s.line);
}

Report analyze(const Trace& trace, const Options& options) {
  Pass p(trace, options);
  p.select_blocks();
  p.size_heatmaps();
  p.run_blocks();
  p.order_sites();
  p.finish_hazards();
  p.per_line();
  p.add_diagnostics();
  return p.take();
}

namespace {

std::vector<std::pair<std::string, double>> ncu_names(const std::array<SharedCounters, 3>& shared,
                                                      const std::array<GlobalCounters, 3>& global) {
  std::vector<std::pair<std::string, double>> m;
  const char* ops[3] = {"ld", "st", "atom"};
  for (int k = 0; k < 3; ++k) {
    const std::string op = ops[k];
    m.emplace_back("smsp__inst_executed_op_shared_" + op + ".sum", double(shared[k].instructions));
    m.emplace_back("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum", double(shared[k].wavefronts));
    m.emplace_back("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum", double(shared[k].conflicts));
  }
  for (int k = 0; k < 3; ++k) {
    const std::string op = ops[k];
    m.emplace_back("smsp__inst_executed_op_global_" + op + ".sum", double(global[k].instructions));
    m.emplace_back("l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum", double(global[k].requests));
    m.emplace_back("l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum", double(global[k].sectors));
  }
  return m;
}

}  // namespace

std::vector<std::pair<std::string, double>> ncu_metrics(const Report& r) {
  return ncu_names(r.totals.shared, r.totals.global);
}

std::vector<std::pair<std::string, double>> ncu_metrics(const GridCounters& g) { return ncu_names(g.shared, g.global); }

Totals& operator+=(Totals& a, const Totals& b) {
  for (size_t k = 0; k < 3; ++k) {
    SharedCounters& s = a.shared[k];
    const SharedCounters& t = b.shared[k];
    s.instructions += t.instructions, s.wavefronts += t.wavefronts, s.ideal_wavefronts += t.ideal_wavefronts;
    s.conflicts += t.conflicts, s.lane_accesses += t.lane_accesses, s.bytes += t.bytes;
    s.max_ways = std::max(s.max_ways, t.max_ways);
    GlobalCounters& g = a.global[k];
    const GlobalCounters& h = b.global[k];
    g.instructions += h.instructions, g.requests += h.requests, g.sectors += h.sectors, g.lines += h.lines;
    g.lane_accesses += h.lane_accesses, g.bytes_requested += h.bytes_requested, g.bytes_moved += h.bytes_moved;
  }
  for (auto [x, y] : {std::pair{&a.atomics_shared, &b.atomics_shared}, std::pair{&a.atomics_global, &b.atomics_global}}) {
    x->instructions += y->instructions, x->lane_accesses += y->lane_accesses, x->serialized += y->serialized;
    x->max_same_address = std::max(x->max_same_address, y->max_same_address);
    x->distinct_addresses += y->distinct_addresses;
    x->sector_passes += y->sector_passes;
    x->compiled_sector_passes += y->compiled_sector_passes;
    x->aggregated_instructions += y->aggregated_instructions;
  }
  DivergenceCounters& d = a.divergence;
  const DivergenceCounters& e = b.divergence;
  d.instructions += e.instructions, d.active_lanes += e.active_lanes, d.live_lanes += e.live_lanes;
  d.splits += e.splits, d.reconverges += e.reconverges, d.switches += e.switches;
  a.events += b.events, a.accesses += b.accesses, a.barriers += b.barriers, a.warp_syncs += b.warp_syncs;
  a.fences += b.fences, a.hazards += b.hazards, a.lockstep_hazards += b.lockstep_hazards;
  return a;
}

}  // namespace ws::analysis
