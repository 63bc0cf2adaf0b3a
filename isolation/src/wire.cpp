#include "ws/isolation/wire.h"

#include <cstring>

#include "ws/run/config_fields.h"
#include "ws/run/result_fields.h"
#include "ws/run/spec_fields.h"
#include "ws/trace/field_codec.h"

namespace ws::isolation {

void write_timing_options(Writer& w, const TimingOptions& o) { put_field(w, o); }

TimingOptions read_timing_options(Reader& r) {
  TimingOptions o;
  get_field(r, o);
  return o;
}

void write_run_timing(Writer& w, const RunTiming& t) { put_field(w, t); }

RunTiming read_run_timing(Reader& r) {
  RunTiming t;
  get_field(r, t);
  return t;
}

void write_config(Writer& w, const RunConfig& c) { put_field(w, c); }

RunConfig read_config(Reader& r) {
  RunConfig c;
  get_field(r, c);
  return c;
}

void write_spec(Writer& w, const KernelSpec& s) {
  put_field(w, s);
  for (bool b : {bool(s.elements), bool(s.emulator_limit), bool(s.timing.flops), bool(s.timing.bytes)}) w.boolean(b);
}

KernelSpec read_spec(Reader& r, SpecCode* counts) {
  KernelSpec s;
  get_field(r, s);
  SpecCode c;
  for (bool* b : {&c.elements, &c.emulator_limit, &c.flops, &c.bytes}) *b = r.boolean();
  if (counts) *counts = c;
  return s;
}

void write_result(Writer& w, const RunResult& r) { put_field(w, r); }

RunResult read_result(Reader& r) {
  RunResult out;
  get_field(r, out);
  return out;
}

}  // namespace ws::isolation
