// The helpers of the driver that warpscope generates for a kernel file's launch description
// (generate.h): sizes checked before anything is allocated, fills, and the element-by-element
// check of `expect`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cmath>
#include <limits>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/checks.h"
#include "ws/kernel/device_variable.h"
#include "ws/kernel/type_name.h"
#include "ws/run/config.h"
#include "ws/run/result.h"

namespace ws::kernel_file_support {

// An array's size expression as evaluated: "" or why it cannot be allocated.
template <class V>
std::string size_problem(const char* array, V v, uint64_t element_bytes, uint64_t& size) {
  if constexpr (std::is_floating_point_v<V>) {
    if (!(v >= 1 && v < 1.8e19)) return std::string("array ") + array + ": size evaluates to " + std::to_string(double(v)) + " (must be >= 1)";
    size = uint64_t(v);
  } else if constexpr (std::is_integral_v<V>) {
    if constexpr (std::is_signed_v<V>)
      if (v < 1) return std::string("array ") + array + ": size evaluates to " + std::to_string(int64_t(v)) + " (must be >= 1)";
    if (v == 0) return std::string("array ") + array + ": size evaluates to 0 (must be >= 1)";
    size = uint64_t(v);
  } else {
    static_assert(std::is_arithmetic_v<V>, "an array's size must be a number");
  }
  if (size > (uint64_t(1) << 40) / element_bytes)
    return std::string("array ") + array + ": " + std::to_string(size) + " elements is over 1 TiB";
  return {};
}

// A grid dimension as evaluated: "" or why it is not one CUDA allows.
template <class V>
std::string grid_problem(const char* axis, V v, uint64_t limit, uint32_t& out) {
  static_assert(std::is_arithmetic_v<V>, "a grid dimension must be a number");
  const double d = double(v);
  if (!(d >= 1 && d <= double(limit)))
    return std::string("grid.") + axis + " evaluates to " + std::to_string(d) + " (allowed: 1 to " + std::to_string(limit) + ")";
  out = uint32_t(v);
  return {};
}

// A launch value (dynamic shared bytes, a row length) as evaluated: "" or why it is out of [lo, hi].
template <class V>
std::string value_problem(const char* what, V v, double lo, double hi, uint32_t& out) {
  static_assert(std::is_arithmetic_v<V>, "shared and row_length must be numbers");
  const double d = double(v);
  if (!(d >= lo && d <= hi))
    return std::string(what) + " evaluates to " + std::to_string(d) + " (allowed: " + std::to_string(uint64_t(lo)) + " to " +
           std::to_string(uint64_t(hi)) + ")";
  out = uint32_t(v);
  return {};
}

template <class T, class V>
T fill_value(V v) {
  if constexpr (std::is_constructible_v<T, V>) return T(v);
  else return T{v};
}

template <class T>
std::vector<T> random_fill(uint64_t size, uint64_t seed, bool has_range, double lo, double hi) {
  static_assert(std::is_arithmetic_v<T>, "fill = \"random\" is for number types: give a struct array a fill expression");
  if (!has_range) lo = std::is_floating_point_v<T> ? -1 : 0, hi = std::is_floating_point_v<T> ? 1 : 9;
  // Within the type's values (a range wider than an int's is the int's).
  lo = std::max(lo, double(std::numeric_limits<T>::lowest()));
  hi = std::min(hi, double(std::numeric_limits<T>::max()));
  if (hi < lo) hi = lo;
  return ws::random_input<T>(size, seed, lo, hi);
}

template <class T>
std::vector<T> iota_fill(uint64_t size) {
  std::vector<T> v(size);
  for (uint64_t i = 0; i < size; ++i) v[i] = fill_value<T>(i);
  return v;
}

// Two integers of any types, equal as numbers (no wrap-around of a negative into an unsigned).
template <class A, class B>
bool same_integer(A a, B b) {
  const bool a_negative = a < A(0), b_negative = b < B(0);
  if (a_negative != b_negative) return false;
  if (a_negative) return static_cast<long long>(a) == static_cast<long long>(b);
  return static_cast<unsigned long long>(a) == static_cast<unsigned long long>(b);
}

// Compares every element of the arrays that have an `expect` and writes the verdict.
class Checker {
 public:
  explicit Checker(RunResult& out) : out_(out) {}

