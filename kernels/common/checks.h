// Correctness checks shared by the catalog's drivers: each compares what a kernel computed with
// its host reference, says in RunResult which tolerance it used, and keeps the compared values in
// RunResult::checked for the tests.
//
// Float results are compared with a double-precision reference and a tolerance that grows with n
// (common/reference.h, which also makes the seeded random inputs).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "common/reference.h"
#include "ws/kernel/type_name.h"
#include "ws/run/result.h"

namespace ws {

template <class T>
std::string value_text(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    char b[64];
    std::snprintf(b, sizeof b, "%.9g", double(v));
    return b;
  } else {
    return std::to_string(v);
  }
}

// Keeps what a check compared in RunResult::checked, as the kernel computed it, so that a test
// can compare it with a value it computes itself (from the kernel's host reference).
template <class T>
void keep_checked(RunResult& out, const std::string& name, const T* data, size_t count) {
  CheckedValue v;
  v.type = std::string(type_name<T>());
  v.elem_size = sizeof(T);
  v.bytes.resize(count * sizeof(T));
  if (count) std::memcpy(v.bytes.data(), data, count * sizeof(T));
  for (auto& [n, old] : out.checked)
    if (n == name) {
      old = std::move(v);
      return;
    }
  out.checked.emplace_back(name, std::move(v));
}

// Compares `got` with a reference computed in double over `abs_sum` = sum of |x_i|.
// int: exact. float: |got - ref| <= k * eps(float) * sum|x_i|, with k = ceil(log2 n) + 2 for
// tree-shaped sums and k = n + 2 for sums whose order is arbitrary (atomics).
template <class T>
void check_scalar(RunResult& out, const std::string& what, T got, double ref, double abs_sum,
                  uint64_t n, SumOrder order = SumOrder::Tree) {
  keep_checked(out, what, &got, 1);
  out.result = what + " = " + value_text(got);
  if constexpr (std::is_integral_v<T>) {
    out.expected = what + " = " + value_text(static_cast<T>(std::llround(ref)));
    out.passed = static_cast<double>(got) == ref;
    out.check = "exact (integer)";
  } else {
    char b[64];
    std::snprintf(b, sizeof b, "%.9g", ref);
    out.expected = what + " = " + b + " (double reference)";
    const double k = sum_error_terms(n, order);
    const double tol = sum_error_bound(n, abs_sum, order);
    const double err = std::fabs(double(got) - ref);
    out.passed = std::isfinite(double(got)) && err <= tol;
    char c[160];
    std::snprintf(c, sizeof c, "|got - ref| = %.3g <= %.3g (%s: %g * eps_float * sum|x|)", err, tol,
                  order == SumOrder::Tree ? "tree order, k = ceil(log2 n) + 2" : "any order, k = n + 2", k);
    out.check = c;
  }
}

// An output array that must equal `want` element by element (integers, or floats computed with the
// same operations in the same order). Reports how many are wrong and the first of them, e.g.
//   check_exact_elements(out, "y", got, want, "exact: y[2i] = x[2i]*x[2i+1] in the same type")
// gives result "3 of 16 wrong, first y[5] = 7" and expected "y[5] = 6", or "y correct (16 elements)".
template <class T>
void check_exact_elements(RunResult& out, const std::string& name, const std::vector<T>& got,
                          const std::vector<T>& want, std::string check) {
  keep_checked(out, name, got.data(), got.size());
  uint64_t bad = 0, first = 0;
  for (uint64_t i = 0; i < want.size(); ++i)
    if (!(i < got.size() && got[i] == want[i]) && bad++ == 0) first = i;
  const std::string at = name + "[" + std::to_string(first) + "]";
  out.passed = bad == 0 && got.size() == want.size();
  out.check = std::move(check);
  out.result = bad ? std::to_string(bad) + " of " + std::to_string(want.size()) + " wrong, first " + at + " = " +
                         (first < got.size() ? value_text(got[first]) : std::string("missing"))
                   : name + " correct (" + std::to_string(want.size()) + " elements)";
  out.expected = want.empty() ? name + " empty" : at + " = " + value_text(want[first]);
}

}  // namespace ws
