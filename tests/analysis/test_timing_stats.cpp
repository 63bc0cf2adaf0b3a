// The statistics of the Timing panel and `warpscope bench`: median, spread, outliers, GB/s.
// Every expected value is worked out by hand beside the assertion.
#include <gtest/gtest.h>

#include <vector>

#include "ws/analysis/timing.h"

namespace ws::analysis {
namespace {

TEST(Timing, MedianOfOddAndEvenCounts) {
  std::vector<double> odd = {3, 1, 2};  // sorted 1 2 3
  EXPECT_DOUBLE_EQ(summarize(odd).median, 2);
  std::vector<double> even = {4, 1, 3, 2};  // sorted 1 2 3 4: mean of the middle two
  EXPECT_DOUBLE_EQ(summarize(even).median, 2.5);
}

TEST(Timing, PercentilesInterpolate) {
  // 11 values 0..10: the q-th percentile of sorted values sits at position q * 10.
  std::vector<double> v;
  for (int i = 10; i >= 0; --i) v.push_back(i);
  const TimingStats st = summarize(v);
  EXPECT_DOUBLE_EQ(st.p10, 1.0);
  EXPECT_DOUBLE_EQ(st.p90, 9.0);
  EXPECT_DOUBLE_EQ(st.min, 0.0);
  EXPECT_DOUBLE_EQ(st.max, 10.0);
  // 4 values 0, 10, 20, 30: q = 0.1 is at position 0.3 -> 3.
  std::vector<double> four = {0, 10, 20, 30};
  EXPECT_DOUBLE_EQ(percentile_sorted(four, 0.1), 3.0);
}

TEST(Timing, OneSlowRunIsAnOutlierNotTheMedian) {
  // The header's example: MAD = 0.001, limit 5 * 1.4826 * 0.001 = 0.0074 ms around 0.251.
  std::vector<double> ms = {0.251, 0.250, 0.252, 0.249, 0.900};
  const TimingStats st = summarize(ms);
  EXPECT_EQ(st.count, 5u);
  EXPECT_DOUBLE_EQ(st.median, 0.251);
  EXPECT_NEAR(st.mad, 0.001, 1e-12);
  EXPECT_EQ(st.outliers, 1u);
  EXPECT_NEAR(st.mean, 0.2505, 1e-12);  // (0.249 + 0.250 + 0.251 + 0.252) / 4
  EXPECT_DOUBLE_EQ(st.max, 0.900);      // still visible as the maximum
}

TEST(Timing, IdenticalSamplesHaveNoOutliers) {
  // MAD = 0: only values more than 1% off the median would count.
  std::vector<double> ms = {1.0, 1.0, 1.0, 1.0, 1.005};
  const TimingStats st = summarize(ms);
  EXPECT_EQ(st.outliers, 0u);
  std::vector<double> with_slow = {1.0, 1.0, 1.0, 1.0, 1.5};
  EXPECT_EQ(summarize(with_slow).outliers, 1u);
  EXPECT_DOUBLE_EQ(summarize(with_slow).mean, 1.0);
}

TEST(Timing, RelativeSpread) {
  std::vector<double> v;
  for (int i = 0; i <= 10; ++i) v.push_back(100 + i);  // p10 101, p90 109, median 105
  EXPECT_NEAR(summarize(v).relative_spread(), 8.0 / 105.0, 1e-12);
}

TEST(Timing, EmptyInputIsZero) {
  const TimingStats st = summarize(std::span<const double>{});
  EXPECT_EQ(st.count, 0u);
  EXPECT_EQ(st.median, 0.0);
  EXPECT_EQ(st.relative_spread(), 0.0);
}

TEST(Timing, GigabytesPerSecond) {
  // Harris's kernel 1 (seed 003): 2^22 ints in 8.054 ms -> 2.083 GB/s.
  EXPECT_NEAR(gigabytes_per_second(uint64_t(4) << 22, 8.054), 2.083, 0.0005);
  EXPECT_NEAR(gigabytes_per_second(1ull << 30, 0.251), 4277.86, 0.01);
  EXPECT_EQ(gigabytes_per_second(100, 0), 0.0);
}

TEST(Timing, DurationText) {
  EXPECT_EQ(format_duration_ms(0.251), "251 us");
  EXPECT_EQ(format_duration_ms(8.054), "8.05 ms");
  EXPECT_EQ(format_duration_ms(1234.0), "1.23 s");
  EXPECT_EQ(format_duration_ms(0.0000123), "12.3 ns");
}

}  // namespace
}  // namespace ws::analysis
