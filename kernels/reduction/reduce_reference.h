// Host reference of the sum reduction (reduction/reduce.cuh; the single-pass sum and the atomic
// sums reduce the same input): the input a run reduces. Its exact sum and the float error bound
// are common/reference.h's ws::reference::sum, ws::reference::abs_sum and ws::sum_error_bound.
//
//   const std::vector<float> x = ws::reference::reduce::input<float>(cfg.n, cfg.seed);
//   const double want = ws::reference::sum(x);   // the kernel's float sum is within
//                                          // ws::sum_error_bound(n, ws::reference::abs_sum(x), ws::SumOrder::Tree)
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/reference.h"

namespace ws::reference::reduce {

// Integers 0..9 (2^24 of them still sum within an int), floats in [-1, 1) (the sum stays small
// while every term counts).
template <class T>
std::vector<T> input(uint64_t n, uint64_t seed) {
  return std::is_integral_v<T> ? random_input<T>(n, seed, 0, 9) : random_input<T>(n, seed, -1, 1);
}

}  // namespace ws::reference::reduce
