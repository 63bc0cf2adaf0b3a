// IssueHistory's bookkeeping (issue_policy.h): the rounds of a divergent warp's lanes.
#include "issue_policy.h"

namespace ws::emu {

void IssueHistory::resize(uint32_t threads) {
  threads_ = threads;
  const uint32_t warps = (threads + kWarpSize - 1) / kWarpSize;
  divergent_.assign(warps, 0);
  rounds_.assign(threads, 0);
  last_key_.assign(threads, 0);
  warp_last_key_.assign(warps, 0);
  warp_last_mask_.assign(warps, 0);
}

void IssueHistory::reset() {
  std::fill(divergent_.begin(), divergent_.end(), uint8_t(0));
  std::fill(rounds_.begin(), rounds_.end(), 0u);
  std::fill(last_key_.begin(), last_key_.end(), uint64_t(0));
  std::fill(warp_last_key_.begin(), warp_last_key_.end(), uint64_t(0));
  std::fill(warp_last_mask_.begin(), warp_last_mask_.end(), 0u);
}

void IssueHistory::count_rounds(uint32_t w, uint32_t mask, bool lanes_left, uint64_t key) {
  const uint32_t base = w * kWarpSize;
  if (!lanes_left || !divergent_[w]) {
    std::fill_n(&rounds_[base], lanes_in(w), 0u);
    divergent_[w] = lanes_left;
    if (!lanes_left) return;
  }
  uint32_t round = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = base + uint32_t(std::countr_zero(m));
    round = std::max(round, lane_round(rounds_[l], last_key(l), key));
  }
  for (uint32_t m = mask; m; m &= m - 1) rounds_[base + uint32_t(std::countr_zero(m))] = round;
}

}  // namespace ws::emu
