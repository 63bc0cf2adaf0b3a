// Kernels that use CUDA's intrinsics, and what the CUDA Programming Guide says they give, computed
// here on the host without them. The emulator's test (test_intrinsics.cpp) and the GPU's
// (tests/backends/gpu/test_gpu_intrinsics.cu) hold both backends to the same expected values.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ws/kernel.cuh"

// ---- per-thread intrinsics: kPerThread results per input word ------------------------------------
inline constexpr unsigned kPerThread = 16;

__global__ void intrinsics_per_thread(ws::global_array<const unsigned> words, ws::global_array<unsigned> out, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n) return;
  unsigned x = words[i];
  unsigned y = x * 2654435761u + 12345u;
  out[i * kPerThread + 0] = unsigned(__popc(x));
  out[i * kPerThread + 1] = unsigned(__clz(int(x)));
  out[i * kPerThread + 2] = unsigned(__ffs(int(x)));
  out[i * kPerThread + 3] = __brev(x);
  out[i * kPerThread + 4] = __byte_perm(x, y, 0x4073u);
  out[i * kPerThread + 5] = __funnelshift_l(x, y, x & 63u);
  out[i * kPerThread + 6] = __funnelshift_rc(x, y, x & 63u);
  out[i * kPerThread + 7] = __umulhi(x, y);
  out[i * kPerThread + 8] = unsigned(__mul24(int(x), int(y)));
  out[i * kPerThread + 9] = __sad(int(x), int(y), 7u);
  out[i * kPerThread + 10] = unsigned(__float2int_rn(float(int(x)) * 0.37f));
  out[i * kPerThread + 11] = __float_as_uint(__saturatef(float(x & 0xffffu) / 40000.0f - 0.3f));
  out[i * kPerThread + 12] = unsigned(__hadd(int(x), int(y)));
  out[i * kPerThread + 13] = __urhadd(x, y);
  out[i * kPerThread + 14] = unsigned(__dp4a(int(x), int(y), -3));
  out[i * kPerThread + 15] = __dp4a(x, y, 5u);
}

namespace intrinsic_cases {

inline std::vector<unsigned> words(unsigned n) {
  std::vector<unsigned> w = {0u, 1u, 2u, 3u, 0x80000000u, 0xffffffffu, 0x7fffffffu, 0x12345678u, 0xdeadbeefu, 0x00f000f0u};
  uint64_t s = 0x9e3779b97f4a7c15ull;
  while (w.size() < n) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    w.push_back(unsigned(s >> 11));
  }
  w.resize(n);
  return w;
}

// The Guide's definitions, bit by bit.
inline unsigned popc(unsigned x) {
  unsigned k = 0;
  for (int b = 0; b < 32; ++b) k += (x >> b) & 1;
  return k;
}
inline unsigned clz(unsigned x) {
  unsigned k = 0;
  for (int b = 31; b >= 0 && !((x >> b) & 1); --b) ++k;
  return k;
}
inline unsigned ffs(unsigned x) {
  for (unsigned b = 0; b < 32; ++b)
    if ((x >> b) & 1) return b + 1;
  return 0;
}
inline unsigned brev(unsigned x) {
  unsigned r = 0;
  for (int b = 0; b < 32; ++b)
    if ((x >> b) & 1) r |= 1u << (31 - b);
  return r;
}
inline unsigned byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned char bytes[8] = {uint8_t(x), uint8_t(x >> 8), uint8_t(x >> 16), uint8_t(x >> 24),
                                  uint8_t(y), uint8_t(y >> 8), uint8_t(y >> 16), uint8_t(y >> 24)};
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) r |= unsigned(bytes[(s >> (4 * k)) & 7]) << (8 * k);
  return r;
}
// "Shift the 64 bits hi:lo left by shift & 31, return the high word"; the _rc form clamps the
// shift to 32 and returns the low word of the right shift.
inline unsigned funnel_l(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned s = shift & 31;
  return s ? (hi << s) | (lo >> (32 - s)) : hi;
}
inline unsigned funnel_rc(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned s = std::min(shift, 32u);
  if (s == 32) return hi;
  return s ? (lo >> s) | (hi << (32 - s)) : lo;
}
inline unsigned sign24(unsigned v) { return (v & 0x800000u) ? (v | 0xff000000u) : (v & 0xffffffu); }

