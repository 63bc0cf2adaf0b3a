// Statistics of repeated kernel timings: what the Timing panel and `warpscope bench` print.
//
// GPU times of the same launch vary a little from run to run (clocks, other work on the machine)
// and now and then a lot (a context switch, a clock change). The median is the number to quote;
// the spread (10th to 90th percentile) says how much to trust it; samples far from the median
// (more than `kOutlierMads` scaled median absolute deviations) are counted as outliers and left out
// of the mean, never silently dropped from the count.
//
//   std::vector<double> ms = {0.251, 0.250, 0.252, 0.249, 0.900};
//   ws::analysis::TimingStats st = ws::analysis::summarize(ms);
//   // st.median == 0.251, st.outliers == 1 (0.900), st.mean == 0.2505 (the four others)
//   double gbs = ws::analysis::gigabytes_per_second(1ull << 30, st.median);  // 4277.8 GB/s
#pragma once

#include <type_traits>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ws::analysis {

// How far (in scaled MADs: 1.4826 x the median absolute deviation, the standard deviation of a
// normal sample) a sample must be from the median to count as an outlier.
inline constexpr double kOutlierMads = 5.0;

struct TimingStats {
  size_t count = 0;      // samples given
  double median = 0;     // ms
  double min = 0, max = 0;
  double p10 = 0, p90 = 0;  // the spread: 10th and 90th percentiles (linear interpolation)
  double mad = 0;        // median absolute deviation from the median (ms, unscaled)
  double mean = 0;       // mean of the samples that are not outliers
  size_t outliers = 0;   // samples more than kOutlierMads scaled MADs from the median
  // (p90 - p10) / median: 0.01 means the middle 80% of runs lie within 1% of each other.
  double relative_spread() const { return median > 0 ? (p90 - p10) / median : 0; }
};

// TimingStats' fields as a timing recording keeps them (assets/timing/*.json, written and read
// through this list: ws/trace/json_fields.h), in milliseconds. Not kept: `mad`, which only marks
// the outliers when the samples are summed.
template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, TimingStats>
void visit_fields(R& s, Visit&& v) {
  v("count", s.count);
  v("median_ms", s.median);
  v("p10_ms", s.p10);
  v("p90_ms", s.p90);
  v("min_ms", s.min);
  v("max_ms", s.max);
  v("mean_ms", s.mean);
  v("outliers", s.outliers);
}

// Percentile q in [0, 1] of sorted values, linearly interpolated (q = 0.5 of an even count is
// the mean of the two middle values). Empty input gives 0.
double percentile_sorted(std::span<const double> sorted, double q);

// All of the above for `ms` (any order). Empty input gives a zero TimingStats.
TimingStats summarize(std::span<const double> ms);

// 1e9 bytes per second (the unit of the lecture's tables and of Nsight Compute): bytes / ms / 1e6.
double gigabytes_per_second(uint64_t bytes, double ms);

// "0.251 ms", "12.4 us", "1.23 s": three significant digits in the unit that suits the value.
std::string format_duration_ms(double ms);

}  // namespace ws::analysis
