// The bytes that go between warpscope and its run process (child_process.h): the run contract
// (RunConfig in, RunResult out, each trace in the .wst format of trace_io.h), each record written
// through its field list (ws/run/config_fields.h, ws/run/result_fields.h). Both ends are the same binary, so there is no versioning; the
// reader still checks every length against the bytes left, so a frame cut short by a dying process
// is an error, never a crash.
//
//   Writer w;  write_config(w, cfg);            // the request
//   Reader r(w.bytes());  RunConfig back = read_config(r);  // throws WireError when cut short
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ws/run/config.h"
#include "ws/run/result.h"
#include "ws/run/spec.h"
#include "ws/util/byte_codec.h"

namespace ws::isolation {

// The bytes are util's codec (ws/util/byte_codec.h), the one the trace file uses; a frame is
// read in one go and refused whole at its first fault.
using WireError = ByteError;
using Writer = ByteWriter;
class Reader : public ByteReader {
 public:
  explicit Reader(std::string_view in) : ByteReader(in, "a message between warpscope and its run process", ByteReader::Throw) {}
  using ByteReader::count;
  size_t count(size_t min_item_bytes) { return size_t(ByteReader::count(min_item_bytes, "items")); }
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
