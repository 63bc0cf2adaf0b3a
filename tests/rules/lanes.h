// One address per active lane of a mask, in lane order: how the rules take a warp's accesses.
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

namespace wstest {

inline constexpr uint32_t kFull = 0xffffffffu;

inline std::vector<uint64_t> lane_list(uint32_t mask, const std::function<uint64_t(uint32_t)>& f) {
  std::vector<uint64_t> v;
  for (uint32_t m = mask; m; m &= m - 1) v.push_back(f(static_cast<uint32_t>(std::countr_zero(m))));
  return v;
}

}  // namespace wstest
