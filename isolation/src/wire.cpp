#include "ws/isolation/wire.h"

#include <cstring>

#include "ws/run/config_fields.h"
#include "ws/trace/trace_io.h"

namespace ws::isolation {

void Writer::u32(uint32_t v) {
  for (int i = 0; i < 4; ++i) out_.push_back(char((v >> (8 * i)) & 0xff));
}

void Writer::u64(uint64_t v) {
  for (int i = 0; i < 8; ++i) out_.push_back(char((v >> (8 * i)) & 0xff));
}

void Writer::f64(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  u64(bits);
}

void Writer::str(std::string_view s) {
  u64(s.size());
  out_.append(s);
}

void Writer::f64s(const std::vector<double>& v) {
  u64(v.size());
  for (double x : v) f64(x);
}

std::string_view Reader::need(size_t n) {
  if (n > in_.size() - pos_)
    throw WireError("a message from the run process ended early (" + std::to_string(in_.size() - pos_) +
                    " bytes left, " + std::to_string(n) + " needed)");
  std::string_view s = in_.substr(pos_, n);
  pos_ += n;
  return s;
}

uint8_t Reader::u8() { return uint8_t(need(1)[0]); }

uint32_t Reader::u32() {
  const std::string_view s = need(4);
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(s[i])) << (8 * i);
  return v;
}

uint64_t Reader::u64() {
  const std::string_view s = need(8);
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(uint8_t(s[i])) << (8 * i);
  return v;
}

