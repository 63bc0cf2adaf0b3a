// Host reference of the coalescing demos (memory/coalesce.cuh): each demo's input and the out[]
// its loads leave.
//
//   const std::vector<float> in = ws::reference::coalesce::elements<float>(n + offset, seed);
//   const std::vector<float> want = ws::reference::coalesce::offset_gather(in, n, offset);
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/reference.h"

namespace ws::reference::coalesce {

// Elements of 4, 8 or 16 bytes (float, float2, float4), every float member in [-9, 9).
template <class T>
std::vector<T> elements(uint64_t n, uint64_t seed) {
  static_assert(sizeof(T) % sizeof(float) == 0, "floats or vectors of floats");
  const std::vector<float> f = random_input<float>(n * (sizeof(T) / sizeof(float)), seed, -9, 9);
  std::vector<T> v(n);
  if (n) std::memcpy(static_cast<void*>(v.data()), f.data(), n * sizeof(T));
  return v;
}

// offset: out[i] = in[i + offset].
template <class T>
std::vector<T> offset_gather(const std::vector<T>& in, uint64_t n, uint64_t offset) {
  std::vector<T> out(n);
  for (uint64_t i = 0; i < n; ++i) out[i] = in[i + offset];
  return out;
}

// stride: out[i] = in[i * stride].
template <class T>
std::vector<T> stride_gather(const std::vector<T>& in, uint64_t n, uint64_t stride) {
  std::vector<T> out(n);
  for (uint64_t i = 0; i < n; ++i) out[i] = in[i * stride];
  return out;
}

// aos and soa: n points (x, y, z), point i = xyz[3i .. 3i+2], floats in [-9, 9); out[i] is the
// sum of its members, added in the kernel's order.
inline std::vector<float> points(uint64_t n, uint64_t seed) { return random_input<float>(3 * n, seed, -9, 9); }

inline std::vector<float> point_sums(const std::vector<float>& xyz, uint64_t n) {
  std::vector<float> out(n);
  for (uint64_t i = 0; i < n; ++i) out[i] = xyz[3 * i] + xyz[3 * i + 1] + xyz[3 * i + 2];
  return out;
}

}  // namespace ws::reference::coalesce
