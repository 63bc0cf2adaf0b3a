// RunConfig's fields, and those of its option records, listed once. The run process's wire
// writes and reads a RunConfig through these lists (ws/trace/field_codec.h), and the round-trip
// test (tests/isolation/test_wire.cpp) changes each field a list names in turn: a field added
// here travels and is tested with no other edit.
//
//   visit_fields(cfg, [&](const char* name, const auto& field) { ... });
//
// Not listed: RunConfig::cancel, a live handle of this process, not part of the run asked for.
#pragma once

#include <type_traits>

#include "ws/run/config.h"

namespace ws {

constexpr BackendKind enum_last(BackendKind) { return BackendKind::GpuTrace; }

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, RecordOptions>
void visit_fields(R& o, Visit&& v) {
  v("blocks", o.blocks);
  v("count_every_block", o.count_every_block);
  v("max_events", o.max_events);
}

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, EmuOptions>
void visit_fields(R& o, Visit&& v) {
  v("workers", o.workers);
  v("step_budget", o.step_budget);
  v("defer_loads", o.defer_loads);
  v("eager_shuffles", o.eager_shuffles);
  v("converged_issue", o.converged_issue);
}

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, TimingOptions>
void visit_fields(R& o, Visit&& v) {
  v("warmup", o.warmup);
  v("reps", o.reps);
  v("flush_l2", o.flush_l2);
  v("max_ms", o.max_ms);
  v("keep", o.keep);
}

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, RunConfig>
void visit_fields(R& c, Visit&& v) {
  v("variant", c.variant);
  v("n", c.n);
  v("block", c.block);
  v("grid", c.grid);
  v("dtype", c.dtype);
  v("seed", c.seed);
  v("params", c.params);
  v("param_choices", c.param_choices);
  v("record", c.record);
  v("emu", c.emu);
  v("timing", c.timing);
  v("memory_limit", c.memory_limit);
}

}  // namespace ws