inline std::vector<unsigned> expected_per_thread(const std::vector<unsigned>& w) {
  std::vector<unsigned> out;
  for (unsigned x : w) {
    const unsigned y = x * 2654435761u + 12345u;
    out.push_back(popc(x));
    out.push_back(clz(x));
    out.push_back(ffs(x));
    out.push_back(brev(x));
    out.push_back(byte_perm(x, y, 0x4073u));
    out.push_back(funnel_l(x, y, x & 63u));
    out.push_back(funnel_rc(x, y, x & 63u));
    out.push_back(unsigned((uint64_t(x) * y) >> 32));
    out.push_back(unsigned(int64_t(int32_t(sign24(x))) * int64_t(int32_t(sign24(y)))));
    out.push_back(unsigned(std::llabs(int64_t(int32_t(x)) - int32_t(y))) + 7u);
    const float f = float(int(x)) * 0.37f;  // one rounding, as on the GPU
    out.push_back(unsigned(int(std::nearbyint(double(f)))));  // |f| < 2^31: no saturation here
    const float g = float(x & 0xffffu) / 40000.0f - 0.3f;
    const float sat = g < 0 ? 0.0f : g > 1 ? 1.0f : g;
    unsigned bits;
    std::memcpy(&bits, &sat, 4);
    out.push_back(bits);
    out.push_back(unsigned(int32_t((int64_t(int32_t(x)) + int32_t(y)) >> 1)));
    out.push_back(unsigned((uint64_t(x) + y + 1) >> 1));
    int64_t dot_signed = -3, dot_unsigned = 5;  // byte by byte: x's byte k times y's byte k
    for (int k = 0; k < 4; ++k) {
      const int xs = int((x >> (8 * k)) & 0xff), ys = int((y >> (8 * k)) & 0xff);
      dot_signed += int64_t(xs >= 128 ? xs - 256 : xs) * (ys >= 128 ? ys - 256 : ys);
      dot_unsigned += int64_t(xs) * ys;
    }
    out.push_back(unsigned(uint64_t(dot_signed)));
    out.push_back(unsigned(uint64_t(dot_unsigned)));
  }
  return out;
}

}  // namespace intrinsic_cases

// ---- SIMD within a word and __fns: kSimdPerThread results per input word ----------------------
inline constexpr unsigned kSimdPerThread = 16;

__global__ void intrinsics_simd(ws::global_array<const unsigned> words, ws::global_array<unsigned> out, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n) return;
  unsigned x = words[i];
  unsigned y = x * 2654435761u + 12345u;
  out[i * kSimdPerThread + 0] = __vadd2(x, y);
  out[i * kSimdPerThread + 1] = __vadd4(x, y);
  out[i * kSimdPerThread + 2] = __vsubss2(x, y);
  out[i * kSimdPerThread + 3] = __vaddus4(x, y);
  out[i * kSimdPerThread + 4] = __vabsdiffs4(x, y);
  out[i * kSimdPerThread + 5] = __vavgu2(x, y);
  out[i * kSimdPerThread + 6] = __vmaxs4(x, y);
  out[i * kSimdPerThread + 7] = __vminu2(x, y);
  out[i * kSimdPerThread + 8] = __vcmpgts4(x, y);
  out[i * kSimdPerThread + 9] = __vsetltu2(x, y);
  out[i * kSimdPerThread + 10] = __vabsss4(x);
  out[i * kSimdPerThread + 11] = __vnegss2(x);
  out[i * kSimdPerThread + 12] = __vsads4(x, y);
  out[i * kSimdPerThread + 13] = __vsadu2(x, y);
  out[i * kSimdPerThread + 14] = __fns(x, y & 31u, int(y % 7u) - 3);
  out[i * kSimdPerThread + 15] = __fns(y, x & 31u, int(x % 5u) + 1);
}

