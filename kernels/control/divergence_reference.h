// Host reference of the branch-divergence demos (control/divergence.cuh): the input and the out[]
// a demo leaves. Thread t of its block (t = i % blockDim.x) computes out[i] = 2 * in[i] on the
// first path and in[i] + 1 on the other; the branch conditions below say which path it takes.
//
//   const std::vector<int> in = ws::reference::divergence::input<int>(n, seed);
//   const std::vector<int> want = ws::reference::divergence::outputs(in, block, ws::reference::divergence::odd_lane);
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/reference.h"

namespace ws::reference::divergence {

// Integers 0..99, floats in [-1, 1).
template <class T>
std::vector<T> input(uint64_t n, uint64_t seed) {
  return std::is_integral_v<T> ? random_input<T>(n, seed, 0, 99) : random_input<T>(n, seed, -1, 1);
}

// The conditions: true when thread t takes the first path.
inline bool odd_lane(unsigned t) { return t % 2 == 1; }        // threadIdx.x % 2 == 1
inline bool above_two(unsigned t) { return t > 2; }            // threadIdx.x > 2
inline bool warp_above_two(unsigned t) { return t / 32 > 2; }  // threadIdx.x / warpSize > 2

// One path's value for thread t.
template <class T>
T path_value(bool (*first_path)(unsigned), unsigned t, T x) {
  return first_path(t) ? T(2) * x : x + T(1);
}

// out[] of a demo with the branch once per thread.
template <class T>
std::vector<T> outputs(const std::vector<T>& in, uint32_t block, bool (*first_path)(unsigned)) {
  std::vector<T> out(in.size());
  for (uint64_t i = 0; i < in.size(); ++i) out[i] = path_value(first_path, unsigned(i % block), in[i]);
  return out;
}

// out[] of the loop demo: each thread adds its path's value `iters` times, from 0, in T.
template <class T>
std::vector<T> loop_outputs(const std::vector<T>& in, uint32_t block, bool (*first_path)(unsigned), unsigned iters) {
  std::vector<T> out(in.size());
  for (uint64_t i = 0; i < in.size(); ++i) {
    const T one = path_value(first_path, unsigned(i % block), in[i]);
    T sum = 0;
    for (unsigned k = 0; k < iters; ++k) sum += one;
    out[i] = sum;
  }
  return out;
}

}  // namespace ws::reference::divergence
