// The kernel catalog: every kernel the viewer can run, with its variants, parameters, launch rule,
// CPU reference and correctness check.
//
// A catalog kernel is one header (e.g. kernels/reduction/reduce.cuh) that defines the __global__
// functions and one "entry" struct:
//
//   struct ReduceEntry {
//     static ws::KernelSpec spec();                        // name, variants, parameters
//     static std::string validate(const ws::RunConfig&);   // "" or why this launch is refused
//     template <class Backend>
//     static void run(Backend& be, const ws::RunConfig& cfg, ws::RunResult& out);
//   };
//
// plus one registration line in kernels/CMakeLists.txt:
//
//   ws_register_kernel(reduction/reduce.cuh ReduceEntry)
//
// The build compiles the header once per backend (the CPU emulator; gpu-fast and gpu-trace when
// CUDA is there) and registers each. `run` is written once against the Backend interface
// (alloc/upload/download/launch), so the same driver code runs the kernel everywhere.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ws/trace/trace.h"

namespace ws {

struct ParamSpec {
  std::string name;         // "stride"
  std::string description;  // one line
  int64_t min = 0, max = 0, def = 0;
  std::vector<std::string> choices;  // when not empty: the value is an index into these
};

struct VariantSpec {
  VariantSpec(std::string id_, std::string name_, std::string summary_, bool broken_ = false,
              std::string broken_note_ = {}, bool gpu_only_ = false)
      : id(std::move(id_)), name(std::move(name_)), summary(std::move(summary_)), broken(broken_),
        broken_note(std::move(broken_note_)), gpu_only(gpu_only_) {}
  std::string id;        // "3"
  std::string name;      // "sequential addressing"
  std::string summary;   // one line: what this step changes, as the lecture says it
  bool broken = false;   // kept on purpose to show a bug; `broken_note` says which
  std::string broken_note;
  bool gpu_only = false; // e.g. CUB's DeviceReduce::Sum
  // Which accesses happen depends on the order threads run (e.g. "am I the last block?", or an
  // atomicMax whose old value decides a second atomic): the backend cross-check reports these
  // but cannot expect identical accesses.
  bool order_dependent = false;
};

struct KernelSpec {
  std::string name;         // "reduce"
  std::string title;        // "Sum reduction (Harris's seven steps and beyond)"
  std::string description;  // a short paragraph
  std::string source;       // path relative to kernels/, e.g. "reduction/reduce.cuh"
  std::string lecture;      // which seed / lecture it comes from
  std::vector<VariantSpec> variants;
  std::vector<ParamSpec> params;  // kernel-specific (n, block, dtype, seed are common)
  uint64_t default_n = 1 << 16;
  uint32_t default_block = 256;
  // The kernel takes 2D blocks (x, y): the labs show two fields for the block shape.
  bool block_2d = false;
  std::vector<std::string> dtypes = {"int"};  // element types the kernel accepts
};

// Timing on gpu-fast. After the run (which is checked as usual), the run's GPU work (every kernel
// launch and library call, in order) is replayed `warmup` times untimed, then `reps` times, each
// replay between two CUDA events; before each timed replay the L2 cache is flushed (a write over a
// buffer twice its size), so small inputs are timed from device memory, not from the cache.
struct TimingOptions {
  unsigned warmup = 0;
  unsigned reps = 0;  // 0: not timed
  bool flush_l2 = true;
};

// What timing measured: one sample per replay of the whole run's GPU work.
struct RunTiming {
  std::vector<double> ms;  // one per timed replay
  unsigned launches = 0;   // kernel launches + library calls per replay
  // Bytes the run must move at least: every global allocation once (inputs read, outputs
  // written), scratch space excluded. The lecture's GB/s for a reduction is n * sizeof(T) / time.
  uint64_t bytes = 0;
};

// What the user asked for.
struct RunConfig {
  std::string variant;
  uint64_t n = 0;                 // 0: the kernel's default
  Dim3 block{0, 1, 1};            // x == 0: the kernel's default
  Dim3 grid{0, 1, 1};             // x == 0: the kernel's launch rule decides
  std::string dtype;              // "" = the kernel's first
  uint64_t seed = 1;
  std::map<std::string, int64_t> params;

