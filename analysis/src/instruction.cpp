// Per-instruction rules: shared banks/wavefronts, global sectors/lines, atomic contention,
// mask transitions. See instruction.h for the rules and their worked examples.
#include "ws/analysis/instruction.h"

#include <algorithm>
#include <bit>

namespace ws::analysis {
namespace {

// Lanes of `mask` in ascending order, paired with their address (addresses has one entry per
// active lane; if it is shorter than popcount(mask), the remaining lanes are ignored).
template <typename F>
void for_each_lane(uint32_t mask, std::span<const uint64_t> addresses, F&& f) {
  size_t i = 0;
  while (mask && i < addresses.size()) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(mask));
    f(lane, addresses[i]);
    mask &= mask - 1;
    ++i;
  }
}

uint32_t phase_lanes(uint32_t width) { return kWarpSize / shared_phases(width); }

uint64_t last_byte(uint64_t a, uint32_t width) { return a + (width ? width : 1) - 1; }

// shared_bank_counts' shortcut for the most common one-phase accesses (width <= 4): every active
// lane in a bank of its own (a[tid], odd strides), or every lane on one word (a broadcast such as
// sdata[0]): one wavefront and no conflict, found without sorting the warp's words. Returns false
// when neither applies (then the general rule counts).
template <bool kPerBank>
bool one_wavefront_shortcut(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses, SharedCounts& c) {
  uint32_t banks = 0, n = 0;
  bool own_banks = true, one_word = true;
  const uint64_t first_word = addresses.empty() ? 0 : addresses[0] / kBankBytes;
  for (uint32_t m = mask; m && n < addresses.size(); m &= m - 1, ++n) {
    const uint64_t a = addresses[n];
    if (last_byte(a, width) / kBankBytes != a / kBankBytes) return false;  // spans two words
    const uint32_t bank = 1u << (a / kBankBytes % kBanks);
    own_banks = own_banks && !(banks & bank);
    one_word = one_word && a / kBankBytes == first_word;
    if (!own_banks && !one_word) return false;
    banks |= bank;
  }
  if (n == 0) return false;
  if constexpr (kPerBank)
    for (uint32_t b = 0; b < kBanks; ++b) c.bank_ways[b] = c.bank_words[b] = static_cast<uint8_t>((banks >> b) & 1u);
  c.wavefronts = c.ideal_wavefronts = c.max_ways = 1;
  return true;
}

// shared_bank_counts, and without kPerBank its cheaper twin shared_wavefront_counts.
template <bool kPerBank>
SharedCounts count_shared(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses) {
  SharedCounts c;
  if (width <= kBankBytes && one_wavefront_shortcut<kPerBank>(width, mask, addresses, c)) return c;
  const uint32_t per_phase = phase_lanes(width);
  const uint32_t phases = shared_phases(width);
  // Words touched in the current phase (at most 32 lanes x 5 words for a misaligned 16-byte access).
  uint64_t words[kWarpSize * 5];
  size_t i = 0;  // index into addresses
  uint32_t rest = mask;
  for (uint32_t p = 0; p < phases; ++p) {
    const uint32_t phase_mask = per_phase == 32 ? 0xffffffffu : (((1u << per_phase) - 1u) << (p * per_phase));
    uint32_t m = rest & phase_mask;
    if (!m) continue;
    size_t n = 0;
    while (m && i < addresses.size()) {
      const uint64_t a = addresses[i++];
      for (uint64_t w = a / kBankBytes; w <= last_byte(a, width) / kBankBytes && n < std::size(words); ++w)
        words[n++] = w;
      m &= m - 1;
    }
    rest &= ~phase_mask;
    if (n == 0) continue;
    std::sort(words, words + n);
    n = static_cast<size_t>(std::unique(words, words + n) - words);
    uint8_t per_bank[kBanks] = {};
    for (size_t k = 0; k < n; ++k) ++per_bank[words[k] % kBanks];
    uint32_t ways = 0;
    for (uint32_t b = 0; b < kBanks; ++b) {
      ways = std::max<uint32_t>(ways, per_bank[b]);
      if constexpr (kPerBank) {
        c.bank_ways[b] = std::max(c.bank_ways[b], per_bank[b]);
        c.bank_words[b] = static_cast<uint8_t>(std::min<uint32_t>(255, c.bank_words[b] + per_bank[b]));
      }
    }
    c.wavefronts += ways;
    c.ideal_wavefronts += 1;
    c.max_ways = std::max(c.max_ways, ways);
  }
  return c;
}

}  // namespace

uint32_t shared_phases(uint32_t width) {
  if (width <= 4) return 1;
  if (width <= 8) return 2;
  return 4;
}

const char* to_string(MaskTransition t) {
  switch (t) {
    case MaskTransition::First: return "first";
    case MaskTransition::Same: return "same";
    case MaskTransition::Split: return "split";
    case MaskTransition::Reconverge: return "reconverge";
    case MaskTransition::Switch: return "switch";
  }
  return "?";
}

