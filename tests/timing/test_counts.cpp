// Without a GPU the timing library counts on the emulator: the numbers that explain the
// lecture's steps. Expected values from the kernels' shapes, worked out here.
#include "ws/timing/timing.h"

#include <gtest/gtest.h>

// Reduce 2 at block 128 and n = 1024 (8 blocks): its `sdata[index] += sdata[index + s]` with
// index = 2*s*tid strides through the banks, 3 never does; variant 1 leaves lanes idle in every
// step (tid % (2*s)), so its SIMD efficiency is below variant 3's.
TEST(TimingCounts, TheLecturesStepsInCounts) {
  ws::RunConfig cfg;
  cfg.n = 1024;
  cfg.block = {128, 1, 1};
  const std::vector<ws::timing::VariantCounts> counts = ws::timing::count_variants(ws::Catalog::instance(), "reduce", cfg);
  const ws::timing::VariantCounts *v1 = nullptr, *v2 = nullptr, *v3 = nullptr;
  for (const auto& c : counts) {
    EXPECT_TRUE(c.ok) << c.variant << ": " << c.error;
    EXPECT_NE(c.variant, "cub");  // GPU only
    EXPECT_NE(c.variant, "5u");   // broken on purpose
    if (c.variant == "1") v1 = &c;
    if (c.variant == "2") v2 = &c;
    if (c.variant == "3") v3 = &c;
  }
  ASSERT_TRUE(v1 && v2 && v3);
  // Variant 3's loads of g_idata: one request of 4 sectors per warp (128 B), 4 warps x 8 blocks,
  // then the second pass over the 8 partial sums: one request of one sector.
  EXPECT_EQ(v3->shared_conflicts, 0u);
  EXPECT_GT(v2->shared_conflicts, 0u);
  EXPECT_LT(v1->simd_efficiency, v3->simd_efficiency);
  // Every variant reads the same 1024 ints once: at least 1024 * 4 / 32 = 128 sectors.
  for (const auto& c : counts) EXPECT_GE(c.global_sectors, 128u) << c.variant;
  // Barriers: variants 1-3 wait at log2(128) = 7 tree steps + 1 after the load in each of the 8
  // blocks, then the second pass over the 8 partial sums at block 128 (one block, 8 again):
  // 72. Variant 4 adds two elements while loading: 4 blocks, then one: 5 * 8 = 40.
  EXPECT_EQ(v1->barriers, 72u);
  EXPECT_EQ(v3->barriers, 72u);
  const ws::timing::VariantCounts* v4 = nullptr;
  for (const auto& c : counts) if (c.variant == "4") v4 = &c;
  ASSERT_NE(v4, nullptr);
  EXPECT_EQ(v4->barriers, 40u);
}
