// Host reference of the matrix add (matrix/matadd.cuh): A and B, rows x cols row-major, and C = A + B.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/reference.h"

namespace ws::reference::matadd {

template <class T>
struct Inputs {
  std::vector<T> a, b;
};

// Integers 0..9, floats in [-1, 9); B from a seed of its own.
template <class T>
Inputs<T> inputs(uint64_t rows, uint64_t cols, uint64_t seed) {
  const double lo = std::is_integral_v<T> ? 0 : -1;
  return {random_input<T>(rows * cols, seed, lo, 9), random_input<T>(rows * cols, seed + 77, lo, 9)};
}

// C = A + B, one addition in T per element (exact to compare).
template <class T>
std::vector<T> sum(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> c(a.size());
  for (uint64_t i = 0; i < c.size(); ++i) c[i] = T(a[i] + b[i]);
  return c;
}

}  // namespace ws::reference::matadd
