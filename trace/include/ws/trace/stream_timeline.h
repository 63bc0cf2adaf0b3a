// The record of a program's host calls, copies and kernels on one time axis: what the stream
// timeline view draws (seed 000's "kernel launches are asynchronous... GPU and CPU connected
// through a pipeline", seed 002's two streams with cudaMemcpyAsync and pinned memory).
//
// A timeline holds one or more scenarios (the same work done synchronously, or cut into chunks
// over several streams); each is a list of operations with start and end in microseconds on one
// clock, counted from the scenario's first operation. It is recorded on a GPU
// (backends/gpu: ws::gpu::record_streams), saved and loaded as JSON, and exported to the Chrome
// trace format that Perfetto opens.
//
//   ws::StreamTimeline t;
//   std::string err = ws::load_stream_timeline("assets/streams_h100.json", t);
//   for (const ws::StreamScenario& s : t.scenarios)
//     std::printf("%s: %.0f us end to end, %.0f us of work\n", s.name.c_str(), s.end_to_end_us(), s.busy_us());
#pragma once

#include <type_traits>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ws {

enum class StreamOpKind : uint8_t {
  HostCall,  // a CUDA runtime call on the host thread, from its call to its return
  Kernel,
  CopyHtoD,
  CopyDtoH,
  CopyDtoD,
};
const char* to_string(StreamOpKind k);  // "host", "kernel", "HtoD", "DtoH", "DtoD"
constexpr StreamOpKind enum_last(StreamOpKind) { return StreamOpKind::CopyDtoD; }

struct StreamOp {
  StreamOpKind kind = StreamOpKind::HostCall;
  std::string name;        // "cudaMemcpyAsync", "scale_chunk"
  uint32_t stream = 0;     // the CUDA stream it ran in (0: the legacy default stream); host calls: the one they named
  double start_us = 0, end_us = 0;
  uint64_t bytes = 0;      // copies
  bool pinned = false;     // copies: the host memory is page-locked (cudaMallocHost)
  double duration_us() const { return end_us - start_us; }
  bool on_device() const { return kind != StreamOpKind::HostCall; }
  // Bytes per microsecond is MB/s: divided by 1000 it is GB/s.
  double gbps() const { return duration_us() > 0 ? double(bytes) / duration_us() / 1000.0 : 0.0; }
};

struct StreamScenario {
  std::string name;         // "pinned, 2 streams x 8 chunks"
  std::string description;  // one line: what it does
  std::vector<StreamOp> ops;
  // What the program waits: from its first host call to the completion of its last operation
  // (a copy, a kernel, or the synchronize that waits for them), whichever is later.
  double end_to_end_us() const;
  // The device's span: first device operation's start to the last one's end.
  double device_span_us() const;
  // The device operations' durations summed: what the work takes end to end with no overlap.
  double busy_us() const;
  // The host thread's span: first call to the last return.
  double host_us() const;
  // The streams that ran device work, ascending.
  std::vector<uint32_t> streams() const;
};

struct StreamTimeline {
  std::string device;    // "NVIDIA H100 80GB HBM3"
  std::string recorded;  // "2026-11-25 22:40 UTC"
  std::string command;   // how it was recorded: "warpscope streams --n 16777216 --chunks 8 -o ..."
  std::string clock;     // where the timestamps come from: "CUPTI activity records (ns)"
  std::vector<StreamScenario> scenarios;
};

// The fields of a timeline's records, listed once: its JSON file (stream_timeline_json,
// parse_stream_timeline) is written and read through them (ws/trace/json_fields.h).
template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, StreamOp>
void visit_fields(R& o, Visit&& v) {
  v("kind", o.kind);
  v("name", o.name);
  v("stream", o.stream);
  v("start_us", o.start_us);
  v("end_us", o.end_us);
  v("bytes", o.bytes);
  v("pinned", o.pinned);
}
template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, StreamScenario>
void visit_fields(R& s, Visit&& v) {
  v("name", s.name);
  v("description", s.description);
  v("ops", s.ops);
}
template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, StreamTimeline>
void visit_fields(R& t, Visit&& v) {
  v("device", t.device);
  v("recorded", t.recorded);
  v("command", t.command);
  v("clock", t.clock);
  v("scenarios", t.scenarios);
}

// The rows a timeline is drawn in: the host thread, each stream, the copy engines (HtoD, DtoH)
// and the kernels. A copy is in its stream's row and its engine's; a kernel in its stream's and
// the kernels' row. Empty rows are left out.
struct StreamRow {
  std::string label;         // "host", "stream 13", "copy HtoD", "kernels"
  std::vector<size_t> ops;   // indices into the scenario's ops, by start
};
std::vector<StreamRow> stream_rows(const StreamScenario& s);

// What a recording runs (backends/gpu: ws::gpu::record_streams): the same work (copy n floats to
// the device, a kernel of `work` rounds per element, copy them back) whole, and cut into `chunks`
// pieces over each stream count in `streams`.
struct StreamPlan {
  uint64_t n = 1 << 24;                    // floats (64 MB)
  uint32_t chunks = 8;
  std::vector<uint32_t> streams = {2, 4};
  uint32_t work = 2048;  // about the copies' time for the kernel on an H100
};
// StreamPlan's fields, listed once (a recording asked of the run process goes through them).
template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, StreamPlan>
void visit_fields(R& p, Visit&& v) {
  v("n", p.n);
  v("chunks", p.chunks);
  v("streams", p.streams);
  v("work", p.work);
}
// "" or why the plan cannot run, as the user reads it (needs no GPU): n = 0, a chunk count that
// does not divide n, no streams or a stream count of 0, more streams than chunks, work = 0.
std::string check_stream_plan(const StreamPlan& p);

// Limits a loaded file is held to (a damaged or hostile file is refused, never half-read).
inline constexpr size_t kMaxStreamScenarios = 64;
inline constexpr size_t kMaxStreamOps = 1u << 20;

// "" on success, else what was wrong, naming the file (and for a damaged file: which field).
std::string save_stream_timeline(const std::filesystem::path& path, const StreamTimeline& t);
std::string load_stream_timeline(const std::filesystem::path& path, StreamTimeline& t);
// The same from and to text (tests, fuzzing).
std::string stream_timeline_json(const StreamTimeline& t);
std::string parse_stream_timeline(const std::string& text, StreamTimeline& t);

// Chrome trace event JSON (Perfetto, chrome://tracing): one process per scenario, one thread per
// row (host, each stream, the copy engines, the kernels), complete events with their bytes.
std::string stream_timeline_perfetto(const StreamTimeline& t);

}  // namespace ws
