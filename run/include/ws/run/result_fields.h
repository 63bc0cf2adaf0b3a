// RunResult's fields, and those of the records inside it, listed once. The run process's wire
// writes and reads a RunResult through these lists (ws/trace/field_codec.h), and the round-trip
// test (tests/isolation/test_wire.cpp) changes each field a list names in turn: a field added
// here travels and is tested with no other edit.
//
//   visit_fields(result, [&](const char* name, const auto& field) { ... });
//
// Not listed: RunTiming::replay, a live handle of the process that ran (a kept replay stays there).
#pragma once

#include <type_traits>

#include "ws/run/result.h"
#include "ws/trace/diagnostic_fields.h"

namespace ws {

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, RunTiming>
void visit_fields(R& t, Visit&& v) {
  v("ms", t.ms);
  v("launches", t.launches);
  v("bytes", t.bytes);
  v("flops", t.flops);
}

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, CheckedValue>
void visit_fields(R& c, Visit&& v) {
  v("type", c.type);
  v("elem_size", c.elem_size);
  v("bytes", c.bytes);
}

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, RunResult>
void visit_fields(R& r, Visit&& v) {
  v("refused", r.refused);
  v("completed", r.completed);
  v("passed", r.passed);
  v("result", r.result);
  v("expected", r.expected);
  v("check", r.check);
  v("checked", r.checked);
  v("launches", r.launches);
  v("errors", r.errors);
  v("notes", r.notes);
  v("timing", r.timing);
  v("emulate_seconds", r.emulate_seconds);
}

}  // namespace ws
