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

inline std::vector<float> min_plus(const std::vector<float>& d, uint64_t n) {
  std::vector<float> r(n * n);
  for (uint64_t i = 0; i < n; ++i)
    for (uint64_t j = 0; j < n; ++j) {
      float v = HUGE_VALF;
      for (uint64_t k = 0; k < n; ++k) v = std::min(v, d[n * i + k] + d[n * k + j]);
      r[n * i + j] = v;
    }
  return r;
}

}  // namespace ws::reference::shortcut
