// Host reference of the race-condition example (reduction/race.cuh): x, and
// y = (x0*x1, x0*x1, x2*x3, x2*x3, ...) as a correct (barrier-separated) run leaves it.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/reference.h"

namespace ws::reference::race {

// Integers 1..9 (no zero: a product that lost a factor shows), floats in [-2, 2).
template <class T>
std::vector<T> input(uint64_t n, uint64_t seed) {
  return std::is_integral_v<T> ? random_input<T>(n, seed, 1, 9) : random_input<T>(n, seed, -2, 2);
}

// y[2i] = y[2i+1] = x[2i] * x[2i+1], computed in T as the kernel does.
template <class T>
std::vector<T> pair_products(const std::vector<T>& x) {
  std::vector<T> y(x.size());
  for (uint64_t i = 0; i < x.size(); ++i) y[i] = T(x[i & ~uint64_t(1)] * x[i | 1]);
  return y;
}

}  // namespace ws::reference::race
