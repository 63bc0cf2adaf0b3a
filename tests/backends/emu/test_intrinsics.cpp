// The emulator's CUDA intrinsics: per-thread ones against a plain reference written here bit by
// bit, and the warp- and block-wide ones (matches, warp reductions, counting barriers, __ldg)
// inside kernels, against what the CUDA Programming Guide defines, under every run-ahead mode.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "emu_test_util.h"
#include "ws/kernel.cuh"

using namespace ws;

namespace {

// ---- per-thread intrinsics ----------------------------------------------------------------------
int bits_set(uint64_t x) {
  int n = 0;
  for (int i = 0; i < 64; ++i) n += (x >> i) & 1;
  return n;
}
int leading_zeros32(uint32_t x) {
  int n = 0;
  for (int i = 31; i >= 0 && !((x >> i) & 1); --i) ++n;
  return n;
}
int first_set(uint64_t x) {
  for (int i = 0; i < 64; ++i)
    if ((x >> i) & 1) return i + 1;
  return 0;
}
uint32_t reversed(uint32_t x) {
  std::string s;
  for (int i = 31; i >= 0; --i) s += char('0' + ((x >> i) & 1));  // most significant first
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= uint32_t(s[i] - '0') << i;  // ... read least significant first
  return r;
}

const uint32_t kWords[] = {0u, 1u, 2u, 0x80000000u, 0xffffffffu, 0x12345678u, 0xdeadbeefu, 0x00f000f0u, 7u << 29};

TEST(EmuIntrinsics, BitCountsMatchABitByBitReference) {
  for (uint32_t x : kWords) {
    EXPECT_EQ(__popc(x), bits_set(x)) << std::hex << x;
    EXPECT_EQ(__clz(int(x)), leading_zeros32(x)) << std::hex << x;
    EXPECT_EQ(__ffs(int(x)), first_set(x)) << std::hex << x;
    EXPECT_EQ(__brev(x), reversed(x)) << std::hex << x;
    const uint64_t wide = uint64_t(x) << 32 | (x ^ 0x5a5a5a5au);
    EXPECT_EQ(__popcll(wide), bits_set(wide));
    EXPECT_EQ(__ffsll((long long)(uint64_t(x) << 32)), x ? first_set(x) + 32 : 0);
    EXPECT_EQ(__brevll(wide), uint64_t(reversed(uint32_t(wide))) << 32 | reversed(uint32_t(wide >> 32)));
  }
  EXPECT_EQ(__clzll(1), 63);
  EXPECT_EQ(__clz(0), 32);
}

TEST(EmuIntrinsics, BytePermAndFunnelShiftsFollowTheGuide) {
  // Selector nibbles pick bytes of y:x (x = bytes 0..3, y = bytes 4..7).
  const unsigned x = 0x33221100u, y = 0x77665544u;
  EXPECT_EQ(__byte_perm(x, y, 0x3210), x);
  EXPECT_EQ(__byte_perm(x, y, 0x7654), y);
  EXPECT_EQ(__byte_perm(x, y, 0x0123), 0x00112233u);  // byte swap
  EXPECT_EQ(__byte_perm(x, y, 0x4073), 0x44007733u);
  EXPECT_EQ(__funnelshift_l(0x80000000u, 0x1u, 1), 0x3u);
  EXPECT_EQ(__funnelshift_l(0x80000000u, 0x1u, 33), 0x3u);  // shift wraps to 1
  EXPECT_EQ(__funnelshift_lc(0x80000000u, 0x1u, 40), 0x80000000u);  // clamped to 32: the low word
  EXPECT_EQ(__funnelshift_r(0x1u, 0x3u, 1), 0x80000000u);
  EXPECT_EQ(__funnelshift_rc(0x1u, 0x3u, 99), 0x3u);
}

TEST(EmuIntrinsics, MultipliesAveragesAndDifferences) {
  EXPECT_EQ(__umulhi(0xffffffffu, 0xffffffffu), 0xfffffffeu);
  EXPECT_EQ(__mulhi(-2, 0x40000000), -1);
  EXPECT_EQ(__umul64hi(~0ull, 2ull), 1ull);
  EXPECT_EQ(__mul24(0x01000003, 5), 15);     // bits above 24 ignored
  EXPECT_EQ(__mul24(0x00ffffff, 2), -2);     // 0xffffff is -1 in 24 bits
  EXPECT_EQ(__umul24(0x01000003u, 5u), 15u);
  EXPECT_EQ(__hadd(2147483647, 2147483647), 2147483647);  // no overflow in between
  EXPECT_EQ(__rhadd(2, 3), 3);
  EXPECT_EQ(__uhadd(0xffffffffu, 1u), 0x80000000u);
  EXPECT_EQ(__sad(-5, 7, 100u), 112u);
  EXPECT_EQ(__usad(3u, 10u, 1u), 8u);
}

TEST(EmuIntrinsics, ConversionsRoundAsNamedAndSaturate) {
  EXPECT_EQ(__float2int_rn(2.5f), 2);  // to nearest even
  EXPECT_EQ(__float2int_rn(3.5f), 4);
  EXPECT_EQ(__float2int_rn(-2.5f), -2);
  EXPECT_EQ(__float2int_rz(-2.7f), -2);
  EXPECT_EQ(__float2int_ru(2.1f), 3);
  EXPECT_EQ(__float2int_rd(-2.1f), -3);
  EXPECT_EQ(__float2int_rn(3e9f), 2147483647);
  EXPECT_EQ(__float2int_rn(-3e9f), -2147483647 - 1);
  EXPECT_EQ(__float2int_rn(NAN), 0);
  EXPECT_EQ(__float2uint_rn(-1.0f), 0u);
  EXPECT_EQ(__float_as_uint(1.0f), 0x3f800000u);
  EXPECT_EQ(__int_as_float(0x40490fdb), 3.14159274f);
  EXPECT_EQ(__double_as_longlong(1.0), 0x3ff0000000000000ll);
  EXPECT_EQ(__saturatef(-0.5f), 0.0f);
  EXPECT_EQ(__saturatef(1.5f), 1.0f);
  EXPECT_EQ(__saturatef(0.25f), 0.25f);
  EXPECT_EQ(__saturatef(NAN), 0.0f);
}

TEST(EmuIntrinsics, FastMathIsWithinTheGuidesBounds) {
  // The emulator computes them correctly rounded: within any bound the Guide's table gives.
  for (float x : {0.1f, 1.0f, 2.5f, 10.0f}) {
    EXPECT_NEAR(__expf(x), std::exp(double(x)), 1e-6 * std::exp(double(x)));
    EXPECT_NEAR(__logf(x), std::log(double(x)), 1e-6);
    EXPECT_NEAR(__sinf(x), std::sin(double(x)), 1e-6);
    EXPECT_NEAR(rsqrtf(x), 1 / std::sqrt(double(x)), 1e-6);
    EXPECT_NEAR(__fdividef(1.0f, x), 1 / double(x), 1e-6);
    EXPECT_NEAR(__powf(x, 1.5f), std::pow(double(x), 1.5), 1e-5 * std::pow(double(x), 1.5));
  }
}

}  // namespace

