// Host reference of the matrix multiply (matrix/matmul.cuh): M (n x k) and N (k x m), row-major,
// and P = M N in double with the scale of each element's float error bound.
//
//   const auto in = ws::reference::matmul::inputs<float>(n, k, m, seed);
//   const auto p = ws::reference::matmul::product(in.m, in.n, n, k, m);
//   // a float P[i] is within ws::sum_error_bound(k, p.abs[i], ws::SumOrder::Arbitrary) of p.value[i]
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/reference.h"

namespace ws::reference::matmul {

template <class T>
struct Inputs {
  std::vector<T> m, n;  // M and N
};

// Integers 0..9, floats in [-1, 1); N from a seed of its own.
template <class T>
Inputs<T> inputs(uint64_t n, uint64_t k, uint64_t m, uint64_t seed) {
  const double lo = std::is_integral_v<T> ? 0 : -1, hi = std::is_integral_v<T> ? 9 : 1;
  return {random_input<T>(n * k, seed, lo, hi), random_input<T>(k * m, seed + 31, lo, hi)};
}

struct Product {
  std::vector<double> value;  // P[r][c], row-major
  std::vector<double> abs;    // sum over kk of |M[r][kk] N[kk][c]|
};

// The elements at the row-major positions `at` of P only (a sampled check of a product too large
// to compute whole on the CPU); empty `at`: every element.
template <class T>
Product product(const std::vector<T>& M, const std::vector<T>& N, uint64_t n, uint64_t k, uint64_t m,
                const std::vector<uint64_t>& at = {}) {
  const uint64_t count = at.empty() ? n * m : at.size();
  Product p{std::vector<double>(count), std::vector<double>(count)};
  for (uint64_t j = 0; j < count; ++j) {
    const uint64_t i = at.empty() ? j : at[j], r = i / m, c = i % m;
    double s = 0, a = 0;
    for (uint64_t kk = 0; kk < k; ++kk) {
      const double x = double(M[r * k + kk]) * double(N[kk * m + c]);
      s += x;
      a += std::fabs(x);
    }
    p.value[j] = s;
    p.abs[j] = a;
  }
  return p;
}

}  // namespace ws::reference::matmul
