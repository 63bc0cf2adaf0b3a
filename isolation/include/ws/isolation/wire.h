// The bytes that go between warpscope and its run process (child_process.h): little-endian
// integers, length-prefixed strings, and the run contract (RunConfig in, RunResult out, each trace
// in the .wst format of trace_io.h). Both ends are the same binary, so there is no versioning; the
// reader still checks every length against the bytes left, so a frame cut short by a dying process
// is an error, never a crash.
//
//   Writer w;  write_config(w, cfg);            // the request
//   Reader r(w.bytes());  RunConfig back = read_config(r);  // throws WireError when cut short
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ws/run/config.h"
#include "ws/run/result.h"
#include "ws/run/spec.h"

namespace ws::isolation {

struct WireError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Writer {
 public:
  void u8(uint8_t v) { out_.push_back(char(v)); }
  void u32(uint32_t v);
  void u64(uint64_t v);
  void i64(int64_t v) { u64(uint64_t(v)); }
  void f64(double v);
  void boolean(bool v) { u8(v ? 1 : 0); }
  void str(std::string_view s);
  void f64s(const std::vector<double>& v);  // a count, then the values
  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  uint8_t u8();
  uint32_t u32();
  uint64_t u64();
  int64_t i64() { return int64_t(u64()); }
  double f64();
  bool boolean() { return u8() != 0; }
  std::string str();
  std::vector<double> f64s();
  // A count of items of at least `min_item_bytes` each: refused when the bytes left cannot hold them.
  size_t count(size_t min_item_bytes);
  bool done() const { return pos_ == in_.size(); }

 private:
  std::string_view need(size_t n);
  std::string_view in_;
  size_t pos_ = 0;
};

// TimingOptions; RunTiming's samples, launches and bytes (not its replay): parts of a RunConfig
// and a RunResult, and what timing a kept replay again sends and answers.
void write_timing_options(Writer& w, const TimingOptions& o);
TimingOptions read_timing_options(Reader& r);
void write_run_timing(Writer& w, const RunTiming& t);
RunTiming read_run_timing(Reader& r);

// RunConfig without its cancel flag (the caller's process watches that and sends a cancel).
void write_config(Writer& w, const RunConfig& c);
RunConfig read_config(Reader& r);

// A KernelSpec's data. Its functions (elements, emulator_limit, timing.flops and timing.bytes) are
// code of the process that built the kernel and do not travel: they read back null, and
// `counts` says which the sender had (the run process answers for them: it checks a run's memory
// and the emulator's limit, and fills RunTiming::bytes and flops).
struct SpecCode {
  bool elements = false, emulator_limit = false, flops = false, bytes = false;
};
void write_spec(Writer& w, const KernelSpec& s);
KernelSpec read_spec(Reader& r, SpecCode* counts = nullptr);

// RunResult without RunTiming::replay (a kept replay stays in the process that ran it).
void write_result(Writer& w, const RunResult& r);
RunResult read_result(Reader& r);

}  // namespace ws::isolation
