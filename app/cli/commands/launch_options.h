// The options every kernel-running subcommand shares: which kernel, variant and launch.
//
//   warpscope run --kernel reduce --variant 3 --n 100000 --block 128 --param max_blocks=32
#pragma once

#include <string>
#include <vector>

#include "ws/run/catalog.h"
#include "ws/run/launch_text.h"

namespace CLI { class App; }

namespace ws::app {

struct LaunchOptions {
  std::string kernel, backend = "emu";
  std::string file;   // --file: a kernel file (.cu) to build and run instead of a catalog kernel
  LaunchText launch;  // as typed; ws::apply_launch_text checks it
  bool no_counters = false;  // gpu-trace: record the --blocks only, no per-site counters for the grid
  double timeout = 0;  // --timeout: run in warpscope's run process, stopped after this many seconds

  // Adds the options to `cmd`. With `kernel_required` false, --kernel may be left out (analyze
  // --trace FILE).
  void add_to(CLI::App& cmd, bool kernel_required);
  // Builds the catalog's RunConfig; returns "" or a message about the first bad value.
  std::string to_config(RunConfig& cfg, BackendKind& backend) const;
};

// With --file: builds the kernel file (for the GPU backends too when --backend names one) and
// sets `kernel` to its name. Returns "" or every compile error, one per line. `required`: say
// so when neither --kernel nor --file was given.
// `gpu`: build for the GPU backends whatever --backend says (crosscheck runs both).
std::string load_kernel_file(LaunchOptions& opt, bool required, bool gpu = false);

// Runs the kernel; prints refusals and faults to stderr. Returns the process exit code the
// subcommand should end with if it cannot go on (2: refused input, 1: fault), or 0.
int run_kernel(const LaunchOptions& opt, RunResult& result, bool quiet);

}  // namespace ws::app
