// How the kernels' generated code turns an entry struct and a backend into a runner of the
// Catalog: the backend is made for the run, the entry's driver runs on it, and (gpu-fast) the
// run's GPU work is replayed for timing once the result was checked.
#pragma once

#include "ws/run/catalog.h"

namespace ws {

template <class Entry, class Backend>
void register_runner(Catalog& c) {
  const std::string name = Entry::spec().name;
  c.add_runner(name, Backend::kind, [name](const RunConfig& cfg) {
    RunResult out;
    // A backend this machine cannot run (no GPU) refuses the run rather than faulting in it.
    if constexpr (requires { Backend::unavailable(); })
      if (std::string why = Backend::unavailable(); !why.empty()) {
        out.refused = std::move(why);
        return out;
      }
    Backend be(name, cfg, out);
    Entry::run(be, cfg, out);
    if constexpr (requires { be.time_replays(); })
      if (cfg.timing.reps > 0 && out.errors.empty()) be.time_replays();
    out.completed = out.errors.empty();
    if (!out.completed) out.passed = false;
    return out;
  });
}

}  // namespace ws
