// The catalog's shared result checks (kernels/common/checks.h): what a lecturer reads when a run fails.
#include <gtest/gtest.h>

#include "common/checks.h"

using namespace ws;

TEST(Checks, ExactElementsNameTheCountAndTheFirstWrongOne) {
  RunResult r;
  check_exact_elements(r, "y", std::vector<int>{1, 7, 3, 9}, std::vector<int>{1, 6, 3, 8}, "exact");
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.result, "2 of 4 wrong, first y[1] = 7");
  EXPECT_EQ(r.expected, "y[1] = 6");
  EXPECT_EQ(r.check, "exact");

  check_exact_elements(r, "y", std::vector<int>{1, 6}, std::vector<int>{1, 6}, "exact");
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.result, "y correct (2 elements)");

  check_exact_elements(r, "out", std::vector<float>{0.5f}, std::vector<float>{0.5f, 2.0f}, "exact");
  EXPECT_FALSE(r.passed);  // an output shorter than expected is wrong, not out of bounds
  EXPECT_EQ(r.result, "1 of 2 wrong, first out[1] = missing");
}
