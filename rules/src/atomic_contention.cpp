#include "ws/rules/atomic_contention.h"

#include <algorithm>

#include "lanes.h"

namespace ws::rules {

AtomicMetrics atomic_contention(uint32_t mask, std::span<const uint64_t> addresses) {
  AtomicMetrics a;
  uint64_t sorted[kWarpLanes];
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

}  // namespace ws::rules
