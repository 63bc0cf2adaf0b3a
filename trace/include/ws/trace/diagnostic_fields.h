// Diagnostic's fields, listed once: the trace file and the run process's wire write a diagnostic
// through this list (ws/trace/field_codec.h).
#pragma once

#include <type_traits>

#include "ws/trace/trace.h"

namespace ws {

constexpr Severity enum_last(Severity) { return Severity::Error; }

template <class D, class Visit>  // D: Diagnostic or const Diagnostic
  requires std::is_same_v<std::remove_const_t<D>, Diagnostic>
void visit_fields(D& d, Visit&& v) {
  v("severity", d.severity);
  v("code", d.code);
  v("message", d.message);
  v("site", d.site);
  v("block", d.block);
  v("thread", d.thread);
}

}  // namespace ws
