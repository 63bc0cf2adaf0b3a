// What the user asks for: one run of a catalog kernel (RunConfig), on one backend (BackendKind).
//
// The launch (variant, n, block, dtype, seed, the kernel's own parameters) is the same for every
// backend; what only one backend reads sits in that backend's option struct, so a reader sees at
// once which settings change the picture and which only change how it is computed:
//
//   ws::RunConfig cfg;
//   cfg.variant = "3";  cfg.n = 1 << 16;  cfg.block = {256, 1, 1};
//   cfg.record.blocks = {0};     // emulator and gpu-trace: record block 0 in full
//   cfg.emu.workers = 2;         // emulator only
//   cfg.timing.reps = 30;        // gpu-fast only: time 30 replays
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ws/trace/trace.h"

namespace ws {

enum class BackendKind { Emu, GpuFast, GpuTrace };
const char* to_string(BackendKind);

// What the recording backends (emulator, gpu-trace) keep.
struct RecordOptions {
  std::vector<uint32_t> blocks;  // linear block indices recorded in full; empty: every block
  // Per-site counters for every block (whole-grid wavefronts, sectors, lanes: Report::grid):
  // gpu-trace counts on the device, the emulator in its scheduler when `blocks` is not every
  // block. Off, only the blocks above are recorded: far cheaper on gpu-trace for a barrier-heavy
  // kernel, somewhat cheaper on the emulator; whole-grid numbers then come from those blocks.
  bool count_every_block = true;
  uint64_t max_events = 4'000'000;  // past this a launch's trace is marked truncated
};

// How the CPU emulator computes the run. None of these changes a result or a trace.
struct EmuOptions {
  unsigned workers = 0;             // worker threads; 0 = one per core
  uint64_t step_budget = 1u << 22;  // instructions one block may issue before it is stopped
  // `a[i] = b[j]` and `a[i] += b[j]` do not stop the thread at the load, nor does a shuffle whose
  // source lane has already been there, and a converged warp issues without per-lane
  // bookkeeping (emu::LaunchOptions has the details). Off only for tests and benchmarks that
  // hold the fast paths to the plain one.
  bool defer_loads = true;
  bool eager_shuffles = true;
  bool converged_issue = true;
};

// Timing on gpu-fast. After the run (which is checked as usual), the run's GPU work (every kernel
// launch and library call, in order) is replayed `warmup` times untimed, then `reps` times, each
// replay between two CUDA events; before each timed replay the L2 cache is flushed (a write over a
// buffer twice its size), so small inputs are timed from device memory, not from the cache.
struct TimingOptions {
  unsigned warmup = 0;
  unsigned reps = 0;  // 0: not timed
  bool flush_l2 = true;
  // Past this many milliseconds of timed replays no more are started (at least 3 are); warm-up
  // stops after a replay that took a tenth of it. 0: no cap. For kernels that run for seconds.
  double max_ms = 0;
  // Keep the run's GPU work on the device after it was timed (RunTiming::replay), to time it again
  // without making, uploading and checking its inputs: live timing's points after the first.
  bool keep = false;
};

struct RunConfig {
  // The launch: what the kernel computes and how it is shaped.
  std::string variant;
  uint64_t n = 0;                 // 0: the kernel's default
  Dim3 block{0, 1, 1};            // x == 0: the kernel's default
  Dim3 grid{0, 1, 1};             // x == 0: the kernel's launch rule decides
  std::string dtype;              // "" = the kernel's first
  uint64_t seed = 1;
  // The kernel's own parameters. Whole numbers, unless the parameter is a real one
  // (ParamSpec::real: `alpha = 2.5`); a double holds every whole number a parameter takes exactly.
  std::map<std::string, double> params;
  // Parameters given by the name of one of their choices (`input=sorted`): the catalog's check
  // turns each into its index in `params` (ParamSpec::choices), or refuses it with the list.
  std::map<std::string, std::string> param_choices;

  // Per backend.
  RecordOptions record;  // emulator, gpu-trace
  EmuOptions emu;        // emulator
  TimingOptions timing;  // gpu-fast

  // The most memory a run may take (its estimate: KernelSpec::arrays); 0: $WARPSCOPE_MEMORY_LIMIT
  // (bytes, or with a K, M or G suffix) if set, else half of this machine's memory.
  uint64_t memory_limit = 0;

  // Set it to true (from any thread) to stop a run early: the emulator stops within one
  // scheduling round and the run ends with a "cancelled" error. Null: not cancellable.
  std::shared_ptr<std::atomic<bool>> cancel;

  int64_t param(const std::string& name, int64_t fallback = 0) const {
    auto it = params.find(name);
    return it == params.end() ? fallback : int64_t(std::llround(it->second));
  }
  double real_param(const std::string& name, double fallback = 0) const {
    auto it = params.find(name);
    return it == params.end() ? fallback : it->second;
  }
};

// The memory limit a run with `memory_limit` = 0 gets, and where it comes from ("half of this
// machine's 24.0 GB" or "WARPSCOPE_MEMORY_LIMIT").
uint64_t default_memory_limit(std::string* source = nullptr);
// "1.5 GB"
std::string bytes_text(uint64_t bytes);
// A parameter's value as it is written: "32", "-1", "2.5", "1e-06" (the shortest that reads back).
std::string param_text(double value);

// What every backend writes into a trace's LaunchInfo for one launch of a run: the kernel,
// variant, entry point, n and all parameters (dtype, seed, the kernel's own) as text.
LaunchInfo launch_info(const std::string& kernel, const RunConfig& cfg, const std::string& entry);

}  // namespace ws
