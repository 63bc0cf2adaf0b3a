#include "ws/analysis/timing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ws::analysis {

double percentile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return 0;
  q = std::clamp(q, 0.0, 1.0);
  const double pos = q * double(sorted.size() - 1);
  const size_t lo = size_t(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - double(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

TimingStats summarize(std::span<const double> ms) {
  TimingStats st;
  st.count = ms.size();
  if (ms.empty()) return st;
  std::vector<double> v(ms.begin(), ms.end());
  std::sort(v.begin(), v.end());
  st.median = percentile_sorted(v, 0.5);
  st.min = v.front();
  st.max = v.back();
  st.p10 = percentile_sorted(v, 0.10);
  st.p90 = percentile_sorted(v, 0.90);
  std::vector<double> dev(v.size());
  for (size_t i = 0; i < v.size(); ++i) dev[i] = std::fabs(v[i] - st.median);
  std::sort(dev.begin(), dev.end());
  st.mad = percentile_sorted(dev, 0.5);
  // With MAD = 0 (more than half the samples identical, e.g. a clock with coarse ticks) every
  // other value would be an "outlier": then only values off by more than 1% of the median count.
  const double limit = st.mad > 0 ? kOutlierMads * 1.4826 * st.mad : 0.01 * st.median;
  double sum = 0;
  size_t kept = 0;
  for (double x : v) {
    if (std::fabs(x - st.median) > limit) {
      ++st.outliers;
    } else {
      sum += x;
      ++kept;
    }
  }
  st.mean = kept ? sum / double(kept) : st.median;
  return st;
}

double gigabytes_per_second(uint64_t bytes, double ms) {
  return ms > 0 ? double(bytes) / (ms * 1e6) : 0;
}

std::string format_duration_ms(double ms) {
  char buf[32];
  const double a = std::fabs(ms);
  if (a >= 1000) std::snprintf(buf, sizeof buf, "%.3g s", ms / 1000);
  else if (a >= 1 || a == 0) std::snprintf(buf, sizeof buf, "%.3g ms", ms);
  else if (a >= 1e-3) std::snprintf(buf, sizeof buf, "%.3g us", ms * 1e3);
  else std::snprintf(buf, sizeof buf, "%.3g ns", ms * 1e6);
  return buf;
}

}  // namespace ws::analysis
