// Live timing against `warpscope bench`, for every catalog kernel at its timing launch: the Live
// tab's measurement (1 warm-up, 10 replays, a point every few hundred ms; the median of 5 points)
// and bench's (3 warm-ups, 30 replays) of the same launch, side by side, and their ratio. Both
// call ws::timing::measure on the launch ws::timing::timing_launch gives; the ratio says how far
// a lecturer's live number is from the table's. Needs a CUDA GPU.
//
//   bench_timing            # every kernel's first variant
//   bench_timing matmul     # one kernel
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ws/timing/timing.h"

int main(int argc, char** argv) {
  namespace timing = ws::timing;
  const timing::Device& d = timing::device();
  if (!d.present) {
    std::fprintf(stderr, "bench_timing: no GPU: %s\n", d.why_not.c_str());
    return 1;
  }
  std::printf("device: %s, %d SMs, FP32 peak (datasheet) %.0f GFLOP/s\n", d.name.c_str(), d.sm_count, d.fp32_peak_gflops());
  std::printf("%-12s %-44s %12s %12s %8s\n", "kernel", "timing launch", "live (ms)", "bench (ms)", "live/bench");
  for (const ws::CatalogEntry& e : ws::Catalog::instance().entries()) {
    if (argc > 1 && e.spec.name != argv[1]) continue;
    const timing::TimingLaunch l = timing::timing_launch(e.spec.name, ws::RunConfig{});
    if (!l.error.empty()) {
      std::printf("%-12s %s\n", e.spec.name.c_str(), l.error.c_str());
      continue;
    }
    std::vector<double> live;
    std::string err;
    for (int i = 0; i < 5; ++i) {
      const timing::Measurement m = timing::measure(e.spec.name, l.config, {1, 10, true});
      if (m.ok) live.push_back(m.stats.median);
      else err = m.error;
    }
    const timing::Measurement b = timing::measure(e.spec.name, l.config, {3, 30, true});
    if (live.empty() || !b.ok) {
      std::printf("%-12s %-44s %s\n", e.spec.name.c_str(), l.name.c_str(), (b.ok ? err : b.error).c_str());
      continue;
    }
    std::sort(live.begin(), live.end());
    const double lm = live[live.size() / 2];
    std::printf("%-12s %-44s %12.4f %12.4f %8.3f%s\n", e.spec.name.c_str(), l.name.c_str(), lm, b.stats.median,
                lm / b.stats.median, b.passed ? "" : "  (check FAILED)");
  }
  return 0;
}
