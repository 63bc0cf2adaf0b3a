// The catalog: every kernel the viewer can run, by name, with its spec, its validation and one
// runner per backend it was built for.
//
// A catalog kernel is one header (e.g. kernels/reduction/reduce.cuh) that defines its __global__
// functions and one "entry" struct:
//
//   struct ReduceEntry {
//     static ws::KernelSpec spec();                        // name, variants, parameters
//     static std::string validate(const ws::RunConfig&);   // "" or why this launch is refused
//     template <class Backend>
//     static void run(Backend& be, const ws::RunConfig& cfg, ws::RunResult& out);
//   };
//
// The kernels' build compiles each header once per backend and registers each build here
// (register_runner, registration.h); Catalog::instance() is that process-wide catalog.
//
//   ws::RunConfig cfg;  cfg.variant = "3";
//   ws::RunResult r = ws::Catalog::instance().run("reduce", cfg, ws::BackendKind::Emu);
//   if (!r.refused.empty()) ... // why nothing ran
#pragma once

#include <deque>
#include <mutex>
#include <functional>
#include <map>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "ws/run/config.h"
#include "ws/run/result.h"
#include "ws/run/spec.h"

namespace ws {

struct CatalogEntry {
  KernelSpec spec;
  std::function<std::string(const RunConfig&)> validate;
  std::map<BackendKind, std::function<RunResult(const RunConfig&)>> runners;
};

// Bytes of one element of `dtype` ("float" 4, "double" 8, "float4" 16...).
uint64_t element_bytes(const std::string& dtype);
// A run's memory estimate: KernelSpec::arrays arrays of KernelSpec::elements elements (host and
// device together; a GPU holds about half of them).
uint64_t estimated_bytes(const KernelSpec& s, const RunConfig& resolved);

class Catalog {
 public:
  // The process's catalog: defined by the kernels library (ws_catalog), which registers every
  // built-in kernel on first use.
  static Catalog& instance();

  void add(KernelSpec spec, std::function<std::string(const RunConfig&)> validate);
  void add_runner(const std::string& kernel, BackendKind kind,
                  std::function<RunResult(const RunConfig&)> run);

  // Adds `e`, or replaces the entry of the same name (a user's kernel file built again). Entries
  // never move: pointers from find() and references into entries() stay valid. Call it on the
  // thread that reads entries() and find() (the UI thread); other threads go through run() and
  // copy(), which take the catalog's lock.
  void put(CatalogEntry e);

  // Built-in kernels first, then kernel files in the order they were first loaded.
  const std::deque<CatalogEntry>& entries() const { return entries_; }
  const CatalogEntry* find(const std::string& name) const;
  // A copy of the entry named `name`, taken under the lock (for threads other than put()'s).
  std::optional<CatalogEntry> copy(const std::string& name) const;

  // Fills defaults, checks the variant, parameters and launch limits, then runs. Never throws
  // for user errors: they come back in RunResult::refused.
  RunResult run(const std::string& kernel, RunConfig cfg, BackendKind backend) const;

  // Completes `cfg` with the kernel's defaults; returns "" or why the config is invalid.
  std::string resolve(const CatalogEntry& e, RunConfig& cfg) const;

  // Called by run() once a run is checked and about to start: a result means the hook ran it
  // (somewhere safer: ws/isolation), nullopt that run() runs it here. Null: no hook.
  using RunHook = std::function<std::optional<RunResult>(const CatalogEntry& e, const RunConfig& resolved,
                                                         BackendKind backend)>;
  void set_run_hook(RunHook hook);

 private:
  std::deque<CatalogEntry> entries_;
  RunHook hook_;
  mutable std::shared_mutex mutex_;  // put() against run() and copy() on other threads
};

}  // namespace ws