  // Recording (emulator and gpu-trace).
  std::vector<uint32_t> record_blocks;  // empty: every block
  // Per-site counters for every block (whole-grid wavefronts, sectors, lanes: Report::grid):
  // gpu-trace counts on the device, the emulator in its scheduler when record_blocks is not
  // every block. Off, only the blocks above are recorded: far cheaper on gpu-trace for a
  // barrier-heavy kernel (reduce 3 at n = 2^24 on an H100: about 3x gpu-fast's time instead of
  // 13x), about 15% cheaper on the emulator; whole-grid numbers then come from those blocks.
  bool count_every_block = true;
  uint64_t max_events = 4'000'000;
  unsigned workers = 0;                 // emulator worker threads; 0 = one per core
  uint64_t step_budget = 1u << 22;
  // Emulator: `a[i] = b[j]` and `a[i] += b[j]` do not stop the thread at the load, nor does a
  // shuffle whose source lane has already been there, and a converged warp issues without
  // per-lane bookkeeping (emu::LaunchOptions::defer_loads, eager_shuffles, converged_issue). The
  // same trace and results either way: off only for tests and benchmarks.
  bool defer_loads = true;
  bool eager_shuffles = true;
  bool converged_issue = true;
  // Set it to true (from any thread) to stop a run early: the emulator stops within one
  // scheduling round and the run ends with a "cancelled" error. Null: not cancellable.
  std::shared_ptr<std::atomic<bool>> cancel;
  TimingOptions timing;  // gpu-fast only

  int64_t param(const std::string& name, int64_t fallback = 0) const {
    auto it = params.find(name);
    return it == params.end() ? fallback : it->second;
  }
};

// What came back.
struct RunResult {
  std::string refused;           // non-empty: nothing ran; says why (a limit, a constraint)
  bool completed = false;        // every launch ran to its end without a fault
  bool passed = false;           // the result matched the CPU reference
  std::string result;            // "sum = 2097152"
  std::string expected;          // "sum = 2097152"
  std::string check;             // how it was checked: "exact (int)", "|err| <= 3.1e-3 ..."
  std::vector<Trace> launches;   // one per kernel launch, in order (recording backends)
  std::vector<Diagnostic> errors;  // faults that stopped a launch, and backend errors
  std::vector<std::string> notes;  // e.g. "the grid was capped at 1024 blocks"
  RunTiming timing;                // gpu-fast with RunConfig::timing.reps > 0
  // emu: wall time of the emulator's launches themselves (the blocks, the merge of their
  // records), without making the inputs, the CPU reference and the check.
  double emulate_seconds = 0;
};

enum class BackendKind { Emu, GpuFast, GpuTrace };
const char* to_string(BackendKind);

// What every backend writes into a trace's LaunchInfo for one launch of a run: the kernel,
// variant, entry point, n and all parameters (dtype, seed, the kernel's own) as text.
LaunchInfo launch_info(const std::string& kernel, const RunConfig& cfg, const std::string& entry);

struct CatalogEntry {
  KernelSpec spec;
  std::function<std::string(const RunConfig&)> validate;
  std::map<BackendKind, std::function<RunResult(const RunConfig&)>> runners;
};

class Catalog {
 public:
  static Catalog& instance();  // filled by the generated registration code on first use

  void add(KernelSpec spec, std::function<std::string(const RunConfig&)> validate);
  void add_runner(const std::string& kernel, BackendKind kind,
                  std::function<RunResult(const RunConfig&)> run);

  const std::vector<CatalogEntry>& entries() const { return entries_; }
  const CatalogEntry* find(const std::string& name) const;

  // Fills defaults, checks the variant, parameters and launch limits, then runs. Never throws
  // for user errors: they come back in RunResult::refused.
  RunResult run(const std::string& kernel, RunConfig cfg, BackendKind backend) const;

  // Completes `cfg` with the kernel's defaults; returns "" or why the config is invalid.
  std::string resolve(const CatalogEntry& e, RunConfig& cfg) const;

 private:
  std::vector<CatalogEntry> entries_;
};

// Called once by the generated code (kernels/CMakeLists.txt): registers every kernel.
void register_all_kernels(Catalog& c);

}  // namespace ws
