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

// The spec of a kernel over rows x cols matrices (rows = n, `cols` from its "cols" parameter, 0 =
// square; transpose, matadd): element counts for the memory estimate, the emulator's limit of 16M
// elements, and its timing launch: square, 8192 x 8192 by default, held against a device-to-device
// copy of the same bytes.
inline void rows_by_cols_spec(KernelSpec& s, uint64_t (*cols)(const RunConfig&)) {
  s.elements = [cols](const RunConfig& c) { return c.n * cols(c); };
  s.emulator_limit = [cols](const RunConfig& c) -> std::string {
    if (c.n * cols(c) <= (1u << 24)) return {};
    return "the matrix has " + std::to_string(c.n * cols(c)) + " elements: too many for the emulator (rows * cols <= 16777216)";
  };
  s.timing.n = 8192;
  s.timing.sizes = {2048, 4096, 8192, 16384};
  s.timing.matrix = true;
  s.timing.params = {{"cols", 0}};
  s.timing.why = "a square matrix";
  s.timing.ceiling = TimingSpec::Ceiling::Copy;
}

// Where a reference too costly to compute whole (a 4096^3 product on the CPU) is checked: every
// corner, the whole first and last row and column, and `count` more elements spread over the
// matrix by a fixed hash, in increasing order without repeats.
inline std::vector<uint64_t> sample_positions(uint64_t rows, uint64_t cols, uint64_t count = 4096) {
  std::vector<uint64_t> at;
  if (rows == 0 || cols == 0) return at;
  for (uint64_t c = 0; c < cols; ++c) at.push_back(c), at.push_back((rows - 1) * cols + c);
  for (uint64_t r = 0; r < rows; ++r) at.push_back(r * cols), at.push_back(r * cols + cols - 1);
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (uint64_t i = 0; i < count; ++i) {
    h ^= h >> 29, h *= 0xbf58476d1ce4e5b9ull, h ^= h >> 32;  // splitmix-style scramble
    at.push_back(h % (rows * cols));
  }
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  return at;
}

// Exact comparison (copies, one addition, min-plus of the same floats): counts the mismatches
// and names the first one as "P[r][c]". With `at`, want[j] is the element at position at[j] of
// `got` (a sampled check, see sample_positions); without, want is the whole matrix.
template <class T>
void check_exact(RunResult& out, const char* name, const std::vector<T>& got, const std::vector<T>& want,
                 uint64_t cols, const std::vector<uint64_t>& at = {}) {
  keep_checked(out, name, got.data(), got.size());
  auto pos = [&](uint64_t j) { return at.empty() ? j : at[j]; };
  uint64_t bad = 0, first = 0;
  for (uint64_t j = 0; j < want.size(); ++j)
    if (!(pos(j) < got.size() && got[pos(j)] == want[j]) && bad++ == 0) first = j;
  const uint64_t fp = want.empty() ? 0 : pos(first);
  const std::string where = std::string(name) + "[" + std::to_string(fp / cols) + "][" + std::to_string(fp % cols) + "]";
  out.passed = bad == 0;
  out.check = at.empty() ? "exact, element by element (the kernel does the same operations in the same type)"
                         : "exact, " + std::to_string(want.size()) + " of " + std::to_string(got.size()) +
                               " elements (every edge element and a fixed spread of the rest: the whole CPU reference "
                               "would take minutes at this size)";
  if (want.empty() || fp >= got.size()) return;
  out.result = bad ? std::to_string(bad) + " of " + std::to_string(want.size()) + " wrong, first " + where + " = " + value_text(got[fp])
                   : std::string(name) + " correct (" + std::to_string(want.size()) + " elements" +
                         (at.empty() ? std::string(")") : " checked)");
  out.expected = where + " = " + value_text(want[first]);
}

// Dot products of length k per element: int exact; float against a double reference with
// checks.h's any-order bound (k + 2) * eps * sum|a*b| per element. Reports the worst element.
// With `at`, ref[j] and abs_ref[j] belong to position at[j] of `got` (a sampled check).
template <class T>
void check_products(RunResult& out, const char* name, const std::vector<T>& got, const std::vector<double>& ref,
                    const std::vector<double>& abs_ref, uint64_t cols, uint64_t k, const std::vector<uint64_t>& at = {}) {
  keep_checked(out, name, got.data(), got.size());
  auto pos = [&](uint64_t j) { return at.empty() ? j : at[j]; };
  uint64_t worst = 0;
  double worst_ratio = -1;
  uint64_t bad = 0;
  for (uint64_t j = 0; j < ref.size(); ++j) {
    double ratio = 2.0;
    if (pos(j) < got.size()) {
      const double g = double(got[pos(j)]);
      if constexpr (std::is_integral_v<T>) {
        ratio = g == ref[j] ? 0.0 : 2.0;
      } else {
        const double tol = (double(k) + 2) * 1.1920929e-07 * std::max(abs_ref[j], 1e-30);
        ratio = std::isfinite(g) ? std::fabs(g - ref[j]) / tol : 2.0;
      }
    }
    if (ratio > 1) ++bad;
    if (ratio > worst_ratio) worst_ratio = ratio, worst = j;
  }
  if (ref.empty() || pos(worst) >= got.size()) return;
  const uint64_t wp = pos(worst);
  const std::string where = std::string(name) + "[" + std::to_string(wp / cols) + "][" + std::to_string(wp % cols) + "]";
  check_scalar(out, where, got[wp], ref[worst], abs_ref[worst], k, SumOrder::Arbitrary);
  out.passed = bad == 0;
  const std::string which = at.empty() ? "every element" : std::to_string(ref.size()) + " of " + std::to_string(got.size()) +
                                                               " elements (every edge element and a fixed spread of the rest)";
  out.check = (std::is_integral_v<T> ? "exact (integer), " + which + "; shown: the first mismatch (or element [0][0])"
                                     : which + " within checks.h's any-order bound over the k = " + std::to_string(k) +
                                           " products; shown: the element closest to its bound: " + out.check);
  if (bad) out.result += " (" + std::to_string(bad) + " of " + std::to_string(ref.size()) + " elements wrong)";
}

}  // namespace ws::matrix