  template <class T, class E>
  void compare(const char* array, uint64_t i, const T& got, const E& want, double tolerance) {
    static_assert(std::is_arithmetic_v<T>, "expect compares numbers: check a struct array member by member in your own driver");
    ++compared_;
    const double g = double(got), w = double(want);
    bool ok;
    if (tolerance < 0) tolerance = std::is_floating_point_v<T> ? 1e-5 : 0;
    if (tolerance == 0) {
      // (An integer compared as itself where the expected value is one of its type's; a value the
      // type cannot hold never matches, and is not converted.)
      if constexpr (std::is_integral_v<T>)
        ok = std::is_integral_v<E> || (w >= double(std::numeric_limits<T>::lowest()) && w <= double(std::numeric_limits<T>::max()) &&
                                       w == std::floor(w))
                 ? (std::is_integral_v<E> ? same_integer(got, want) : got == static_cast<T>(w))
                 : false;
      else
        ok = g == w;
    }
    else ok = std::fabs(g - w) <= tolerance * std::max(1.0, std::fabs(w));
    if (std::isnan(w) && std::isnan(g)) ok = true;
    if (std::isinf(w) && g == w) ok = true;  // (an infinity is its own value: inf - inf is no error of 0)
    if (!ok && mismatches_++ == 0)
      first_ = std::string(array) + "[" + std::to_string(i) + "] = " + ws::value_text(got) + ", expected " + ws::value_text(w);
    if (tolerance > worst_tolerance_) worst_tolerance_ = tolerance;
  }

  void finish(const std::string& arrays) {
    if (compared_ == 0) {
      out_.result = "ran to the end";
      out_.expected = "";
      out_.check = "none: the launch description has no expect";
      out_.passed = true;
      return;
    }
    out_.check = worst_tolerance_ > 0 ? "element by element, |got - expected| <= " + ws::value_text(worst_tolerance_) + " x max(1, |expected|)"
                                      : "element by element, exact";
    out_.expected = arrays + " as expect says";
    out_.passed = mismatches_ == 0;
    out_.result = mismatches_ == 0 ? std::to_string(compared_) + " elements as expected"
                                   : std::to_string(mismatches_) + " of " + std::to_string(compared_) + " elements differ; first: " + first_;
  }

 private:
  RunResult& out_;
  uint64_t compared_ = 0, mismatches_ = 0;
  double worst_tolerance_ = 0;
  std::string first_;
};

// What a pasted program's host code that launches kernels (its main()) became, and what the
// CUDA runtime's calls are on the emulator (host_runtime.inc): warpscope allocates, fills and
// launches from the launch description; that code is compiled, never run.
[[noreturn]] inline void host_code_not_run(const char* what) {
  throw std::logic_error(std::string(what) + " is host code of the file that warpscope does not run: the launch "
                         "description allocates, fills and launches (call it from no expect)");
}

// The file's `__device__` variables (what ws/plain_cuda rewrote them to), each registered by an
// object the rewrite puts on its line, and handed to the backend at the start of every run.
// Private to the translation unit: one kernel file's library does not see another's.
namespace {
inline std::vector<DeviceVariable>& device_variables() {
  static std::vector<DeviceVariable> all;
  return all;
}
}  // namespace

template <class V>
struct device_variable_registration {
  explicit device_variable_registration(V* v) {
    using T = typename V::element_type;
    DeviceVariable d;
    d.name = V::name();
    d.type = ws::type_name<std::remove_cv_t<T>>();
    d.elem_size = uint32_t(sizeof(T));
    d.count = V::size();
    d.symbol = v;
    d.value_offset = offsetof(V, value_);
    d.alloc_offset = offsetof(V, alloc_);
    d.writable = !std::is_const_v<T>;
#if !defined(WS_KERNEL_FILE_GPU)
    // (On the GPU the first run reads it from the device: GpuBackend::adopt.)
    const auto* bytes = reinterpret_cast<const std::byte*>(v->value_);
    d.initial.assign(bytes, bytes + sizeof(v->value_));
#endif
    device_variables().push_back(std::move(d));
  }
};

template <class Backend>
void adopt_device_variables(Backend& be) {
  for (DeviceVariable& v : device_variables()) be.adopt(v);
}

}  // namespace ws::kernel_file_support
