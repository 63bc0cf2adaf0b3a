// The viewer's arrangements of the trace: timeline columns, bank rows, element counts.
#include "ws/analysis/views.h"

#include "ws/analysis/instruction.h"
#include "ws/rules/global_sectors.h"

#include <algorithm>
#include <bit>
#include <map>

namespace ws::analysis {

namespace {

bool is_instruction(const Event& e) {
  return e.type == EventType::Access || e.type == EventType::WarpSync || e.type == EventType::Fence;
}

bool matches(const Event& e, const EventFilter& f) {
  return (f.block < 0 || e.block == uint64_t(f.block)) && (f.warp < 0 || e.warp == uint64_t(f.warp)) &&
         (f.site < 0 || e.site == uint64_t(f.site));
}

}  // namespace

std::pair<size_t, size_t> block_events(const Trace& trace, uint32_t block) {
  const auto& ev = trace.events;
  // Events are grouped by ascending block (trace.h); a hand-built trace may not be, so fall back to
  // a scan when the binary search does not land on a contiguous group.
  auto lo = std::lower_bound(ev.begin(), ev.end(), block, [](const Event& e, uint32_t b) { return e.block < b; });
  auto hi = std::upper_bound(lo, ev.end(), block, [](uint32_t b, const Event& e) { return b < e.block; });
  if (lo != hi && std::is_sorted(ev.begin(), ev.end(), [](const Event& a, const Event& b) { return a.block < b.block; }))
    return {size_t(lo - ev.begin()), size_t(hi - ev.begin())};
  size_t first = ev.size(), last = ev.size();
  for (size_t i = 0; i < ev.size(); ++i)
    if (ev[i].block == block) {
      if (first == ev.size()) first = i;
      last = i + 1;
    }
  if (first == ev.size()) return {0, 0};
  return {first, last};
}

std::array<uint8_t, 32> grouped_lanes(const Trace& trace, const BlockTimeline& tl, uint32_t warp) {
  std::array<uint8_t, 32> order{};
  for (int l = 0; l < 32; ++l) order[size_t(l)] = uint8_t(l);
  if (warp >= tl.per_warp.size()) return order;
  std::vector<uint32_t> masks;
  for (const TimelineEntry& en : tl.per_warp[warp]) {
    const Event& e = trace.events[size_t(en.event)];
    if (e.type != EventType::Barrier) masks.push_back(e.mask);
  }
  std::stable_sort(order.begin(), order.end(), [&](uint8_t a, uint8_t b) {
    for (uint32_t m : masks) {
      const bool in_a = (m >> a) & 1u, in_b = (m >> b) & 1u;
      if (in_a != in_b) return in_a;
    }
    return false;
  });
  return order;
}

BlockTimeline block_timeline(const Trace& trace, uint32_t block, TimelineMode mode) {
  BlockTimeline t;
  t.block = block;
  const uint64_t threads = trace.launch.block.count();
  t.warps = uint32_t((threads + kWarpSize - 1) / kWarpSize);
  auto [first, last] = block_events(trace, block);
  for (size_t i = first; i < last; ++i) t.warps = std::max<uint32_t>(t.warps, uint32_t(trace.events[i].warp) + 1);
  t.per_warp.resize(t.warps);
  t.live_lanes.resize(t.warps);
  for (uint32_t w = 0; w < t.warps; ++w) t.live_lanes[w] = live_lanes(trace, w);

  if (mode == TimelineMode::Time && first < last) {
    uint64_t t0 = ~0ull, t1 = 0;
    for (size_t i = first; i < last; ++i) t0 = std::min(t0, trace.events[i].time), t1 = std::max(t1, trace.events[i].time);
    const uint64_t span = t1 - t0 + 1;
    // The smallest 1-2-5 column width that keeps the block within kMaxTimeColumns columns.
    const uint64_t ns = [span] {
      for (uint64_t mag = 1;; mag *= 10)
        for (uint64_t m : {1ull, 2ull, 5ull})
          if ((span + m * mag - 1) / (m * mag) <= kMaxTimeColumns) return m * mag;
    }();
    t.time0 = t0;
    t.ns_per_column = ns;
    t.columns = uint32_t((span + ns - 1) / ns);
    for (size_t i = first; i < last; ++i) {
      const Event& e = trace.events[i];
      const uint32_t col = uint32_t((e.time - t0) / ns);
      t.per_warp[e.warp].push_back({i, col});
      if (e.type == EventType::Barrier) t.barrier_columns.push_back(col);
    }
    std::sort(t.barrier_columns.begin(), t.barrier_columns.end());
    t.barrier_columns.erase(std::unique(t.barrier_columns.begin(), t.barrier_columns.end()), t.barrier_columns.end());
  } else if (mode == TimelineMode::IssueClock) {
    // Rank the distinct times: a barrier releases every warp at one time, so it is one column.
    std::vector<uint64_t> times;
    for (size_t i = first; i < last; ++i) times.push_back(trace.events[i].time);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    for (size_t i = first; i < last; ++i) {
      const Event& e = trace.events[i];
      const uint32_t col = uint32_t(std::lower_bound(times.begin(), times.end(), e.time) - times.begin());
      t.per_warp[e.warp].push_back({i, col});
      if (e.type == EventType::Barrier && (t.barrier_columns.empty() || t.barrier_columns.back() != col))
        t.barrier_columns.push_back(col);
    }
    t.columns = uint32_t(times.size());
  } else {
    // Split each warp's events into intervals at its barriers; interval j of every warp starts at
    // the same column, as wide as the longest warp's interval j; barrier j is one column after it.
    std::vector<std::vector<std::vector<size_t>>> intervals(t.warps);  // warp -> interval -> events
    std::vector<std::vector<std::vector<size_t>>> barriers(t.warps);    // warp -> barrier j -> events
    for (uint32_t w = 0; w < t.warps; ++w) intervals[w].emplace_back();
    // Volta and later: a divergent warp reaches one __syncthreads() group by group, and the GPU
    // recorder writes one record per group, with the other groups' work in between. Records of
    // one site whose masks do not overlap are gathered until they cover the warp's live lanes (or
    // a lane that already arrived issues again): one barrier, one column. The emulator's records
    // already cover the warp.
    std::vector<std::vector<size_t>> pending(t.warps);  // warp -> barrier records gathered so far
    std::vector<uint32_t> arrived(t.warps, 0);
    auto close = [&](uint32_t w) {
      if (pending[w].empty()) return;
      barriers[w].push_back(std::move(pending[w]));
      pending[w].clear();
      arrived[w] = 0;
      intervals[w].emplace_back();
    };
    for (size_t i = first; i < last; ++i) {
      const Event& e = trace.events[i];
      const uint32_t w = e.warp;
      if (e.type == EventType::Barrier) {
        if (!pending[w].empty() && (trace.events[pending[w].front()].site != e.site || (arrived[w] & e.mask) != 0))
          close(w);
        pending[w].push_back(i);
        arrived[w] |= e.mask;
        const uint32_t live = t.live_lanes[w] >= 32 ? 0xffffffffu : (1u << t.live_lanes[w]) - 1u;  // (a count)
        if ((arrived[w] & live) == live) close(w);
      } else {
        if (!pending[w].empty() && (arrived[w] & e.mask) != 0) close(w);  // the barrier was passed
        intervals[w].back().push_back(i);
      }
    }
    for (uint32_t w = 0; w < t.warps; ++w) close(w);
    size_t n_intervals = 0;
    for (uint32_t w = 0; w < t.warps; ++w) n_intervals = std::max(n_intervals, intervals[w].size());
    uint32_t col = 0;
    for (size_t j = 0; j < n_intervals; ++j) {
      size_t width = 0;
      for (uint32_t w = 0; w < t.warps; ++w)
        if (j < intervals[w].size()) {
          width = std::max(width, intervals[w][j].size());
          for (size_t k = 0; k < intervals[w][j].size(); ++k)
            t.per_warp[w].push_back({intervals[w][j][k], col + uint32_t(k)});
        }
      col += uint32_t(width);
      bool any_barrier = false;
      for (uint32_t w = 0; w < t.warps; ++w)
        if (j < barriers[w].size()) {
          for (size_t k : barriers[w][j]) t.per_warp[w].push_back({k, col});
          any_barrier = true;
        }
      if (any_barrier) t.barrier_columns.push_back(col++);
    }
    t.columns = col;
    for (auto& v : t.per_warp)
      std::sort(v.begin(), v.end(), [](const TimelineEntry& a, const TimelineEntry& b) { return a.column < b.column; });
  }
  for (size_t i = first; i < last; ++i) {
    const Event& e = trace.events[i];
    if (!is_instruction(e)) continue;
    ++t.instructions;
    t.active_lanes += uint64_t(std::popcount(e.mask));
  }
  return t;
}

std::vector<BankRow> bank_rows(const Trace& trace, const EventFilter& filter) {
  std::vector<BankRow> rows;
  std::vector<uint64_t> addr;
  for (size_t i = 0; i < trace.events.size(); ++i) {
    const Event& e = trace.events[i];
    if (e.type != EventType::Access || e.space != MemSpace::Shared || !matches(e, filter)) continue;
    auto lanes = trace.lanes(e);
    addr.resize(lanes.size());
    for (size_t k = 0; k < lanes.size(); ++k) addr[k] = trace.address(e, lanes[k]);
    const rules::SharedCounts c = rules::shared_bank_counts(e.width, e.mask, addr);
    BankRow r;
    r.event = i;
    r.words = c.bank_words;
    r.ways = c.bank_ways;
    r.wavefronts = uint16_t(std::min<uint32_t>(c.wavefronts, 0xffff));
    r.conflicts = uint16_t(std::min<uint32_t>(c.wavefronts - std::min(c.wavefronts, c.ideal_wavefronts), 0xffff));
    rows.push_back(r);
  }
  return rows;
}

ElementCounts element_counts(const Trace& trace, uint32_t alloc, size_t first, size_t last,
                             const EventFilter& filter) {
  ElementCounts c;
  c.alloc = alloc;
  if (alloc >= trace.allocations.size()) return c;
  const Allocation& a = trace.allocations[alloc];
  const size_t n = size_t(a.extent);
  c.loads.assign(n, 0);
  c.stores.assign(n, 0);
  c.atomics.assign(n, 0);
  c.conflicts.assign(n, 0);
  c.first_touch.assign(n, -1);
  c.contention.assign(n, 0);
  last = std::min(last, trace.events.size());
  uint64_t atomic_elements[kWarpSize];
  for (size_t i = first; i < last; ++i) {
    const Event& e = trace.events[i];
    if (e.type != EventType::Access || e.alloc != alloc || !matches(e, filter)) continue;
    auto& v = e.kind == AccessKind::Load ? c.loads : e.kind == AccessKind::Store ? c.stores : c.atomics;
    // Shared: how many words each bank served in one pass (bank_ways), for the conflict counts.
    InstructionMetrics m;
    const bool shared = a.space == MemSpace::Shared;
    if (shared) m = metrics_of(trace, e);
    const int64_t when = int64_t(i - first);
    size_t atomic_lanes = 0;
    for (uint64_t off : trace.lanes(e)) {
      const uint64_t el = element_of(a, off);
      if (el >= n) continue;
      if (e.kind == AccessKind::Atomic && atomic_lanes < kWarpSize) atomic_elements[atomic_lanes++] = el;
      ++v[size_t(el)];
      if (c.first_touch[size_t(el)] < 0) c.first_touch[size_t(el)] = when;
      if (shared) {
        const uint32_t bank = uint32_t(((a.base + off) / 4) % 32);
        c.conflicts[size_t(el)] += m.shared.bank_ways[bank] > 1 ? m.shared.bank_ways[bank] - 1u : 0u;
      }
    }
    // Lanes of this atomic on the same element: all but the first wait.
    std::sort(atomic_elements, atomic_elements + atomic_lanes);
    for (size_t k = 1; k < atomic_lanes; ++k)
      if (atomic_elements[k] == atomic_elements[k - 1]) ++c.contention[size_t(atomic_elements[k])];
  }
  for (size_t i = 0; i < n; ++i) {
    c.max_total = std::max(c.max_total, c.total(i));
    c.max_conflicts = std::max(c.max_conflicts, c.conflicts[i]);
    c.max_first_touch = std::max(c.max_first_touch, c.first_touch[i]);
    c.max_contention = std::max(c.max_contention, c.contention[i]);
    c.max_atomics = std::max(c.max_atomics, c.atomics[i]);
  }
  return c;
}

std::vector<uint32_t> sector_byte_masks(const InstructionMetrics& m) {
  const auto& sectors = m.global.sector_addresses;
  std::vector<uint32_t> out(sectors.size(), 0);
  const uint32_t width = std::max<uint32_t>(m.width, 1);
  for (uint32_t l = 0; l < kWarpSize; ++l) {
    if (m.global.lane_sector[l] < 0) continue;
    const uint64_t a = m.lane_address[l];
    for (uint64_t b = a; b < a + width; ++b) {
      const uint64_t sector = b / rules::kSectorBytes * rules::kSectorBytes;
      auto it = std::lower_bound(sectors.begin(), sectors.end(), sector);
      if (it != sectors.end() && *it == sector) out[size_t(it - sectors.begin())] |= 1u << (b % rules::kSectorBytes);
    }
  }
  return out;
}

uint64_t excess_cost(const InstructionMetrics& m) {
  if (!m.is_access) return 0;
  uint64_t cost = 0;
  if (m.space == MemSpace::Shared) {
    cost = m.shared.conflicts;
  } else {
    const uint64_t ideal = (m.global.bytes_unique + rules::kSectorBytes - 1) / rules::kSectorBytes;
    cost = m.global.sectors > ideal ? m.global.sectors - ideal : 0;
  }
  if (m.kind == AccessKind::Atomic && m.atomic.max_same_address > 1) cost += m.atomic.max_same_address - 1;
  return cost;
}

int64_t costliest_access(const Trace& trace, uint32_t block, uint32_t warp) {
  auto [first, last] = block_events(trace, block);
  int64_t best = -1;
  uint64_t worst = 0;
  for (size_t i = first; i < last; ++i) {
    const Event& e = trace.events[i];
    if (e.warp != warp || e.type != EventType::Access) continue;
    const uint64_t c = excess_cost(metrics_of(trace, e));
    if (c > worst) best = int64_t(i), worst = c;
  }
  return best;
}

}  // namespace ws::analysis
