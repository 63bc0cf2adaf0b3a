// The emulator's CUDA intrinsics: per-thread ones against a plain reference written here bit by
// bit, and the warp- and block-wide ones (matches, warp reductions, counting barriers, __ldg)
// inside kernels, against what the CUDA Programming Guide defines, under every run-ahead mode.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "emu_test_util.h"
#include "intrinsic_cases.cuh"
#include "ws/kernel.cuh"

using namespace ws;

namespace {

// ---- per-thread intrinsics (the bit-by-bit references are intrinsic_cases.cuh's) ------------------
using intrinsic_cases::brev;
using intrinsic_cases::clz;
using intrinsic_cases::ffs;
using intrinsic_cases::popc;

const uint32_t kWords[] = {0u, 1u, 2u, 0x80000000u, 0xffffffffu, 0x12345678u, 0xdeadbeefu, 0x00f000f0u, 7u << 29};

TEST(EmuIntrinsics, BitCountsMatchABitByBitReference) {
  for (uint32_t x : kWords) {
    EXPECT_EQ(__popc(x), int(popc(x))) << std::hex << x;
    EXPECT_EQ(__clz(int(x)), int(clz(x))) << std::hex << x;
    EXPECT_EQ(__ffs(int(x)), int(ffs(x))) << std::hex << x;
    EXPECT_EQ(__brev(x), brev(x)) << std::hex << x;
    const uint32_t lo = x ^ 0x5a5a5a5au;
    const uint64_t wide = uint64_t(x) << 32 | lo;
    EXPECT_EQ(__popcll(wide), int(popc(x) + popc(lo)));
    EXPECT_EQ(__ffsll((long long)(uint64_t(x) << 32)), x ? int(ffs(x)) + 32 : 0);
    EXPECT_EQ(__brevll(wide), uint64_t(brev(lo)) << 32 | brev(x));
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
    std::vector<unsigned> want_any, want_odd;
    intrinsic_cases::expected_match(block, want_any, want_odd);
    EXPECT_EQ(mem.download(any), want_any) << test::to_string(mode);
    EXPECT_EQ(mem.download(odd), want_odd);
    EXPECT_EQ(mem.download(all), std::vector<unsigned>(block, 0xffffffffu)) << "every lane of a warp has the same warp index";
    EXPECT_EQ(mem.download(pred), std::vector<int>(block, 1));
  }
}

TEST(EmuIntrinsics, WarpReductionsCombineEveryNamedLane) {
  emu::Memory mem;
  auto out = mem.alloc<int>("out", 32 * 6);
  mem.fill(out, 0);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { warp_reduce_kernel(out); });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(mem.download(out), intrinsic_cases::expected_warp_reduce());
}

// Runs `kernel` (per_thread results per input word) over 1000 words on the emulator and holds
// every result to `want` (computed from the definitions in intrinsic_cases.cuh).
template <class Kernel>
void expect_per_word(Kernel kernel, unsigned per_thread, std::vector<unsigned> (*want_of)(const std::vector<unsigned>&)) {
  const unsigned n = 1000;
  emu::Memory mem;
  const std::vector<unsigned> w = intrinsic_cases::words(n);
  auto in = mem.upload<unsigned>("words", w);
  auto out = mem.alloc<unsigned>("out", n * per_thread);
  auto r = emu::launch(mem, test::options((n + 127) / 128, 128), {}, [=] { kernel(in, out, n); });
  ASSERT_TRUE(r.ok());
  const std::vector<unsigned> got = mem.download(out), want = want_of(w);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(got[i], want[i]) << "word " << std::hex << w[i / per_thread] << std::dec << ", result " << i % per_thread;
}

TEST(EmuIntrinsics, PerThreadIntrinsicsInAKernelMatchTheGuide) {
  expect_per_word(intrinsics_per_thread, kPerThread, intrinsic_cases::expected_per_thread);
}

TEST(EmuIntrinsics, SimdWithinAWordAndFnsMatchTheirDefinitions) {
  expect_per_word(intrinsics_simd, kSimdPerThread, intrinsic_cases::expected_simd);
  // The PTX ISA's own examples of fns.
  EXPECT_EQ(__fns(0xaaaaaaaau, 3, 1), 3u);
  EXPECT_EQ(__fns(0xaaaaaaaau, 3, -1), 3u);
  EXPECT_EQ(__fns(0xaaaaaaaau, 2, 1), 3u);
  EXPECT_EQ(__fns(0xaaaaaaaau, 2, -1), 1u);
  EXPECT_EQ(__fns(0x1u, 1, 0), 0xffffffffu);
}

TEST(EmuIntrinsics, SyncthreadsCountIsABarrierThatCounts) {
  for (test::RunAhead mode : test::kRunAheadModes) {
    for (uint32_t block : {1u, 37u, 100u, 256u}) {
      emu::Memory mem;
      auto out = mem.alloc<int>("out", block * 6);
      auto r = emu::launch(mem, test::options(2, block, mode), {}, [=] { count_kernel(out); });
      ASSERT_TRUE(r.ok()) << block << ", " << test::to_string(mode);
      EXPECT_EQ(mem.download(out), intrinsic_cases::expected_count(block)) << block << ", " << test::to_string(mode);
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
