// The intrinsics' cases (tests/backends/emu/intrinsic_cases.cuh) on the GPU: what the emulator's
// test holds the emulator to is what the hardware gives (gpu-fast: the native intrinsics).
#include <gtest/gtest.h>

#include "../emu/intrinsic_cases.cuh"
#include "ws/gpu/gpu_backend.cuh"

#define WS_NEED_GPU()                                                              \
  if (!ws::gpu::device().present) GTEST_SKIP() << ws::gpu::device().why_not;       \
  if (!ws::gpu::usable()) GTEST_SKIP() << ws::gpu::unusable_reason()

// Runs `kernel` (per_thread results per input word) over 1000 words on the GPU and holds every
// result to `want`, naming the first ten that differ.
template <class Kernel>
void expect_per_word(const char* name, Kernel kernel, unsigned per_thread,
                     std::vector<unsigned> (*want_of)(const std::vector<unsigned>&)) {
  const unsigned n = 1000;
  const std::vector<unsigned> w = intrinsic_cases::words(n);
  ws::RunConfig cfg;
  ws::RunResult result;
  std::vector<unsigned> got;
  {
    ws::GpuBackend be("intrinsics", cfg, result);
    auto in = be.upload("words", w);
    auto out = be.alloc<unsigned>("out", uint64_t(n) * per_thread);
    ASSERT_TRUE(be.launch(name, {(n + 127) / 128, 1, 1}, {128, 1, 1}, 0, kernel, ws::global_array<const unsigned>(in), out, n))
        << (result.errors.empty() ? "" : result.errors[0].message);
    got = be.download(out);
  }
  const std::vector<unsigned> want = want_of(w);
  ASSERT_EQ(got.size(), want.size());
  int wrong = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && ++wrong <= 10)
      ADD_FAILURE() << "word " << std::hex << w[i / per_thread] << std::dec << ", result " << i % per_thread << ": GPU "
                    << got[i] << ", reference " << want[i];
  EXPECT_EQ(wrong, 0);
}

TEST(GpuIntrinsics, PerThreadIntrinsicsMatchTheGuide) {
  WS_NEED_GPU();
  expect_per_word("intrinsics_per_thread", intrinsics_per_thread, kPerThread, intrinsic_cases::expected_per_thread);
}

TEST(GpuIntrinsics, SimdWithinAWordAndFnsMatchTheirDefinitions) {
  WS_NEED_GPU();
  expect_per_word("intrinsics_simd", intrinsics_simd, kSimdPerThread, intrinsic_cases::expected_simd);
}

TEST(GpuIntrinsics, MatchesWarpReductionsAndCountingBarriers) {
  WS_NEED_GPU();
  ws::RunConfig cfg;
  ws::RunResult result;
  const uint32_t block = 64, count_block = 100;
  std::vector<unsigned> any, odd, all;
  std::vector<int> pred, reduced, counted;
  {
    ws::GpuBackend be("intrinsics", cfg, result);
    auto d_any = be.alloc<unsigned>("any", block), d_odd = be.alloc<unsigned>("odd", block), d_all = be.alloc<unsigned>("all", block);
    auto d_pred = be.alloc<int>("pred", block);
    be.fill(d_odd, 0u);
    ASSERT_TRUE(be.launch("match_kernel", {1, 1, 1}, {block, 1, 1}, 0, match_kernel, d_any, d_odd, d_all, d_pred));
    auto d_red = be.alloc<int>("reduced", 32 * 6);
    be.fill(d_red, 0);
    ASSERT_TRUE(be.launch("warp_reduce_kernel", {1, 1, 1}, {32, 1, 1}, 0, warp_reduce_kernel, d_red));
    auto d_count = be.alloc<int>("counted", count_block * 6);
    ASSERT_TRUE(be.launch("count_kernel", {2, 1, 1}, {count_block, 1, 1}, 0, count_kernel, d_count));
    any = be.download(d_any), odd = be.download(d_odd), all = be.download(d_all), pred = be.download(d_pred);
    reduced = be.download(d_red), counted = be.download(d_count);
  }
  std::vector<unsigned> want_any, want_odd;
  intrinsic_cases::expected_match(block, want_any, want_odd);
  EXPECT_EQ(any, want_any);
  EXPECT_EQ(odd, want_odd);
  EXPECT_EQ(all, std::vector<unsigned>(block, 0xffffffffu));
  EXPECT_EQ(pred, std::vector<int>(block, 1));
  EXPECT_EQ(reduced, intrinsic_cases::expected_warp_reduce());
  EXPECT_EQ(counted, intrinsic_cases::expected_count(count_block));
}
