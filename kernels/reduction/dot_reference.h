// Host reference of the dot product (reduction/dot.cuh): the two input vectors and x . y.
//
//   const auto in = ws::reference::dot::inputs<float>(n, seed);
//   const ws::reference::dot::Product d = ws::reference::dot::product(in.x, in.y);
//   // a float result is within ws::sum_error_bound(terms, d.abs_sum, order) of d.value, with
//   // terms = n in tree order (finished on the GPU), or host_terms(block, blocks) in any order
//   // (finished by the host's loop)
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/reference.h"

namespace ws::reference::dot {

template <class T>
struct Inputs {
  std::vector<T> x, y;
};

// Integers 0..9 or floats in [-1, 1); y from a seed of its own.
template <class T>
Inputs<T> inputs(uint64_t n, uint64_t seed) {
  auto one = [n](uint64_t s) { return std::is_integral_v<T> ? random_input<T>(n, s, 0, 9) : random_input<T>(n, s, -1, 1); };
  return {one(seed), one(seed + 1000003)};
}

struct Product {
  double value = 0;    // x . y
  double abs_sum = 0;  // sum |x_i y_i|: the scale of a float result's error bound
};

// In double over the products as the kernel rounds them: each x_i * y_i is computed in T.
template <class T>
Product product(const std::vector<T>& x, const std::vector<T>& y) {
  Product d;
  for (size_t i = 0; i < x.size(); ++i) {
    const double p = double(T(x[i] * y[i]));
    d.value += p;
    d.abs_sum += std::fabs(p);
  }
  return d;
}

// The terms of a float bound in any order when the host adds the blocks' partial sums one after
// another: a tree of depth log2(block) in each block, then a chain of `blocks` additions.
inline uint64_t host_terms(uint32_t block, uint32_t blocks) { return uint64_t(std::log2(double(block))) + blocks; }

}  // namespace ws::reference::dot
