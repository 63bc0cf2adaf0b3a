// Emulator throughput: lane accesses per second for the reduction kernels, at n = 2^16 and 2^22,
// with one and two worker threads, and the memory a fully recorded trace takes.
//
//   build/bench/bench_emu [--quick]
//
// Prints one row per (variant, n, workers): median over repeated runs. Numbers are CPU timings
// of this machine; compare rows of one run, not across machines.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ws/catalog/catalog.h"

namespace {

struct Sample {
  double seconds;
  uint64_t lane_accesses;
  uint64_t instructions;
};

Sample run_once(const std::string& variant, uint64_t n, unsigned workers, bool record_all) {
  ws::RunConfig cfg;
  cfg.variant = variant;
  cfg.n = n;
  cfg.block = {256, 1, 1};
  cfg.workers = workers;
  cfg.seed = 3;
  if (!record_all) cfg.record_blocks = {0};
  cfg.max_events = ~0ull;
  const auto t0 = std::chrono::steady_clock::now();
  ws::RunResult r = ws::Catalog::instance().run("reduce", cfg, ws::BackendKind::Emu);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.refused.empty() || !r.passed) {
    std::fprintf(stderr, "variant %s n %llu: %s %s\n", variant.c_str(), (unsigned long long)n, r.refused.c_str(),
                 r.result.c_str());
    std::exit(1);
  }
  Sample out{s, 0, 0};
  for (const ws::Trace& t : r.launches) {
    out.lane_accesses += t.lane_offsets.size() + t.unrecorded_lane_accesses;
    out.instructions += t.events.size() + t.unrecorded_events;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const int reps = quick ? 1 : 5;
  std::printf("emulator throughput, reduction kernels, block 256, record block 0 (the viewer's default)\n");
  std::printf("%-8s %-8s %-8s %12s %14s %14s %12s\n", "variant", "n", "workers", "median ms", "lane acc.",
              "M lane acc/s", "per worker");
  for (uint64_t n : {uint64_t(1) << 16, uint64_t(1) << 22}) {
    for (std::string v : {"1", "3", "5", "8"}) {
      for (unsigned workers : {1u, 2u}) {
        if (quick && n > (1u << 16)) continue;
        std::vector<double> times;
        Sample s{};
        for (int i = 0; i < (n > (1u << 16) ? std::max(1, reps / 2) : reps); ++i) {
          s = run_once(v, n, workers, false);
          times.push_back(s.seconds);
        }
        std::sort(times.begin(), times.end());
        const double med = times[times.size() / 2];
        const double rate = double(s.lane_accesses) / med / 1e6;
        std::printf("%-8s 2^%-6d %-8u %12.1f %14llu %14.1f %12.1f\n", v.c_str(), n == (1u << 16) ? 16 : 22, workers,
                    med * 1e3, (unsigned long long)s.lane_accesses, rate, rate / workers);
      }
    }
  }
  // Memory of a fully recorded trace.
  ws::RunConfig cfg;
  cfg.variant = "3";
  cfg.n = quick ? (1u << 16) : (1u << 22);
  cfg.block = {256, 1, 1};
  cfg.max_events = ~0ull;
  ws::RunResult r = ws::Catalog::instance().run("reduce", cfg, ws::BackendKind::Emu);
  const ws::Trace& t = r.launches.front();
  std::printf("\nfully recorded trace of reduce 3, n = %llu: %llu lane accesses, %llu warp instructions, %.1f MiB "
              "(%.1f bytes per lane access)\n",
              (unsigned long long)cfg.n, (unsigned long long)t.lane_offsets.size(),
              (unsigned long long)t.events.size(), double(t.memory_bytes()) / (1 << 20),
              double(t.memory_bytes()) / double(std::max<size_t>(1, t.lane_offsets.size())));
  return 0;
}
