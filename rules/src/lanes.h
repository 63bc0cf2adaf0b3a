// Helpers the rules share: lanes of a mask with their addresses, and an access's last byte.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

namespace ws::rules {

inline constexpr uint32_t kWarpLanes = 32;

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

// The last byte of a `width`-byte access at `a` (a zero width counts as one byte).
inline uint64_t last_byte(uint64_t a, uint32_t width) { return a + (width ? width : 1) - 1; }

}  // namespace ws::rules
