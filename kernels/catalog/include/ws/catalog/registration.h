// How generated code turns a catalog entry struct into a runner of the Catalog.
#pragma once

#include "ws/catalog/catalog.h"

namespace ws {

template <class Entry, class Backend>
void register_runner(Catalog& c) {
  const std::string name = Entry::spec().name;
  c.add_runner(name, Backend::kind, [name](const RunConfig& cfg) {
    RunResult out;
    Backend be(name, cfg, out);
    Entry::run(be, cfg, out);
    // gpu-fast: replay the run's GPU work between CUDA events (RunConfig::timing).
    if constexpr (requires { be.time_replays(); })
      if (cfg.timing.reps > 0 && out.errors.empty()) be.time_replays();
    out.completed = out.errors.empty();
    if (!out.completed) out.passed = false;
    return out;
  });
}

}  // namespace ws
