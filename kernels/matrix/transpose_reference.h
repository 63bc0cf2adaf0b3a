// Host reference of the matrix transpose (matrix/transpose.cuh): a rows x cols row-major input and
// its transpose, cols x rows.
#pragma once

#include <cstdint>
#include <vector>

#include "common/reference.h"

namespace ws::reference::transpose {

// rows * cols values in [-100, 100) (integers for an int type).
template <class T>
std::vector<T> input(uint64_t rows, uint64_t cols, uint64_t seed) {
  return random_input<T>(rows * cols, seed, -100, 100);
}

// out[c][r] = in[r][c].
template <class T>
std::vector<T> transposed(const std::vector<T>& in, uint64_t rows, uint64_t cols) {
  std::vector<T> out(rows * cols);
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
  return out;
}

}  // namespace ws::reference::transpose
