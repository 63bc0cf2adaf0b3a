// Host reference of the shared-memory bank demos (memory/bank.cuh): each demo's input and the
// out[] its one access leaves. out[g] is what thread g % blockDim.x of its block read.
//
//   const std::vector<float> in = ws::reference::bank::elements<float>(len, seed);
//   const std::vector<float> want = ws::reference::bank::strided(in, n, block, base, stride);
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "common/reference.h"

namespace ws::reference::bank {

// Values of the demo's element type: integers 0..99 (char, short), floats in [-9, 9), and a
// vector type (float4) member by member from floats in [-9, 9) (random bytes are no useful float).
template <class T>
std::vector<T> elements(uint64_t n, uint64_t seed) {
  if constexpr (std::is_integral_v<T>) {
    return random_input<T>(n, seed, 0, 99);
  } else if constexpr (std::is_floating_point_v<T>) {
    return random_input<T>(n, seed, -9, 9);
  } else {
    static_assert(sizeof(T) % sizeof(float) == 0, "a vector of floats");
    const std::vector<float> f = random_input<float>(n * (sizeof(T) / sizeof(float)), seed, -9, 9);
    std::vector<T> v(n);
    if (n) std::memcpy(static_cast<void*>(v.data()), f.data(), n * sizeof(T));
    return v;
  }
}

// A random permutation of the lanes of each warp of a block of `block` threads (the last warp may
// be partial): thread t reads lane perm[t] of its warp.
inline std::vector<unsigned> lane_permutation(uint32_t block, uint64_t seed) {
  std::vector<unsigned> p(block);
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 99);
  for (uint32_t w = 0; w < block; w += 32) {
    const uint32_t end = std::min<uint32_t>(block, w + 32);
    for (uint32_t t = w; t < end; ++t) p[t] = t;
    std::shuffle(p.begin() + w, p.begin() + end, rng);
  }
  return p;
}

// stride: thread t reads shared[base + s*t], filled from in[].
template <class T>
std::vector<T> strided(const std::vector<T>& in, uint64_t n, uint32_t block, uint64_t base, uint64_t s) {
  std::vector<T> out(n);
  for (uint64_t g = 0; g < n; ++g) out[g] = in[base + s * (g % block)];
  return out;
}

// permutation: thread t reads shared[base + perm[t]].
template <class T>
std::vector<T> permuted(const std::vector<T>& in, uint64_t n, uint32_t block, uint64_t base, const std::vector<unsigned>& perm) {
  std::vector<T> out(n);
  for (uint64_t g = 0; g < n; ++g) out[g] = in[base + perm[g % block]];
  return out;
}

// broadcast: every thread reads shared[base].
template <class T>
std::vector<T> broadcast(const std::vector<T>& in, uint64_t n, uint64_t base) {
  return std::vector<T>(n, in[base]);
}

// The pair demos stage the input in shared memory and write it back: out[] = in[].

// struct vector {float x, y, z;}: 12 bytes, three words per element, no padding. The array of
// `elems` structs as its words, and out[g] = v.x + v.y + v.z of element base + g % block.
inline std::vector<float> vector_words(uint64_t elems, uint64_t seed) { return random_input<float>(3 * elems, seed, -9, 9); }

inline std::vector<float> vector_sums(const std::vector<float>& words, uint64_t n, uint32_t block, uint64_t base) {
  std::vector<float> out(n);
  for (uint64_t g = 0; g < n; ++g) {
    const uint64_t e = base + g % block;
    out[g] = words[3 * e] + words[3 * e + 1] + words[3 * e + 2];
  }
  return out;
}

// struct myType {float f; char c;}: 8 bytes, f in word 2e, c in the first byte of word 2e + 1 and
// three bytes of padding (zero). c = 0..90, from a second float per element.
inline std::vector<float> mytype_words(uint64_t elems, uint64_t seed) {
  const std::vector<float> f = random_input<float>(3 * elems, seed, -9, 9);
  std::vector<float> words(2 * elems, 0.0f);
  for (uint64_t e = 0; e < elems; ++e) {
    const char c = char(int(f[3 * e + 1] + 9) * 5);
    words[2 * e] = f[3 * e];
    std::memcpy(&words[2 * e + 1], &c, 1);  // the other three bytes of the word stay zero
  }
  return words;
}

// out[g] = m.f + float(m.c) of element base + g % block.
inline std::vector<float> mytype_values(const std::vector<float>& words, uint64_t n, uint32_t block, uint64_t base) {
  std::vector<float> out(n);
  for (uint64_t g = 0; g < n; ++g) {
    const uint64_t e = base + g % block;
    char c;
    std::memcpy(&c, &words[2 * e + 1], 1);
    out[g] = words[2 * e] + float(c);
  }
  return out;
}

}  // namespace ws::reference::bank
