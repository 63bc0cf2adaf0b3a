// Host reference of the matrix transpose (matrix/transpose.cuh): a rows x cols row-major input and
// its transpose, cols x rows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/reference.h"

namespace ws::reference::transpose {

// rows * cols values in [-100, 100) (integers for an int type).
template <class T>
std::vector<T> input(uint64_t rows, uint64_t cols, uint64_t seed) {
  return random_input<T>(rows * cols, seed, -100, 100);
}

// out[c][r] = in[r][c]. By 64 x 64 blocks, so that both matrices are walked a cache line at a
// time (a 8192^2 float reference on this project's 2-core machine: 0.86 s row by row, 0.40 s by
// blocks; the rest is the new matrix's pages being touched).
template <class T>
std::vector<T> transposed(const std::vector<T>& in, uint64_t rows, uint64_t cols) {
  std::vector<T> out(rows * cols);
  constexpr uint64_t B = 64;
  for (uint64_t r0 = 0; r0 < rows; r0 += B)
    for (uint64_t c0 = 0; c0 < cols; c0 += B)
      for (uint64_t c = c0; c < std::min(cols, c0 + B); ++c)
        for (uint64_t r = r0; r < std::min(rows, r0 + B); ++r) out[c * rows + r] = in[r * cols + c];
  return out;
}

}  // namespace ws::reference::transpose
