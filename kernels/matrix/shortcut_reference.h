// Host reference of the shortcut problem (matrix/shortcut.cuh): an n x n matrix d of edge costs and
// r[i][j] = min over k of d[i][k] + d[k][j], with the kernels' float additions (exact to compare).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/reference.h"

namespace ws::reference::shortcut {

// n * n costs in [0, 1).
inline std::vector<float> input(uint64_t n, uint64_t seed) { return random_input<float>(n * n, seed, 0, 1); }

// With `at`: the elements at those row-major positions only (a sampled check at sizes whose n^3
// operations take the CPU minutes); empty: every element.
inline std::vector<float> min_plus(const std::vector<float>& d, uint64_t n, const std::vector<uint64_t>& at = {}) {
  const uint64_t count = at.empty() ? n * n : at.size();
  std::vector<float> r(count);
  for (uint64_t e = 0; e < count; ++e) {
    const uint64_t p = at.empty() ? e : at[e], i = p / n, j = p % n;
    float v = HUGE_VALF;
    for (uint64_t k = 0; k < n; ++k) v = std::min(v, d[n * i + k] + d[n * k + j]);
    r[e] = v;
  }
  return r;
}

}  // namespace ws::reference::shortcut
