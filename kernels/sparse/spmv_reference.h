// Host reference of the CSR sparse matrix-vector product (sparse/spmv.cuh): the random sparse
// matrix, x, and y = A x per row in double with the row's float tolerance.
//
//   const ws::reference::spmv::Csr a = ws::reference::spmv::matrix(n, seed, avg_nnz, band);
//   const auto av = ws::reference::spmv::values<float>(a, seed);
//   const auto x = ws::reference::spmv::vector_x<float>(n, seed);
//   const ws::reference::spmv::Rows y = ws::reference::spmv::product(a, av, x);
//   // |y_kernel[r] - y.value[r]| <= ws::reference::spmv::tolerance<float>(a, r, y.abs[r])
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "common/reference.h"

namespace ws::reference::spmv {

// The sparsity pattern: row r holds Aj[Ap[r] .. Ap[r+1]).
struct Csr {
  std::vector<unsigned> ap, aj;
};

// Row r has a random number of non-zeros in [0, 2 x avg_nnz], at random columns (within `band`
// of the diagonal when band > 0), in increasing column order.
inline Csr matrix(uint64_t n, uint64_t seed, unsigned avg_nnz, unsigned band) {
  std::mt19937_64 rng(seed * 0x2545F4914F6CDD1Dull + 7);
  Csr m;
  m.ap.push_back(0);
  std::uniform_int_distribution<unsigned> len(0, 2 * avg_nnz);
  for (uint64_t r = 0; r < n; ++r) {
    const unsigned k = len(rng);
    const uint64_t lo = band ? (r > band ? r - band : 0) : 0, hi = band ? std::min<uint64_t>(n - 1, r + band) : n - 1;
    std::uniform_int_distribution<uint64_t> col(lo, hi);
    std::vector<unsigned> cols;
    for (unsigned i = 0; i < k; ++i) cols.push_back(unsigned(col(rng)));
    std::sort(cols.begin(), cols.end());
    m.aj.insert(m.aj.end(), cols.begin(), cols.end());
    m.ap.push_back(unsigned(m.aj.size()));
  }
  return m;
}

// The non-zeros' values (Av) and x: integers -9..9 or floats in [-1, 1).
template <class T>
std::vector<T> values(const Csr& m, uint64_t seed) {
  return std::is_integral_v<T> ? random_input<T>(m.aj.size(), seed + 1, -9, 9) : random_input<T>(m.aj.size(), seed + 1, -1, 1);
}
template <class T>
std::vector<T> vector_x(uint64_t n, uint64_t seed) {
  return std::is_integral_v<T> ? random_input<T>(n, seed + 2, -9, 9) : random_input<T>(n, seed + 2, -1, 1);
}

struct Rows {
  std::vector<double> value;  // y[r] = sum over the row of Av * x[Aj]
  std::vector<double> abs;    // sum of |Av * x[Aj]| over the row
};

template <class T>
Rows product(const Csr& m, const std::vector<T>& av, const std::vector<T>& x) {
  const uint64_t n = m.ap.size() - 1;
  Rows y{std::vector<double>(n), std::vector<double>(n)};
  for (uint64_t r = 0; r < n; ++r)
    for (unsigned k = m.ap[r]; k < m.ap[r + 1]; ++k) {
      y.value[r] += double(av[k]) * double(x[m.aj[k]]);
      y.abs[r] += std::fabs(double(av[k]) * double(x[m.aj[k]]));
    }
  return y;
}

// How far the kernel's y[r] may be from the double reference: exact for integers; a float row sum
// in any order, fused multiply-adds included, is within (len + 2) eps of sum |products|.
template <class T>
double tolerance(const Csr& m, uint64_t r, double abs) {
  return std::is_integral_v<T> ? 0.0 : (double(m.ap[r + 1] - m.ap[r]) + 2) * 1.2e-7 * abs;
}

}  // namespace ws::reference::spmv
