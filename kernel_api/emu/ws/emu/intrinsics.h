// CUDA's per-thread intrinsics as the CPU emulator computes them: integer bit tricks, the
// fast-math functions, rounding conversions and bit casts. They touch no memory and no other
// thread, so they are plain functions with the GPU's results (the fast-math ones within the
// accuracy the CUDA Programming Guide's table of intrinsic functions allows: the emulator uses
// the correctly rounded function, which is always inside that bound).
//
// Memory and warp intrinsics (__ldg, __shfl_*_sync, __match_any_sync, __reduce_*_sync,
// __syncthreads_count, atomics) are in kernel_api.h: they are recorded.
//
//   unsigned lanes_below = __popc(__activemask() & ((1u << lane) - 1));
//   int leader = __ffs(peers) - 1;   // lowest lane of the group, -1 when none
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

// [SECTION] integer
inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clz(int x) { return std::countl_zero(unsigned(x)); }
inline int __clzll(long long x) { return std::countl_zero((unsigned long long)x); }
// Position of the least significant set bit, counting from 1; 0 when x is 0.
inline int __ffs(int x) { return x ? std::countr_zero(unsigned(x)) + 1 : 0; }
inline int __ffsll(long long x) { return x ? std::countr_zero((unsigned long long)x) + 1 : 0; }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (unsigned long long)__brev(unsigned(x)) << 32 | __brev(unsigned(x >> 32));
}
// Byte i of the result is byte s[i] (the selector's nibble i, low 3 bits) of the 8 bytes y:x.
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long bytes = (unsigned long long)y << 32 | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= unsigned((bytes >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
// Funnel shifts of the 64 bits hi:lo: shift amount wrapped to 0..31 (`_l`, `_r`) or clamped to 32
// (`_lc`, `_rc`).
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  return unsigned((((unsigned long long)hi << 32 | lo) << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned s = shift < 32 ? shift : 32;
  return unsigned((((unsigned long long)hi << 32 | lo) << s) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  return unsigned(((unsigned long long)hi << 32 | lo) >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned s = shift < 32 ? shift : 32;
  return unsigned(((unsigned long long)hi << 32 | lo) >> s);
}
// 24-bit multiplies use the low 24 bits of each operand (sign-extended for __mul24).
inline int __mul24(int x, int y) {
  auto low24 = [](int v) { return int32_t(uint32_t(v) << 8) >> 8; };
  return int(int64_t(low24(x)) * low24(y));
}
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return int((int64_t(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) { return unsigned((uint64_t(x) * y) >> 32); }
inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
// __dp4a(a, b, c): c plus the four products of a's and b's bytes (signed for int, unsigned for
// unsigned), the 8-bit dot product of sm_61 and later.
inline int __dp4a(int a, int b, int c) {
  for (int k = 0; k < 32; k += 8) c += int(int8_t(uint32_t(a) >> k)) * int(int8_t(uint32_t(b) >> k));
  return c;
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
  for (int k = 0; k < 32; k += 8) c += ((a >> k) & 0xffu) * ((b >> k) & 0xffu);
  return c;
}
inline unsigned __sad(int x, int y, unsigned z) { return unsigned(x > y ? int64_t(x) - y : int64_t(y) - x) + z; }
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
// Averages without overflow: (x + y) >> 1 and (x + y + 1) >> 1 computed in 33 bits.
inline int __hadd(int x, int y) { return int((int64_t(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return int((int64_t(x) + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) { return unsigned((uint64_t(x) + y) >> 1); }
inline unsigned __urhadd(unsigned x, unsigned y) { return unsigned((uint64_t(x) + y + 1) >> 1); }

// __fns(mask, base, offset): the offset-th set bit of mask counted from bit base (inclusive),
// upward for offset > 0, downward for offset < 0; offset 0: base if that bit is set. 0xffffffff
// when there is none (PTX fns).
inline unsigned __fns(unsigned mask, unsigned base, int offset) {
  if (offset == 0) return base < 32 && ((mask >> base) & 1u) ? base : 0xffffffffu;
  int count = (offset > 0 ? offset : -offset) - 1;
  for (int pos = int(base); pos >= 0 && pos < 32; pos += offset > 0 ? 1 : -1)
    if ((mask >> pos) & 1u) {
      if (count == 0) return unsigned(pos);
      --count;
    }
  return 0xffffffffu;
}

// [SECTION] SIMD within a word: __v*2 works on two 16-bit halves, __v*4 on four bytes, each
// computed on its own (no carry between them); s: signed, u: unsigned, ss/us: saturated.
namespace ws::intrinsics_detail {
// f(sa, sb, ua, ub) for each lane of W bits: the lane's value signed and unsigned, the result
// wrapped to W bits.
template <int W, class F>
unsigned per_lane(unsigned a, unsigned b, F f) {
  constexpr unsigned m = (1u << W) - 1u;
  unsigned r = 0;
  for (int k = 0; k < 32; k += W) {
    const unsigned ua = (a >> k) & m, ub = (b >> k) & m;
    const int sa = int(ua << (32 - W)) >> (32 - W), sb = int(ub << (32 - W)) >> (32 - W);
    r |= (unsigned(f(sa, sb, ua, ub)) & m) << k;
  }
  return r;
}
template <int W>
int saturate_signed(int v) {
  constexpr int hi = (1 << (W - 1)) - 1, lo = -(1 << (W - 1));
  return v > hi ? hi : v < lo ? lo : v;
}
template <int W>
unsigned saturate_unsigned(int v) {
  constexpr int hi = (1 << W) - 1;
  return unsigned(v > hi ? hi : v < 0 ? 0 : v);
}
template <int W>
unsigned sum_abs_diff(unsigned a, unsigned b, bool is_signed) {
  constexpr unsigned m = (1u << W) - 1u;
  unsigned s = 0;
  for (int k = 0; k < 32; k += W) {
    const unsigned ua = (a >> k) & m, ub = (b >> k) & m;
    const int x = is_signed ? int(ua << (32 - W)) >> (32 - W) : int(ua);
    const int y = is_signed ? int(ub << (32 - W)) >> (32 - W) : int(ub);
    s += unsigned(x > y ? x - y : y - x);
  }
  return s;
}
}  // namespace ws::intrinsics_detail
// One row per pair: NAME2 on halfwords, NAME4 on bytes; EXPR of sa, sb, ua, ub and W.
// EXPR of one lane's sa, sb, ua, ub and its width W, for every lane of a and b.
#define WS_EMU_SIMD_LANES(EXPR)                                                                      \
  ws::intrinsics_detail::per_lane<W>(a, b, [](int sa, int sb, unsigned ua, unsigned ub) {           \
    (void)sa, (void)sb, (void)ua, (void)ub;                                                         \
    return (EXPR);                                                                                  \
  })
#define WS_EMU_SIMD(NAME, EXPR)                                                                      \
  inline unsigned NAME##2(unsigned a, unsigned b) {                                                  \
    constexpr int W = 16;                                                                            \
    return WS_EMU_SIMD_LANES(EXPR);                                                                  \
  }                                                                                                  \
  inline unsigned NAME##4(unsigned a, unsigned b) {                                                  \
    constexpr int W = 8;                                                                             \
    return WS_EMU_SIMD_LANES(EXPR);                                                                  \
  }
#define WS_EMU_SIMD1(NAME, EXPR)                                                                     \
  inline unsigned NAME##2(unsigned a) {                                                              \
    constexpr int W = 16;                                                                            \
    const unsigned b = 0;                                                                            \
    return WS_EMU_SIMD_LANES(EXPR);                                                                  \
  }                                                                                                  \
  inline unsigned NAME##4(unsigned a) {                                                              \
    constexpr int W = 8;                                                                             \
    const unsigned b = 0;                                                                            \
    return WS_EMU_SIMD_LANES(EXPR);                                                                  \
  }
WS_EMU_SIMD(__vadd, ua + ub)
WS_EMU_SIMD(__vsub, ua - ub)
WS_EMU_SIMD(__vaddss, ws::intrinsics_detail::saturate_signed<W>(sa + sb))
WS_EMU_SIMD(__vsubss, ws::intrinsics_detail::saturate_signed<W>(sa - sb))
WS_EMU_SIMD(__vaddus, ws::intrinsics_detail::saturate_unsigned<W>(int(ua + ub)))
WS_EMU_SIMD(__vsubus, ws::intrinsics_detail::saturate_unsigned<W>(int(ua) - int(ub)))
WS_EMU_SIMD(__vabsdiffs, sa > sb ? sa - sb : sb - sa)
WS_EMU_SIMD(__vabsdiffu, ua > ub ? ua - ub : ub - ua)
WS_EMU_SIMD(__vavgu, (ua + ub + 1) >> 1)
WS_EMU_SIMD(__vhaddu, (ua + ub) >> 1)
WS_EMU_SIMD(__vmaxs, sa > sb ? sa : sb)
WS_EMU_SIMD(__vmaxu, ua > ub ? ua : ub)
WS_EMU_SIMD(__vmins, sa < sb ? sa : sb)
WS_EMU_SIMD(__vminu, ua < ub ? ua : ub)
// Comparisons: __vcmp* gives all ones in a lane where it holds, __vset* gives 1.
WS_EMU_SIMD(__vcmpeq, ua == ub ? ~0u : 0u)
WS_EMU_SIMD(__vcmpne, ua != ub ? ~0u : 0u)
WS_EMU_SIMD(__vcmpges, sa >= sb ? ~0u : 0u)
WS_EMU_SIMD(__vcmpgeu, ua >= ub ? ~0u : 0u)
WS_EMU_SIMD(__vcmpgts, sa > sb ? ~0u : 0u)
WS_EMU_SIMD(__vcmpgtu, ua > ub ? ~0u : 0u)
WS_EMU_SIMD(__vcmples, sa <= sb ? ~0u : 0u)
WS_EMU_SIMD(__vcmpleu, ua <= ub ? ~0u : 0u)
WS_EMU_SIMD(__vcmplts, sa < sb ? ~0u : 0u)
WS_EMU_SIMD(__vcmpltu, ua < ub ? ~0u : 0u)
WS_EMU_SIMD(__vseteq, ua == ub ? 1u : 0u)
WS_EMU_SIMD(__vsetne, ua != ub ? 1u : 0u)
WS_EMU_SIMD(__vsetges, sa >= sb ? 1u : 0u)
WS_EMU_SIMD(__vsetgeu, ua >= ub ? 1u : 0u)
WS_EMU_SIMD(__vsetgts, sa > sb ? 1u : 0u)
WS_EMU_SIMD(__vsetgtu, ua > ub ? 1u : 0u)
WS_EMU_SIMD(__vsetles, sa <= sb ? 1u : 0u)
WS_EMU_SIMD(__vsetleu, ua <= ub ? 1u : 0u)
WS_EMU_SIMD(__vsetlts, sa < sb ? 1u : 0u)
WS_EMU_SIMD(__vsetltu, ua < ub ? 1u : 0u)
WS_EMU_SIMD1(__vabs, sa < 0 ? -sa : sa)
WS_EMU_SIMD1(__vabsss, ws::intrinsics_detail::saturate_signed<W>(sa < 0 ? -sa : sa))
WS_EMU_SIMD1(__vneg, -sa)
WS_EMU_SIMD1(__vnegss, ws::intrinsics_detail::saturate_signed<W>(-sa))
#undef WS_EMU_SIMD
#undef WS_EMU_SIMD1
#undef WS_EMU_SIMD_LANES
// Sums of the lanes' absolute differences: one number, not a lane each.
inline unsigned __vsads2(unsigned a, unsigned b) { return ws::intrinsics_detail::sum_abs_diff<16>(a, b, true); }
inline unsigned __vsads4(unsigned a, unsigned b) { return ws::intrinsics_detail::sum_abs_diff<8>(a, b, true); }
inline unsigned __vsadu2(unsigned a, unsigned b) { return ws::intrinsics_detail::sum_abs_diff<16>(a, b, false); }
inline unsigned __vsadu4(unsigned a, unsigned b) { return ws::intrinsics_detail::sum_abs_diff<8>(a, b, false); }

// [SECTION] fast math (single precision)
inline float __fdividef(float x, float y) { return x / y; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x), *c = std::cos(x); }
inline void sincosf(float x, float* s, float* c) { *s = std::sin(x), *c = std::cos(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
// Clamped to [0, 1]; NaN becomes 0.
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fsub_rn(float x, float y) { return x - y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline float __fmaf_rn(float x, float y, float z) { return std::fma(x, y, z); }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __fma_rn(double x, double y, double z) { return std::fma(x, y, z); }

// [SECTION] conversions: _rn to nearest even, _rz toward zero, _ru up, _rd down. Out-of-range
// values saturate as the GPU's cvt does (NaN becomes 0).
namespace ws::intrinsics_detail {
template <class I>
I saturating_convert(double v) {
  if (std::isnan(v)) return 0;
  if (v < double(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (v >= double(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return I(v);
}
}  // namespace ws::intrinsics_detail
#define WS_EMU_CONVERT(SUFFIX, ROUND)                                                                 \
  inline int __float2int##SUFFIX(float x) { return ws::intrinsics_detail::saturating_convert<int>(ROUND(double(x))); } \
  inline unsigned __float2uint##SUFFIX(float x) {                                                     \
    return ws::intrinsics_detail::saturating_convert<unsigned>(ROUND(double(x)));                                \
  }                                                                                                   \
  inline long long __float2ll##SUFFIX(float x) {                                                      \
    return ws::intrinsics_detail::saturating_convert<long long>(ROUND(double(x)));                               \
  }                                                                                                   \
  inline int __double2int##SUFFIX(double x) { return ws::intrinsics_detail::saturating_convert<int>(ROUND(x)); }
WS_EMU_CONVERT(_rn, std::nearbyint)  // (the default rounding mode is to nearest even)
WS_EMU_CONVERT(_rz, std::trunc)
WS_EMU_CONVERT(_ru, std::ceil)
WS_EMU_CONVERT(_rd, std::floor)
#undef WS_EMU_CONVERT
inline float __int2float_rn(int x) { return float(x); }
inline float __uint2float_rn(unsigned x) { return float(x); }
inline float __ll2float_rn(long long x) { return float(x); }
inline float __double2float_rn(double x) { return float(x); }

// [SECTION] bit casts
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }

// [SECTION] timing: the emulator has no clock; time does not pass inside a kernel.
inline void __nanosleep(unsigned) {}
