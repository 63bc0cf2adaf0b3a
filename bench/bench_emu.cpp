// Emulator throughput: lane accesses per second for the reduction kernels, at n = 2^16 and 2^22,
// with one and two worker threads, and the memory a fully recorded trace takes.
//
//   build/bench/bench_emu [--quick] [--variant V] [--log2n K] [--workers W] [--reps R]
//
// Prints one row per (variant, n, workers): medians over repeated runs of the whole run (what a
// toggle in the viewer costs) and of the emulator's launches alone (the time the throughput is
// over). Numbers are CPU timings of this machine; compare rows of one run, not across machines. The options pick one row (to
// profile it, e.g. under `valgrind --tool=callgrind`); --quick runs n = 2^16 once each.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ws/run/catalog.h"

namespace {

struct Sample {
  double seconds;           // the whole run: inputs, the emulator's launches, reference, check
  double emulate_seconds;   // the emulator's launches alone
  uint64_t lane_accesses;
  uint64_t instructions;
};

Sample run_once(const std::string& variant, uint64_t n, unsigned workers, bool record_all) {
  ws::RunConfig cfg;
  cfg.variant = variant;
  cfg.n = n;
  cfg.block = {256, 1, 1};
  cfg.emu.workers = workers;
  cfg.seed = 3;
  if (!record_all) cfg.record.blocks = {0};
  cfg.record.max_events = ~0ull;
  const auto t0 = std::chrono::steady_clock::now();
  ws::RunResult r = ws::Catalog::instance().run("reduce", cfg, ws::BackendKind::Emu);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.refused.empty() || !r.passed) {
    std::fprintf(stderr, "variant %s n %llu: %s %s\n", variant.c_str(), (unsigned long long)n, r.refused.c_str(),
                 r.result.c_str());
    std::exit(1);
  }
  Sample out{s, r.emulate_seconds, 0, 0};
  for (const ws::Trace& t : r.launches) {
    out.lane_accesses += t.lane_offsets.size() + t.unrecorded_lane_accesses;
    out.instructions += t.events.size() + t.unrecorded_events;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, picked = false;
  int reps = 5;
  std::vector<std::string> variants = {"1", "3", "5", "8"};
  std::vector<int> log2ns = {16, 22};
  std::vector<unsigned> worker_counts = {1, 2};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--quick") {
      quick = true, reps = 1, log2ns = {16};
    } else if (a == "--variant" && value) {
      variants = {value}, picked = true, ++i;
    } else if (a == "--log2n" && value && std::atoi(value) >= 10 && std::atoi(value) <= 26) {
      log2ns = {std::atoi(value)}, picked = true, ++i;
    } else if (a == "--workers" && value && std::atoi(value) >= 1) {
      worker_counts = {unsigned(std::atoi(value))}, picked = true, ++i;
    } else if (a == "--reps" && value && std::atoi(value) >= 1) {
      reps = std::atoi(value), ++i;
    } else {
      std::fprintf(stderr,
                   "usage: bench_emu [--quick] [--variant 1|3|5|8|...] [--log2n 10..26] [--workers W>=1] "
                   "[--reps R>=1]\n(got '%s')\n",
                   a.c_str());
      return 2;
    }
  }
  std::printf("emulator throughput, reduction kernels, block 256, record block 0 (the viewer's default)\n");
  // The target: 30 M lane accesses per second per core, so that n = 2^16 re-traces in
  // well under 50 ms when a lecturer toggles a variant. The rate is over the emulator's own
  // time (its launches); "run ms" is what a toggle costs, with the inputs, the CPU reference
  // and the check.
  constexpr double kTargetPerWorker = 30.0;
  std::printf("%-8s %-8s %-8s %10s %10s %12s %14s %12s  %s\n", "variant", "n", "workers", "run ms", "emu ms",
              "lane acc.", "M lane acc/s", "per worker", "target 30 M/worker");
  for (int log2n : log2ns) {
    const uint64_t n = uint64_t(1) << log2n;
    for (const std::string& v : variants) {
      for (unsigned workers : worker_counts) {
        std::vector<double> runs, emus;
        Sample s{};
        for (int i = 0; i < (log2n > 16 ? std::max(1, reps / 2) : reps); ++i) {
          s = run_once(v, n, workers, false);
          runs.push_back(s.seconds);
          emus.push_back(s.emulate_seconds);
        }
        std::sort(runs.begin(), runs.end());
        std::sort(emus.begin(), emus.end());
        const double run_med = runs[runs.size() / 2], emu_med = emus[emus.size() / 2];
        const double rate = double(s.lane_accesses) / emu_med / 1e6;
        std::printf("%-8s 2^%-6d %-8u %10.1f %10.1f %12llu %14.1f %12.1f  %s\n", v.c_str(), log2n, workers,
                    run_med * 1e3, emu_med * 1e3, (unsigned long long)s.lane_accesses, rate, rate / workers,
                    rate / workers >= kTargetPerWorker ? "met" : "below");
      }
    }
  }
  if (picked) return 0;
  // Memory of a fully recorded trace.
  ws::RunConfig cfg;
  cfg.variant = "3";
  cfg.n = quick ? (1u << 16) : (1u << 22);
  cfg.block = {256, 1, 1};
  cfg.record.max_events = ~0ull;
  ws::RunResult r = ws::Catalog::instance().run("reduce", cfg, ws::BackendKind::Emu);
  const ws::Trace& t = r.launches.front();
  std::printf("\nfully recorded trace of reduce 3, n = %llu: %llu lane accesses, %llu warp instructions, %.1f MiB "
              "(%.1f bytes per lane access)\n",
              (unsigned long long)cfg.n, (unsigned long long)t.lane_offsets.size(),
              (unsigned long long)t.events.size(), double(t.memory_bytes()) / (1 << 20),
              double(t.memory_bytes()) / double(std::max<size_t>(1, t.lane_offsets.size())));
  return 0;
}
