// What the catalog's host references share: the seeded random inputs and the double-precision sum
// with the error bound a float sum stays within. Pure host functions: the kernels' checks use
// them, and so do the tests, which regenerate a run's input and compute its expected output
// themselves (kernels/<topic>/<kernel>_reference.h has each kernel's own reference).
//
//   const std::vector<float> x = ws::random_input<float>(n, seed, -1, 1);
//   const double want = ws::reference::sum(x);
//   EXPECT_LE(std::fabs(got - want), ws::sum_error_bound(n, ws::reference::abs_sum(x), ws::SumOrder::Tree));
//
// Inputs are random (seeded), never all zeros or ones: a kernel that skips elements or adds one
// twice cannot pass by luck.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace ws {

// Integers uniform in [lo, hi]; floats uniform in [lo, hi).
template <class T>
std::vector<T> random_input(uint64_t n, uint64_t seed, double lo = 0, double hi = 9) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 12345);
  std::vector<T> v(n);
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<int64_t> d{int64_t(lo), int64_t(hi)};
    for (auto& x : v) x = T(d(rng));
  } else {
    std::uniform_real_distribution<double> d{lo, hi};
    for (auto& x : v) x = T(d(rng));
  }
  return v;
}

// How a sum was added up determines the error bound of a float result.
enum class SumOrder { Tree, Arbitrary };

// The k of the bound below: ceil(log2 n) + 2 for a tree-shaped sum of n terms, n + 2 for a sum
// whose order is arbitrary (atomics, a sequential chain).
inline double sum_error_terms(uint64_t n, SumOrder order) {
  return order == SumOrder::Tree ? std::ceil(std::log2(double(std::max<uint64_t>(n, 2)))) + 2 : double(n) + 2;
}

// |float sum - exact sum| <= k * eps(float) * sum|x_i| for a float sum of n terms.
inline double sum_error_bound(uint64_t n, double abs_sum, SumOrder order) {
  return sum_error_terms(n, order) * 1.1920929e-07 * std::max(abs_sum, 1e-30);
}

namespace reference {

// The exact sum of the elements (in double: exact for the catalog's int inputs).
template <class T>
double sum(const std::vector<T>& v) {
  double s = 0;
  for (T x : v) s += double(x);
  return s;
}

// sum |x_i|, the scale of a float sum's error bound.
template <class T>
double abs_sum(const std::vector<T>& v) {
  double s = 0;
  for (T x : v) s += std::fabs(double(x));
  return s;
}

}  // namespace reference
}  // namespace ws