namespace intrinsic_cases {

// The Math API's definitions, lane by lane: lanes[k] is byte (or halfword) k, as the CUDA guide
// numbers them (k = 0 the least significant).
struct Lanes {
  int width;  // 8 or 16
  long long s[4];
  unsigned long long u[4];
  int count() const { return 32 / width; }
};
inline Lanes lanes(unsigned v, int width) {
  Lanes l{width, {}, {}};
  for (int k = 0; k < l.count(); ++k) {
    l.u[k] = (v >> (k * width)) & ((1ull << width) - 1);
    l.s[k] = l.u[k] >= (1ull << (width - 1)) ? (long long)l.u[k] - (1ll << width) : (long long)l.u[k];
  }
  return l;
}
template <class F>
unsigned pack(int width, F lane_result) {
  unsigned long long r = 0;
  for (int k = 0; k < 32 / width; ++k) r |= ((unsigned long long)lane_result(k) & ((1ull << width) - 1)) << (k * width);
  return unsigned(r);
}
inline long long clamp(long long v, long long lo, long long hi) { return v < lo ? lo : v > hi ? hi : v; }
inline unsigned fns(unsigned mask, unsigned base, int offset) {  // PTX ISA, fns
  if (offset == 0) return (mask >> base) & 1 ? base : 0xffffffffu;
  int seen = 0;
  const int want = offset > 0 ? offset : -offset;
  for (int pos = int(base); 0 <= pos && pos <= 31; pos += offset > 0 ? 1 : -1)
    if ((mask >> pos) & 1 && ++seen == want) return unsigned(pos);
  return 0xffffffffu;
}

inline std::vector<unsigned> expected_simd(const std::vector<unsigned>& w) {
  std::vector<unsigned> out;
  for (unsigned x : w) {
    const unsigned y = x * 2654435761u + 12345u;
    const Lanes x2 = lanes(x, 16), y2 = lanes(y, 16), x4 = lanes(x, 8), y4 = lanes(y, 8);
    out.push_back(pack(16, [&](int k) { return x2.u[k] + y2.u[k]; }));
    out.push_back(pack(8, [&](int k) { return x4.u[k] + y4.u[k]; }));
    out.push_back(pack(16, [&](int k) { return clamp(x2.s[k] - y2.s[k], -32768, 32767); }));
    out.push_back(pack(8, [&](int k) { return clamp((long long)(x4.u[k] + y4.u[k]), 0, 255); }));
    out.push_back(pack(8, [&](int k) { return std::llabs(x4.s[k] - y4.s[k]); }));
    out.push_back(pack(16, [&](int k) { return (x2.u[k] + y2.u[k] + 1) / 2; }));
    out.push_back(pack(8, [&](int k) { return std::max(x4.s[k], y4.s[k]); }));
    out.push_back(pack(16, [&](int k) { return std::min(x2.u[k], y2.u[k]); }));
    out.push_back(pack(8, [&](int k) { return x4.s[k] > y4.s[k] ? 0xffll : 0ll; }));
    out.push_back(pack(16, [&](int k) { return x2.u[k] < y2.u[k] ? 1ll : 0ll; }));
    out.push_back(pack(8, [&](int k) { return clamp(std::llabs(x4.s[k]), 0, 127); }));
    out.push_back(pack(16, [&](int k) { return clamp(-x2.s[k], -32768, 32767); }));
    long long sads = 0, sadu = 0;
    for (int k = 0; k < 4; ++k) sads += std::llabs(x4.s[k] - y4.s[k]);
    for (int k = 0; k < 2; ++k) sadu += std::llabs((long long)x2.u[k] - (long long)y2.u[k]);
    out.push_back(unsigned(sads));
    out.push_back(unsigned(sadu));
    out.push_back(fns(x, y & 31u, int(y % 7u) - 3));
    out.push_back(fns(y, x & 31u, int(x % 5u) + 1));
  }
  return out;
}

}  // namespace intrinsic_cases

// ---- warp- and block-wide intrinsics ------------------------------------------------------------
// Lanes whose key (lane % 5) is the same find each other; only the odd lanes take part in the
// second match; every lane of a warp has the same warp index (match_all).
__global__ void match_kernel(ws::global_array<unsigned> any, ws::global_array<unsigned> odd_any,
                             ws::global_array<unsigned> all, ws::global_array<int> all_pred) {
  unsigned lane = threadIdx.x % 32;
  unsigned key = lane % 5;
  any[threadIdx.x] = __match_any_sync(0xffffffffu, key);
  if (lane % 2 == 1) odd_any[threadIdx.x] = __match_any_sync(0xaaaaaaaau, key);
  int pred = -1;
  unsigned same = __match_all_sync(0xffffffffu, threadIdx.x / 32, &pred);
  all[threadIdx.x] = same;
  all_pred[threadIdx.x] = pred;
}