// ---- warp- and block-wide intrinsics, in kernels --------------------------------------------------
// Lanes whose key (lane % 5) is the same find each other; only the odd lanes take part in the
// second match.
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

__global__ void warp_reduce_kernel(ws::global_array<int> out) {
  int lane = int(threadIdx.x % 32);
  int v = lane * 3 - 40;  // -40 .. 53
  unsigned u = unsigned(v);
  out[threadIdx.x * 6 + 0] = __reduce_add_sync(0xffffffffu, v);
  out[threadIdx.x * 6 + 1] = __reduce_min_sync(0xffffffffu, v);          // signed
  out[threadIdx.x * 6 + 2] = int(__reduce_min_sync(0xffffffffu, u));     // unsigned
  out[threadIdx.x * 6 + 3] = int(__reduce_max_sync(0xffffffffu, u));
  out[threadIdx.x * 6 + 4] = int(__reduce_or_sync(0xffffffffu, 1u << lane));
  if (lane < 16) out[threadIdx.x * 6 + 5] = int(__reduce_xor_sync(0x0000ffffu, u));  // half the warp
}

// Three counting barriers at one site (a loop) and one of each form: every thread gets the
// block's answer, and the shared writes between them are ordered by them.
__global__ void count_kernel(ws::global_array<int> out) {
  __shared__ ws::shared_array<int, 1, "flag"> flag;
  unsigned t = threadIdx.x;
  for (unsigned k = 1; k <= 3; ++k) out[t * 6 + k - 1] = __syncthreads_count(t % (k + 1) == 0);
  out[t * 6 + 3] = __syncthreads_and(t < blockDim.x);
  out[t * 6 + 4] = __syncthreads_or(t == blockDim.x - 1);
  if (t == 0) flag[0] = 42;
  out[t * 6 + 5] = __syncthreads_count(0) + flag[0];  // the store before the barrier is seen
}

__global__ void ldg_kernel(ws::global_array<const float> in, ws::global_array<float> out) {
  unsigned i = threadIdx.x;
  out[i] = __ldg(&in[i]) * 2.0f;
}

