// The host reference of every shuffle mode (tests/backends/emu/shuffle_cases.cuh), held against a GPU: what
// the emulator's test holds the emulator to is what the hardware does, offsets past the warp and
// butterflies across segments included.
#include <gtest/gtest.h>

#include "../emu/shuffle_cases.cuh"
#include "ws/gpu/gpu_backend.cuh"

TEST(GpuShuffle, EveryModeOffsetAndWidthMatchesTheReference) {
  if (!ws::gpu::device().present) GTEST_SKIP() << ws::gpu::device().why_not;
  // (Where a device refuses a new context after GpuFault's reset, the rest of the process has no GPU.)
  if (!ws::gpu::usable()) GTEST_SKIP() << ws::gpu::unusable_reason();
  const std::vector<int> cases = shuffle_cases::all_cases();
  const unsigned count = unsigned(cases.size() / 3), threads = 64;
  ws::RunConfig cfg;
  ws::RunResult result;
  std::vector<int> got;
  {
    ws::GpuBackend be("shuffle", cfg, result);
    auto c = be.upload("cases", cases);
    auto out = be.alloc<int>("out", uint64_t(count) * threads);
    ASSERT_TRUE(be.launch("shuffle_every_mode", {1, 1, 1}, {threads, 1, 1}, 0, shuffle_every_mode,
                          ws::global_array<const int>(c), out, count))
        << (result.errors.empty() ? "" : result.errors[0].message);
    got = be.download(out);
  }
  const std::vector<int> want = shuffle_cases::expected(cases, threads);
  ASSERT_EQ(got.size(), want.size());
  int wrong = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    const size_t k = i / threads;
    if (++wrong <= 10)
      ADD_FAILURE() << "mode " << cases[3 * k] << " operand " << cases[3 * k + 1] << " width " << cases[3 * k + 2]
                    << " thread " << i % threads << ": GPU " << got[i] << ", reference " << want[i];
  }
  EXPECT_EQ(wrong, 0);
  std::printf("shuffle cases on the GPU: %u cases x %u threads, %d differ from the reference\n", count, threads, wrong);
}
