// Host-side helpers shared by the matrix entries (transpose, matadd, matmul, shortcut): the
// launch shape of a 2D kernel and an element-by-element check against the CPU reference. Both
// checks keep the whole matrix the kernel computed in RunResult::checked, under its name.
// Not kernel code: nothing here runs on the device.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "common/checks.h"
#include "ws/run/entry.h"

namespace ws::matrix {

inline uint32_t div_up(uint64_t a, uint64_t b) { return uint32_t((a + b - 1) / b); }

inline std::string shape_text(const Dim3& b) { return "(" + std::to_string(b.x) + "," + std::to_string(b.y) + ")"; }

// Exact comparison (copies, one addition, min-plus of the same floats): counts the mismatches
// and names the first one as "P[r][c]".
template <class T>
void check_exact(RunResult& out, const char* name, const std::vector<T>& got, const std::vector<T>& want,
                 uint64_t cols) {
  keep_checked(out, name, got.data(), got.size());
  uint64_t bad = 0, first = 0;
  for (uint64_t i = 0; i < want.size(); ++i)
    if (!(got[i] == want[i]) && bad++ == 0) first = i;
  const std::string at = std::string(name) + "[" + std::to_string(first / cols) + "][" + std::to_string(first % cols) + "]";
  out.passed = bad == 0;
  out.check = "exact, element by element (the kernel does the same operations in the same type)";
  if (want.empty()) return;
  out.result = bad ? std::to_string(bad) + " of " + std::to_string(want.size()) + " wrong, first " + at + " = " + value_text(got[first])
                   : std::string(name) + " correct (" + std::to_string(want.size()) + " elements)";
  out.expected = at + " = " + value_text(want[first]);
}

// Dot products of length k per element: int exact; float against a double reference with
// checks.h's any-order bound (k + 2) * eps * sum|a*b| per element. Reports the worst element.
template <class T>
void check_products(RunResult& out, const char* name, const std::vector<T>& got, const std::vector<double>& ref,
                    const std::vector<double>& abs_ref, uint64_t cols, uint64_t k) {
  keep_checked(out, name, got.data(), got.size());
  uint64_t worst = 0;
  double worst_ratio = -1;
  uint64_t bad = 0;
  for (uint64_t i = 0; i < ref.size(); ++i) {
    double ratio;
    if constexpr (std::is_integral_v<T>) {
      ratio = double(got[i]) == ref[i] ? 0.0 : 2.0;
    } else {
      const double tol = (double(k) + 2) * 1.1920929e-07 * std::max(abs_ref[i], 1e-30);
      const double err = std::fabs(double(got[i]) - ref[i]);
      ratio = std::isfinite(double(got[i])) ? err / tol : 2.0;
    }
    if (ratio > 1) ++bad;
    if (ratio > worst_ratio) worst_ratio = ratio, worst = i;
  }
  if (ref.empty()) return;
  const std::string at = std::string(name) + "[" + std::to_string(worst / cols) + "][" + std::to_string(worst % cols) + "]";
  check_scalar(out, at, got[worst], ref[worst], abs_ref[worst], k, SumOrder::Arbitrary);
  out.passed = bad == 0;
  out.check = (std::is_integral_v<T> ? "exact (integer), every element; shown: the first mismatch (or element [0][0])"
                                     : "every element within checks.h's any-order bound over the k = " + std::to_string(k) +
                                           " products; shown: the element closest to its bound: " + out.check);
  if (bad) out.result += " (" + std::to_string(bad) + " of " + std::to_string(ref.size()) + " elements wrong)";
}

}  // namespace ws::matrix