MaskTransition classify_transition(uint32_t previous, uint32_t mask) {
  if (mask == previous) return MaskTransition::Same;
  if ((mask & previous) == mask) return MaskTransition::Split;
  if ((mask & previous) == previous) return MaskTransition::Reconverge;
  return MaskTransition::Switch;
}

SharedCounts shared_bank_counts(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses) {
  return count_shared<true>(width, mask, addresses);
}

SharedCounts shared_wavefront_counts(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses) {
  return count_shared<false>(width, mask, addresses);
}

SharedMetrics shared_bank_metrics(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses) {
  SharedMetrics m;
  m.phases = shared_phases(width);
  m.lane_wavefront.fill(-1);
  const uint32_t per_phase = phase_lanes(width);

  struct Entry {
    uint64_t word;
    uint32_t lanes;
    uint16_t slot;
  };
  uint32_t wavefront_base = 0;
  std::vector<Entry> entries;
  std::array<uint8_t, 32> per_bank{};
  std::array<uint16_t, 32> lane_last_slot{};
  uint32_t current_phase = ~0u;

  auto close_phase = [&](uint32_t phase) {
    if (entries.empty()) return;
    uint32_t ways = 0;
    for (uint32_t b = 0; b < kBanks; ++b) {
      ways = std::max<uint32_t>(ways, per_bank[b]);
      m.bank_ways[b] = std::max(m.bank_ways[b], per_bank[b]);
      m.bank_words[b] = static_cast<uint8_t>(std::min<uint32_t>(255, m.bank_words[b] + per_bank[b]));
    }
    for (const Entry& e : entries) {
      SharedWord w;
      w.word = e.word;
      w.bank = static_cast<uint8_t>(e.word % kBanks);
      w.phase = static_cast<uint8_t>(phase);
      w.wavefront = static_cast<uint16_t>(wavefront_base + e.slot);
      w.lanes = e.lanes;
      m.words.push_back(w);
    }
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      if (lane / per_phase == phase && m.lane_wavefront[lane] == -2)
        m.lane_wavefront[lane] = static_cast<int16_t>(wavefront_base + lane_last_slot[lane]);
    m.wavefronts += ways;
    m.ideal_wavefronts += 1;
    m.active_phases += 1;
    m.max_ways = std::max(m.max_ways, ways);
    wavefront_base += ways;
    entries.clear();
    per_bank.fill(0);
  };

  for_each_lane(mask, addresses, [&](uint32_t lane, uint64_t a) {
    const uint32_t phase = lane / per_phase;
    if (phase != current_phase) {
      if (current_phase != ~0u) close_phase(current_phase);
      current_phase = phase;
    }
    m.lane_wavefront[lane] = -2;  // active, resolved when the phase closes
    uint16_t last = 0;
    for (uint64_t w = a / kBankBytes; w <= last_byte(a, width) / kBankBytes; ++w) {
      auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.word == w; });
      if (it == entries.end()) {
        const uint32_t bank = static_cast<uint32_t>(w % kBanks);
        entries.push_back(Entry{w, 0u, per_bank[bank]});
        ++per_bank[bank];
        it = entries.end() - 1;
      }
      it->lanes |= 1u << lane;
      last = std::max(last, it->slot);
    }
    lane_last_slot[lane] = last;
  });
  if (current_phase != ~0u) close_phase(current_phase);
  m.conflicts = m.wavefronts - m.ideal_wavefronts;
  std::sort(m.words.begin(), m.words.end(), [](const SharedWord& x, const SharedWord& y) {
    return x.wavefront != y.wavefront ? x.wavefront < y.wavefront : x.bank < y.bank;
  });
  return m;
}

GlobalCounts global_access_counts(uint32_t width, std::span<const uint64_t> addresses) {
  GlobalCounts c;
  uint64_t sectors[kWarpSize * 2];
  size_t n = 0;
  for (uint64_t a : addresses) {
    if (n + 2 > std::size(sectors)) break;
    const uint64_t first = a / kSectorBytes, last = last_byte(a, width) / kSectorBytes;
    sectors[n++] = first;
    if (last != first) sectors[n++] = last;  // width <= 16 spans at most 2 sectors
  }
  // Lanes usually walk memory upwards (a[tid], a[2 * tid]): then the sectors come out in order
  // and need no sort.
  if (!std::is_sorted(sectors, sectors + n)) std::sort(sectors, sectors + n);
  n = static_cast<size_t>(std::unique(sectors, sectors + n) - sectors);
  c.sectors = static_cast<uint32_t>(n);
  uint64_t prev_line = ~0ull;
  for (size_t k = 0; k < n; ++k) {
    const uint64_t line = sectors[k] / (kLineBytes / kSectorBytes);
    if (line != prev_line) ++c.lines;
    prev_line = line;
  }
  return c;
}

