// RunConfig's fields, listed once. The run process's wire (isolation/wire.cpp) writes and reads a
// RunConfig through this list, and the round-trip test (tests/isolation/test_wire.cpp) changes
// each field it names in turn: a field added here travels and is tested with no other edit.
//
//   visit_run_config(cfg, [&](const char* name, auto& field) { out[name] = text(field); });
//
// `cancel` is not here: a live handle of this process, not part of the run asked for.
#pragma once

#include "ws/run/config.h"

namespace ws {

template <class Config, class Visit>  // Config: RunConfig or const RunConfig
void visit_run_config(Config& c, Visit&& v) {
  v("variant", c.variant);
  v("n", c.n);
  v("block", c.block);
  v("grid", c.grid);
  v("dtype", c.dtype);
  v("seed", c.seed);
  v("params", c.params);
  v("param_choices", c.param_choices);
  v("record.blocks", c.record.blocks);
  v("record.count_every_block", c.record.count_every_block);
  v("record.max_events", c.record.max_events);
  v("emu.workers", c.emu.workers);
  v("emu.step_budget", c.emu.step_budget);
  v("emu.defer_loads", c.emu.defer_loads);
  v("emu.eager_shuffles", c.emu.eager_shuffles);
  v("emu.converged_issue", c.emu.converged_issue);
  v("timing.warmup", c.timing.warmup);
  v("timing.reps", c.timing.reps);
  v("timing.flush_l2", c.timing.flush_l2);
  v("timing.max_ms", c.timing.max_ms);
  v("timing.keep", c.timing.keep);
  v("memory_limit", c.memory_limit);
}

}  // namespace ws
