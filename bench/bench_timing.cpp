// Live timing against `warpscope bench`, for every catalog kernel at its timing launch: the Live
// tab's measurement (a first point that runs, checks and keeps the run, then points of 1 warm-up
// and 10 replays of the kept run; the median of 5 such points) and bench's (3 warm-ups, 30
// replays) of the same launch, side by side, their ratio, and what a live point costs. Both
// call ws::timing::measure on the launch ws::timing::timing_launch gives; the ratio says how far
// a lecturer's live number is from the table's. Needs a CUDA GPU.
//
//   bench_timing            # every kernel's first variant
//   bench_timing matmul     # one kernel
//   bench_timing --run-process build/app/warpscope [KERNEL]   # both measured in warpscope's run
//                           # process, as the viewer measures (ws/isolation)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "ws/isolation/isolated_runs.h"
#include "ws/timing/timing.h"

int main(int argc, char** argv) {
  namespace timing = ws::timing;
  if (argc > 2 && std::string(argv[1]) == "--run-process") {
    ws::isolation::IsolationOptions o;
    o.exe = argv[2];
    ws::isolation::enable(ws::Catalog::instance(), o);
    std::printf("measured in the run process (%s)\n", argv[2]);
    argc -= 2;
    argv += 2;
  }
  const timing::Device& d = timing::device();
  if (!d.present) {
    std::fprintf(stderr, "bench_timing: no GPU: %s\n", d.why_not.c_str());
    return 1;
  }
  std::printf("device: %s, %d SMs, FP32 peak (datasheet) %.0f GFLOP/s\n", d.name.c_str(), d.sm_count, d.fp32_peak_gflops());
  // first (s): the wall time of a series' first point (the run made, checked, kept and timed);
  // next (s): of each point after it (replays only).
  std::printf("%-12s %-44s %12s %12s %8s %9s %9s\n", "kernel", "timing launch", "live (ms)", "bench (ms)", "live/bench",
              "first (s)", "next (s)");
  for (const ws::CatalogEntry& e : ws::Catalog::instance().entries()) {
    if (argc > 1 && e.spec.name != argv[1]) continue;
    const timing::TimingLaunch l = timing::timing_launch(ws::Catalog::instance(), e.spec.name, ws::RunConfig{});
    if (!l.error.empty()) {
      std::printf("%-12s %s\n", e.spec.name.c_str(), l.error.c_str());
      continue;
    }
    // As the Live tab does: the first point runs, checks and keeps the run; the next ones replay it.
    std::vector<double> live, wall;
    std::string err;
    timing::Repeats first{1, 10, true};
    first.keep = true;
    auto t0 = std::chrono::steady_clock::now();
    const timing::Measurement kept = timing::measure(ws::Catalog::instance(), e.spec.name, l.config, first);
    const double first_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!kept.ok) err = kept.error;
    for (int i = 0; kept.ok && i < 5; ++i) {
      t0 = std::chrono::steady_clock::now();
      const timing::Measurement m = timing::measure_again(kept, {1, 10, true});
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      if (m.ok) live.push_back(m.stats.median);
      else err = m.error;
    }
    std::sort(wall.begin(), wall.end());
    const timing::Measurement b = timing::measure(ws::Catalog::instance(), e.spec.name, l.config, {3, 30, true});
    if (live.empty() || !b.ok) {
      std::printf("%-12s %-44s %s\n", e.spec.name.c_str(), l.name.c_str(), (b.ok ? err : b.error).c_str());
      continue;
    }
    std::sort(live.begin(), live.end());
    const double lm = live[live.size() / 2];
    std::printf("%-12s %-44s %12.4f %12.4f %8.3f %9.2f %9.3f%s\n", e.spec.name.c_str(), l.name.c_str(), lm, b.stats.median,
                lm / b.stats.median, first_s, wall[wall.size() / 2], b.passed ? "" : "  (check FAILED)");
  }
  return 0;
}