namespace {

TEST(EmuIntrinsics, MatchAnyGroupsLanesWithTheSameValue) {
  for (test::RunAhead mode : test::kRunAheadModes) {
    emu::Memory mem;
    const uint32_t block = 64;
    auto any = mem.alloc<unsigned>("any", block), odd = mem.alloc<unsigned>("odd", block), all = mem.alloc<unsigned>("all", block);
    auto pred = mem.alloc<int>("pred", block);
    mem.fill(odd, 0u);
    auto r = emu::launch(mem, test::options(1, block, mode), {}, [=] { match_kernel(any, odd, all, pred); });
    ASSERT_TRUE(r.ok()) << test::to_string(mode);
    const auto got_any = mem.download(any), got_odd = mem.download(odd), got_all = mem.download(all);
    const auto got_pred = mem.download(pred);
    for (uint32_t t = 0; t < block; ++t) {
      const uint32_t lane = t % 32;
      uint32_t want = 0, want_odd = 0;
      for (uint32_t j = 0; j < 32; ++j) {
        if (j % 5 == lane % 5) want |= 1u << j;
        if (j % 5 == lane % 5 && j % 2 == 1) want_odd |= 1u << j;
      }
      EXPECT_EQ(got_any[t], want) << "thread " << t << ", " << test::to_string(mode);
      EXPECT_EQ(got_odd[t], lane % 2 ? want_odd : 0u) << "thread " << t;
      EXPECT_EQ(got_all[t], 0xffffffffu) << "every lane of a warp has the same warp index";
      EXPECT_EQ(got_pred[t], 1);
    }
  }
}

TEST(EmuIntrinsics, WarpReductionsCombineEveryNamedLane) {
  emu::Memory mem;
  auto out = mem.alloc<int>("out", 32 * 6);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { warp_reduce_kernel(out); });
  ASSERT_TRUE(r.ok());
  const auto got = mem.download(out);
  int sum = 0, smin = 1 << 30;
  unsigned umin = ~0u, umax = 0, x16 = 0;
  for (int l = 0; l < 32; ++l) {
    const int v = l * 3 - 40;
    sum += v, smin = std::min(smin, v), umin = std::min(umin, unsigned(v)), umax = std::max(umax, unsigned(v));
    if (l < 16) x16 ^= unsigned(v);
  }
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(got[l * 6 + 0], sum);
    EXPECT_EQ(got[l * 6 + 1], smin);
    EXPECT_EQ(unsigned(got[l * 6 + 2]), umin);  // the smallest non-negative value, 2
    EXPECT_EQ(unsigned(got[l * 6 + 3]), umax);  // the largest as unsigned: -1
    EXPECT_EQ(unsigned(got[l * 6 + 4]), 0xffffffffu);
    if (l < 16) {
      EXPECT_EQ(unsigned(got[l * 6 + 5]), x16);
    }
  }
  EXPECT_EQ(umin, 2u);
}

TEST(EmuIntrinsics, SyncthreadsCountIsABarrierThatCounts) {
  for (test::RunAhead mode : test::kRunAheadModes) {
    for (uint32_t block : {1u, 37u, 100u, 256u}) {
      emu::Memory mem;
      auto out = mem.alloc<int>("out", block * 6);
      auto r = emu::launch(mem, test::options(2, block, mode), {}, [=] { count_kernel(out); });
      ASSERT_TRUE(r.ok()) << block << ", " << test::to_string(mode);
      const auto got = mem.download(out);
      for (uint32_t t = 0; t < block; ++t) {
        for (uint32_t k = 1; k <= 3; ++k) {
          int want = 0;
          for (uint32_t u = 0; u < block; ++u) want += u % (k + 1) == 0;
          ASSERT_EQ(got[t * 6 + k - 1], want) << "k " << k << ", thread " << t << ", block " << block;
        }
        EXPECT_EQ(got[t * 6 + 3], 1);
        EXPECT_EQ(got[t * 6 + 4], 1);
        EXPECT_EQ(got[t * 6 + 5], 42) << "thread " << t << " of " << block;
      }
      // Recorded as barriers: one per warp per meeting, 6 meetings, 2 blocks.
      uint64_t barriers = 0;
      for (const Event& e : r.trace.events) barriers += e.type == EventType::Barrier;
      EXPECT_EQ(barriers, 2u * 6u * ((block + 31) / 32));
    }
  }
}

TEST(EmuIntrinsics, LdgIsARecordedLoad) {
  emu::Memory mem;
  std::vector<float> input(32);
  for (int i = 0; i < 32; ++i) input[i] = float(i) + 0.5f;
  auto in = mem.upload<float>("in", input);
  auto out = mem.alloc<float>("out", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { ldg_kernel(in, out); });
  ASSERT_TRUE(r.ok());
  const auto got = mem.download(out);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(got[i], 2 * input[i]);
  const auto loads = test::events_at(r.trace, "__ldg", EventType::Access, AccessKind::Load, 0, 0);
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(loads[0].mask, 0xffffffffu);
}

}  // namespace
