#include "ws/rules/shared_banks.h"

#include <algorithm>

#include "lanes.h"

namespace ws::rules {
namespace {

uint32_t phase_lanes(uint32_t width) { return kWarpLanes / shared_phases(width); }

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
  uint64_t words[kWarpLanes * 5];
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
    for (uint32_t lane = 0; lane < kWarpLanes; ++lane)
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

}  // namespace ws::rules