double Reader::f64() {
  const uint64_t bits = u64();
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::string Reader::str() {
  const uint64_t n = u64();
  return std::string(need(n));
}

std::vector<double> Reader::f64s() {
  std::vector<double> v(count(8));
  for (double& x : v) x = f64();
  return v;
}

size_t Reader::count(size_t min_item_bytes) {
  const uint64_t n = u64();
  if (min_item_bytes && n > (in_.size() - pos_) / min_item_bytes)
    throw WireError("a message from the run process holds a count (" + std::to_string(n) + ") its bytes cannot");
  return size_t(n);
}

namespace {

void write_dim(Writer& w, const Dim3& d) {
  w.u32(d.x);
  w.u32(d.y);
  w.u32(d.z);
}

Dim3 read_dim(Reader& r) {
  Dim3 d;
  d.x = r.u32();
  d.y = r.u32();
  d.z = r.u32();
  return d;
}

}  // namespace

void write_timing_options(Writer& w, const TimingOptions& o) {
  w.u32(o.warmup);
  w.u32(o.reps);
  w.boolean(o.flush_l2);
  w.f64(o.max_ms);
  w.boolean(o.keep);
}

TimingOptions read_timing_options(Reader& r) {
  TimingOptions o;
  o.warmup = r.u32();
  o.reps = r.u32();
  o.flush_l2 = r.boolean();
  o.max_ms = r.f64();
  o.keep = r.boolean();
  return o;
}

void write_run_timing(Writer& w, const RunTiming& t) {
  w.f64s(t.ms);
  w.u32(t.launches);
  w.u64(t.bytes);
  w.f64(t.flops);
}

RunTiming read_run_timing(Reader& r) {
  RunTiming t;
  t.ms = r.f64s();
  t.launches = r.u32();
  t.bytes = r.u64();
  t.flops = r.f64();
  return t;
}

namespace {

// One field of a record, by its type: what visit_run_config (ws/run/config_fields.h) hands over.
void put(Writer& w, const std::string& v) { w.str(v); }
void put(Writer& w, uint64_t v) { w.u64(v); }
void put(Writer& w, uint32_t v) { w.u32(v); }
void put(Writer& w, bool v) { w.boolean(v); }
void put(Writer& w, double v) { w.f64(v); }
void put(Writer& w, const Dim3& d) { write_dim(w, d); }
void put(Writer& w, const std::vector<uint32_t>& v) {
  w.u64(v.size());
  for (uint32_t x : v) w.u32(x);
}
template <class T>
void put(Writer& w, const std::map<std::string, T>& m) {
  w.u64(m.size());
  for (const auto& [k, v] : m) put(w, k), put(w, v);
}

void get(Reader& r, std::string& v) { v = r.str(); }
void get(Reader& r, uint64_t& v) { v = r.u64(); }
void get(Reader& r, uint32_t& v) { v = r.u32(); }
void get(Reader& r, bool& v) { v = r.boolean(); }
void get(Reader& r, double& v) { v = r.f64(); }
void get(Reader& r, Dim3& d) { d = read_dim(r); }
void get(Reader& r, std::vector<uint32_t>& v) {
  v.resize(r.count(4));
  for (uint32_t& x : v) x = r.u32();
}
template <class T>
void get(Reader& r, std::map<std::string, T>& m) {
  m.clear();
  for (size_t i = 0, n = r.count(16); i < n; ++i) {
    std::string k = r.str();
    get(r, m[k]);
  }
}

}  // namespace

void write_config(Writer& w, const RunConfig& c) {
  visit_run_config(c, [&](const char*, const auto& field) { put(w, field); });
}

RunConfig read_config(Reader& r) {
  RunConfig c;
  visit_run_config(c, [&](const char*, auto& field) { get(r, field); });
  return c;
}

void write_spec(Writer& w, const KernelSpec& s) {
  for (const std::string* x : {&s.name, &s.title, &s.description, &s.source, &s.file, &s.lecture}) w.str(*x);
  w.u64(s.variants.size());
  for (const VariantSpec& v : s.variants) {
    for (const std::string* x : {&v.id, &v.name, &v.summary, &v.broken_note, &v.focus}) w.str(*x);
    for (bool b : {v.broken, v.gpu_only, v.order_dependent, v.takes_grid}) w.boolean(b);
    for (uint32_t x : {v.block_x, v.block_y, v.block_z}) w.u32(x);
  }
  w.u64(s.params.size());
  for (const ParamSpec& p : s.params) {
    w.str(p.name);
    w.str(p.description);
    w.f64(p.min);
    w.f64(p.max);
    w.f64(p.def);
    w.u64(p.choices.size());
    for (const std::string& c : p.choices) w.str(c);
    w.boolean(p.real);
  }
  w.u64(s.default_n);
  w.u32(s.default_block);
  w.u32(s.default_block_y);
  w.boolean(s.block_2d);
  w.u64(s.dtypes.size());
  for (const std::string& d : s.dtypes) w.str(d);
  w.u32(s.arrays);
  const TimingSpec& t = s.timing;
  w.u64(t.n);
  w.u64(t.sizes.size());
  for (uint64_t x : t.sizes) w.u64(x);
  w.boolean(t.matrix);
  w.boolean(t.scales);
  w.u64(t.params.size());
  for (const auto& [k, v] : t.params) {
    w.str(k);
    w.i64(v);
  }
  w.str(t.why);
  w.u8(uint8_t(t.ceiling));
  w.str(t.reference);
  for (bool b : {bool(s.elements), bool(s.emulator_limit), bool(t.flops), bool(t.bytes)}) w.boolean(b);
}

KernelSpec read_spec(Reader& r, SpecCode* counts) {
  KernelSpec s;
  for (std::string* x : {&s.name, &s.title, &s.description, &s.source, &s.file, &s.lecture}) *x = r.str();
  for (size_t i = 0, n = r.count(56); i < n; ++i) {
    VariantSpec v("", "", "");
    for (std::string* x : {&v.id, &v.name, &v.summary, &v.broken_note, &v.focus}) *x = r.str();
    for (bool* b : {&v.broken, &v.gpu_only, &v.order_dependent, &v.takes_grid}) *b = r.boolean();
    for (uint32_t* x : {&v.block_x, &v.block_y, &v.block_z}) *x = r.u32();
    s.variants.push_back(std::move(v));
  }
  for (size_t i = 0, n = r.count(49); i < n; ++i) {
    ParamSpec p;
    p.name = r.str();
    p.description = r.str();
    p.min = r.f64();
    p.max = r.f64();
    p.def = r.f64();
    for (size_t k = 0, m = r.count(8); k < m; ++k) p.choices.push_back(r.str());
    p.real = r.boolean();
    s.params.push_back(std::move(p));
  }
  s.default_n = r.u64();
  s.default_block = r.u32();
  s.default_block_y = r.u32();
  s.block_2d = r.boolean();
  s.dtypes.clear();
  for (size_t i = 0, n = r.count(8); i < n; ++i) s.dtypes.push_back(r.str());
  s.arrays = r.u32();
  TimingSpec& t = s.timing;
  t.n = r.u64();
  for (size_t i = 0, n = r.count(8); i < n; ++i) t.sizes.push_back(r.u64());
  t.matrix = r.boolean();
  t.scales = r.boolean();
  for (size_t i = 0, n = r.count(16); i < n; ++i) {
    std::string k = r.str();
    t.params[k] = r.i64();
  }
  t.why = r.str();
  const uint8_t ceiling = r.u8();
  if (ceiling > uint8_t(TimingSpec::Ceiling::Fp32)) throw WireError("a kernel's spec from the run process names no timing ceiling");
  t.ceiling = TimingSpec::Ceiling(ceiling);
  t.reference = r.str();
  SpecCode c;
  for (bool* b : {&c.elements, &c.emulator_limit, &c.flops, &c.bytes}) *b = r.boolean();
  if (counts) *counts = c;
  return s;
}

void write_result(Writer& w, const RunResult& r) {
  w.str(r.refused);
  w.boolean(r.completed);
  w.boolean(r.passed);
  w.str(r.result);
  w.str(r.expected);
  w.str(r.check);
  w.u64(r.checked.size());
  for (const auto& [name, v] : r.checked) {
    w.str(name);
    w.str(v.type);
    w.u32(v.elem_size);
    w.str(std::string_view(reinterpret_cast<const char*>(v.bytes.data()), v.bytes.size()));
  }
  w.u64(r.launches.size());
  for (const Trace& t : r.launches) w.str(serialize_trace(t));
  w.u64(r.errors.size());
  for (const Diagnostic& d : r.errors) {
    w.u8(uint8_t(d.severity));
    w.str(d.code);
    w.str(d.message);
    w.u32(d.site);
    w.u32(d.block);
    w.u32(d.thread);
  }
  w.u64(r.notes.size());
  for (const std::string& n : r.notes) w.str(n);
  write_run_timing(w, r.timing);
  w.f64(r.emulate_seconds);
}

RunResult read_result(Reader& r) {
  RunResult out;
  out.refused = r.str();
  out.completed = r.boolean();
  out.passed = r.boolean();
  out.result = r.str();
  out.expected = r.str();
  out.check = r.str();
  for (size_t i = 0, n = r.count(28); i < n; ++i) {
    std::string name = r.str();
    CheckedValue v;
    v.type = r.str();
    v.elem_size = r.u32();
    const std::string bytes = r.str();
    v.bytes.assign(bytes.begin(), bytes.end());
    out.checked.emplace_back(std::move(name), std::move(v));
  }
  for (size_t i = 0, n = r.count(8); i < n; ++i) {
    LoadResult loaded = deserialize_trace(r.str());
    if (!loaded.ok()) throw WireError("a trace from the run process does not read back: " + loaded.error);
    out.launches.push_back(std::move(loaded.trace));
  }
  for (size_t i = 0, n = r.count(29); i < n; ++i) {
    Diagnostic d;
    const uint8_t severity = r.u8();
    if (severity > uint8_t(Severity::Error)) throw WireError("a diagnostic from the run process has no severity");
    d.severity = Severity(severity);
    d.code = r.str();
    d.message = r.str();
    d.site = r.u32();
    d.block = r.u32();
    d.thread = r.u32();
    out.errors.push_back(std::move(d));
  }
  for (size_t i = 0, n = r.count(8); i < n; ++i) out.notes.push_back(r.str());
  out.timing = read_run_timing(r);
  out.emulate_seconds = r.f64();
  return out;
}

}  // namespace ws::isolation