GlobalMetrics global_access_metrics(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses) {
  GlobalMetrics g;
  g.lane_sector.fill(-1);
  const uint32_t w = width ? width : 1;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // [first, last] bytes
  for_each_lane(mask, addresses, [&](uint32_t, uint64_t a) {
    g.bytes_requested += w;
    for (uint64_t s = a / kSectorBytes; s <= last_byte(a, w) / kSectorBytes; ++s)
      g.sector_addresses.push_back(s * kSectorBytes);
    ranges.emplace_back(a, last_byte(a, w));
  });
  std::sort(g.sector_addresses.begin(), g.sector_addresses.end());
  g.sector_addresses.erase(std::unique(g.sector_addresses.begin(), g.sector_addresses.end()),
                           g.sector_addresses.end());
  for (uint64_t s : g.sector_addresses) {
    const uint64_t line = s / kLineBytes * kLineBytes;
    if (g.line_addresses.empty() || g.line_addresses.back() != line) g.line_addresses.push_back(line);
  }
  for_each_lane(mask, addresses, [&](uint32_t lane, uint64_t a) {
    const uint64_t s = a / kSectorBytes * kSectorBytes;
    auto it = std::lower_bound(g.sector_addresses.begin(), g.sector_addresses.end(), s);
    g.lane_sector[lane] = static_cast<int16_t>(it - g.sector_addresses.begin());
  });
  std::sort(ranges.begin(), ranges.end());
  uint64_t covered_end = 0;  // one past the last byte counted
  bool any = false;
  for (auto [first, last] : ranges) {
    const uint64_t start = any ? std::max(first, covered_end) : first;
    if (last + 1 > start) g.bytes_unique += last + 1 - start;
    covered_end = any ? std::max(covered_end, last + 1) : last + 1;
    any = true;
  }
  g.requests = g.bytes_requested ? 1 : 0;
  g.sectors = static_cast<uint32_t>(g.sector_addresses.size());
  g.lines = static_cast<uint32_t>(g.line_addresses.size());
  g.bytes_moved = uint64_t(g.sectors) * kSectorBytes;
  g.efficiency = g.bytes_moved ? double(g.bytes_requested) / double(g.bytes_moved) : 0.0;
  return g;
}

AtomicMetrics atomic_contention(uint32_t mask, std::span<const uint64_t> addresses) {
  AtomicMetrics a;
  uint64_t sorted[kWarpSize];
  size_t n = 0;
  for_each_lane(mask, addresses, [&](uint32_t, uint64_t addr) { sorted[n++] = addr; });
  std::sort(sorted, sorted + n);
  size_t run = 0;
  for (size_t k = 0; k < n; ++k) {
    if (k == 0 || sorted[k] != sorted[k - 1]) {
      ++a.distinct_addresses;
      run = 0;
    }
    ++run;
    a.max_same_address = std::max<uint32_t>(a.max_same_address, static_cast<uint32_t>(run));
  }
  return a;
}

uint32_t live_lanes(const Trace& trace, uint32_t warp) {
  const uint64_t threads = trace.launch.block.count();
  const uint64_t first = uint64_t(warp) * kWarpSize;
  if (threads == 0) return kWarpSize;
  if (first >= threads) return 0;
  return static_cast<uint32_t>(std::min<uint64_t>(kWarpSize, threads - first));
}

namespace {
bool is_instruction(const Event& e) {
  return e.type == EventType::Access || e.type == EventType::WarpSync || e.type == EventType::Fence;
}
}  // namespace

InstructionMetrics metrics_of(const Trace& trace, const Event& e) {
  InstructionMetrics m;
  m.event = ~0ull;
  m.active_lanes = static_cast<uint32_t>(std::popcount(e.mask));
  m.live_lanes = live_lanes(trace, e.warp);
  const Event* base = trace.events.data();
  if (!trace.events.empty() && &e >= base && &e < base + trace.events.size()) {
    m.event = static_cast<uint64_t>(&e - base);
    for (uint64_t i = m.event; i-- > 0;) {
      const Event& p = trace.events[i];
      if (p.block != e.block) break;
      if (p.warp != e.warp || !is_instruction(p)) continue;
      m.previous_mask = p.mask;
      m.transition = classify_transition(p.mask, e.mask);
      break;
    }
  }
  if (e.type != EventType::Access) return m;
  m.is_access = true;
  m.space = e.space;
  m.kind = e.kind;
  m.width = e.width;
  const auto offsets = trace.lanes(e);
  std::vector<uint64_t> addr(offsets.size());
  for (size_t i = 0; i < offsets.size(); ++i) addr[i] = trace.address(e, offsets[i]);
  for_each_lane(e.mask, addr, [&](uint32_t lane, uint64_t a) { m.lane_address[lane] = a; });
  if (e.space == MemSpace::Shared)
    m.shared = shared_bank_metrics(e.width, e.mask, addr);
  else
    m.global = global_access_metrics(e.width, e.mask, addr);
  if (e.kind == AccessKind::Atomic) m.atomic = atomic_contention(e.mask, addr);
  return m;
}

}  // namespace ws::analysis