// (__reduce_*_sync exist from sm_80: the build's compute_75 PTX leaves them out.)
__global__ void warp_reduce_kernel(ws::global_array<int> out) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  int lane = int(threadIdx.x % 32);
  int v = lane * 3 - 40;  // -40 .. 53
  unsigned u = unsigned(v);
  out[threadIdx.x * 6 + 0] = __reduce_add_sync(0xffffffffu, v);
  out[threadIdx.x * 6 + 1] = __reduce_min_sync(0xffffffffu, v);       // signed
  out[threadIdx.x * 6 + 2] = int(__reduce_min_sync(0xffffffffu, u));  // unsigned
  out[threadIdx.x * 6 + 3] = int(__reduce_max_sync(0xffffffffu, u));
  out[threadIdx.x * 6 + 4] = int(__reduce_or_sync(0xffffffffu, 1u << lane));
  if (lane < 16) out[threadIdx.x * 6 + 5] = int(__reduce_xor_sync(0x0000ffffu, u));  // half the warp
#endif
}

// Three counting barriers at one site (a loop) and one of each form: every thread gets the
// block's answer, and the shared write before the last one is seen after it.
__global__ void count_kernel(ws::global_array<int> out) {
  __shared__ ws::shared_array<int, 1, "flag"> flag;
  unsigned t = threadIdx.x;
  for (unsigned k = 1; k <= 3; ++k) out[t * 6 + k - 1] = __syncthreads_count(t % (k + 1) == 0);
  out[t * 6 + 3] = __syncthreads_and(t < blockDim.x);
  out[t * 6 + 4] = __syncthreads_or(t == blockDim.x - 1);
  if (t == 0) flag[0] = 42;
  out[t * 6 + 5] = __syncthreads_count(0) + flag[0];
}

namespace intrinsic_cases {

inline void expected_match(uint32_t block, std::vector<unsigned>& any, std::vector<unsigned>& odd) {
  any.assign(block, 0), odd.assign(block, 0);
  for (uint32_t t = 0; t < block; ++t) {
    const uint32_t lane = t % 32;
    for (uint32_t j = 0; j < 32; ++j) {
      if (j % 5 == lane % 5) any[t] |= 1u << j;
      if (j % 5 == lane % 5 && j % 2 == 1 && lane % 2 == 1) odd[t] |= 1u << j;
    }
  }
}

inline std::vector<int> expected_warp_reduce() {
  int sum = 0, smin = 1 << 30;
  unsigned umin = ~0u, umax = 0, x16 = 0;
  for (int l = 0; l < 32; ++l) {
    const int v = l * 3 - 40;
    sum += v, smin = std::min(smin, v), umin = std::min(umin, unsigned(v)), umax = std::max(umax, unsigned(v));
    if (l < 16) x16 ^= unsigned(v);
  }
  std::vector<int> out(32 * 6);
  for (int l = 0; l < 32; ++l) {
    out[l * 6 + 0] = sum, out[l * 6 + 1] = smin, out[l * 6 + 2] = int(umin), out[l * 6 + 3] = int(umax);
    out[l * 6 + 4] = -1, out[l * 6 + 5] = l < 16 ? int(x16) : 0;
  }
  return out;
}

inline std::vector<int> expected_count(uint32_t block) {
  std::vector<int> out(size_t(block) * 6);
  for (uint32_t t = 0; t < block; ++t) {
    for (uint32_t k = 1; k <= 3; ++k) {
      int c = 0;
      for (uint32_t u = 0; u < block; ++u) c += u % (k + 1) == 0;
      out[t * 6 + k - 1] = c;
    }
    out[t * 6 + 3] = 1, out[t * 6 + 4] = 1, out[t * 6 + 5] = 42;
  }
  return out;
}

}  // namespace intrinsic_cases
