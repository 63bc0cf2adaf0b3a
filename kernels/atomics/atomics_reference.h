// Host reference of the atomics demos (atomics/atomics.cuh): the inputs of the global maximum and
// of counting the 6s, and their answers. The atomic sums reduce reduction/reduce_reference.h's
// input to common/reference.h's sum (floats within the any-order bound).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "common/reference.h"

namespace ws::reference::atomics {

// The maximum's input: integers in [-1000000, 1000000], so the maximum is rarely at the start.
inline std::vector<int> max_input(uint64_t n, uint64_t seed) { return random_input<int>(n, seed, -1000000, 1000000); }

inline int maximum(const std::vector<int>& v) {
  int m = INT_MIN;
  for (int x : v) m = std::max(m, x);
  return m;
}

// Counting the 6s: digits 0..9, a tenth of them 6s.
inline std::vector<int> count_input(uint64_t n, uint64_t seed) { return random_input<int>(n, seed, 0, 9); }

inline int count(const std::vector<int>& v, int value) {
  int k = 0;
  for (int x : v) k += x == value;
  return k;
}

}  // namespace ws::reference::atomics
