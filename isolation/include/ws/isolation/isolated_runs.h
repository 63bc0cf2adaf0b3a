// Runs that could take warpscope down, done in its run process (child_process.h) instead: every
// GPU run (a sticky fault, a kernel that never ends, a driver reset cost that process, not the
// viewer and its open lesson) and every run of a user's kernel file (its host code runs there).
// The viewer turns it on at start; the command line with --timeout; tests with `everything`.
//
// It works below everything that runs kernels: enable() gives the Catalog a run hook, so
// Catalog::run() of such a run sends it to the run process and returns what came back: the same
// RunResult, its traces included; a kept replay (live timing) stays in that process and is timed
// there. When the process ends during a run, the run ends with an error that says how, and the
// next run starts a new process.
//
//   ws::isolation::enable(catalog, {});              // the viewer, at start
//   ws::RunResult r = catalog.run("saxpy", cfg, ws::BackendKind::GpuFast);   // runs in the child
//   if (!r.completed) puts(r.errors[0].message.c_str());  // "the run of saxpy ... did not finish in 60 s ..."
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ws/isolation/child_process.h"
#include "ws/isolation/server.h"
#include "ws/run/catalog.h"

namespace ws::isolation {

struct IsolationOptions {
  std::string exe;             // warpscope's executable; "": this program (/proc/self/exe)
  double timeout_seconds = 0;  // a request's limit; 0: $WARPSCOPE_RUN_TIMEOUT (seconds), else 60
  bool gpu = true;             // gpu-fast and gpu-trace runs
  bool kernel_files = true;    // a kernel file's runs, on every backend
  bool everything = false;     // every run (tests)
  // Arguments added to the run process's command line (`warpscope serve-runs --confine MIB`: a
  // grader's run process, under resource limits and without network).
  std::vector<std::string> run_process_args;
};

// Process-wide: the runs of `catalog` go to the run process (which has its own copy of it).
// enable() again replaces the options (and stops a process started with others).
void enable(Catalog& catalog, const IsolationOptions& o);
void disable();
bool enabled();
// A kernel file's code (its build's static initialisers, spec, host code and runs) goes there.
bool runs_kernel_files();
// GPU work (runs, the device's properties and ceilings, the streams recording) goes there.
bool runs_gpu();
double timeout_seconds();  // the limit in force
// Requests of other libraries (the GPU's properties, its ceilings, a streams recording); an
// Answer with an error when not enabled.
Answer call(Kind kind, const std::string& payload, const CallLimits& limits);
// The run process's id (0: none running; tests end it from outside).
int process_id();

// True for the errors a run gets when the run process could not finish it: its code says how
// ("time-limit", "run-process-ended", "out-of-memory", "run-process": it could not answer). The
// message is the whole story, nothing the kernel's counts did.
bool is_run_process_failure(const Diagnostic& d);

// The run process's side: answers Run, ReplayTime and ReplayDrop from `catalog`.
// `prepare_file(path, text, backend)` makes the catalog run exactly `text` of the kernel file at
// `path` (built again, mostly from the build cache) and returns the kernel's name; it throws
// std::runtime_error with the build's errors when it cannot.
using PrepareFile = std::function<std::string(const std::string& path, const std::string& text, BackendKind backend)>;
void serve_runs(Server& s, Catalog& catalog, PrepareFile prepare_file);

}  // namespace ws::isolation
