// Host reference of the streams demo's kernel (memory/streams.cuh): its input and what `work`
// rounds of y = fma(y, 0.999, 0.5) leave in every element (the same correctly rounded fused
// multiply-add as the kernel's __fmaf_rn, so the result is exact).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace ws::reference::streams {

inline std::vector<float> input(uint64_t n) {
  std::vector<float> v(n);
  for (uint64_t i = 0; i < n; ++i) v[i] = float(i % 1000) * 0.001f;
  return v;
}

inline std::vector<float> scaled(std::vector<float> v, uint32_t work) {
  for (float& y : v)
    for (uint32_t k = 0; k < work; ++k) y = std::fma(y, 0.999f, 0.5f);
  return v;
}

}  // namespace ws::reference::streams
