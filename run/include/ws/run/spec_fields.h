// KernelSpec's data fields, and those of its parts, listed once. The run process's wire sends a
// kernel file's spec through these lists (ws/trace/field_codec.h); the round-trip test changes
// each field a list names in turn.
//
// Not listed: the spec's functions (KernelSpec::elements, emulator_limit; TimingSpec::flops,
// bytes), code of the process that built the kernel (isolation/wire.h says what stands for them).
#pragma once

#include <type_traits>

#include "ws/run/spec.h"

namespace ws {

constexpr TimingSpec::Ceiling enum_last(TimingSpec::Ceiling) { return TimingSpec::Ceiling::Fp32; }

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, ParamSpec>
void visit_fields(R& p, Visit&& v) {
  v("name", p.name);
  v("description", p.description);
  v("min", p.min);
  v("max", p.max);
  v("def", p.def);
  v("choices", p.choices);
  v("real", p.real);
}

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, VariantSpec>
void visit_fields(R& s, Visit&& v) {
  v("id", s.id);
  v("name", s.name);
  v("summary", s.summary);
  v("broken", s.broken);
  v("broken_note", s.broken_note);
  v("gpu_only", s.gpu_only);
  v("focus", s.focus);
  v("order_dependent", s.order_dependent);
  v("takes_grid", s.takes_grid);
  v("block_x", s.block_x);
  v("block_y", s.block_y);
  v("block_z", s.block_z);
}

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, TimingSpec>
void visit_fields(R& t, Visit&& v) {
  v("n", t.n);
  v("sizes", t.sizes);
  v("matrix", t.matrix);
  v("scales", t.scales);
  v("params", t.params);
  v("why", t.why);
  v("ceiling", t.ceiling);
  v("reference", t.reference);
}

template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, KernelSpec>
void visit_fields(R& s, Visit&& v) {
  v("name", s.name);
  v("title", s.title);
  v("description", s.description);
  v("source", s.source);
  v("file", s.file);
  v("lecture", s.lecture);
  v("variants", s.variants);
  v("params", s.params);
  v("default_n", s.default_n);
  v("default_block", s.default_block);
  v("default_block_y", s.default_block_y);
  v("block_2d", s.block_2d);
  v("dtypes", s.dtypes);
  v("arrays", s.arrays);
  v("timing", s.timing);
}

}  // namespace ws
