// The lecture's reduction table from timed samples: speedups from medians, the best variant, the
// comparison with CUB and the G80's figures beside ours.
#include "synthetic_table.h"

#include <gtest/gtest.h>

using wstest::synthetic_table;

TEST(TimingTable, SpeedupsFromMedians) {
  const ws::timing::ReductionTable t = synthetic_table();
  // Times in the ratio 1 : 1/2 : 1/3 : 1/4: step speedups 2, 1.5, 1.333; cumulative 2, 3, 4.
  EXPECT_NEAR(t.rows[1].step_speedup, 2.0, 1e-12);
  EXPECT_NEAR(t.rows[2].step_speedup, 1.5, 1e-12);
  EXPECT_NEAR(t.rows[3].cumulative_speedup, 4.0, 1e-12);
  EXPECT_NEAR(t.rows[3].vs_cub, 2000.0 / 2500.0, 1e-12);  // CUB's time over variant 4's
  EXPECT_EQ(t.rows[4].step_speedup, 0.0);                 // CUB is not a lecture step
  EXPECT_NEAR(t.rows[3].pct_of_read, 50.0, 1e-9);         // 2000 of 4000 GB/s
  ASSERT_NE(t.best(), nullptr);
  EXPECT_EQ(t.best()->m.variant, "4");  // the fastest that is not CUB
  EXPECT_EQ(t.cub()->m.variant, "cub");
  // The text table names the lecture's G80 step speedups beside ours.
  const std::string text = ws::timing::format_table(t);
  EXPECT_NE(text.find("2.33x/2.33x"), std::string::npos) << text;
  EXPECT_NE(text.find("2.00x"), std::string::npos) << text;
}
