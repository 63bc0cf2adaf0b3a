#include "ws/trace/stream_timeline.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "ws/trace/json_fields.h"

#include "ws/util/atomic_file.h"

namespace ws {

const char* to_string(StreamOpKind k) {
  switch (k) {
    case StreamOpKind::HostCall: return "host";
    case StreamOpKind::Kernel: return "kernel";
    case StreamOpKind::CopyHtoD: return "HtoD";
    case StreamOpKind::CopyDtoH: return "DtoH";
    case StreamOpKind::CopyDtoD: return "DtoD";
  }
  return "?";
}

double StreamScenario::end_to_end_us() const {
  double lo = INFINITY, hi = -INFINITY;
  for (const StreamOp& o : ops) lo = std::min(lo, o.start_us), hi = std::max(hi, o.end_us);
  return hi > lo ? hi - lo : 0.0;
}

double StreamScenario::device_span_us() const {
  double lo = INFINITY, hi = -INFINITY;
  for (const StreamOp& o : ops)
    if (o.on_device()) lo = std::min(lo, o.start_us), hi = std::max(hi, o.end_us);
  return hi > lo ? hi - lo : 0.0;
}

double StreamScenario::busy_us() const {
  double sum = 0;
  for (const StreamOp& o : ops)
    if (o.on_device()) sum += o.duration_us();
  return sum;
}

double StreamScenario::host_us() const {
  double lo = INFINITY, hi = -INFINITY;
  for (const StreamOp& o : ops)
    if (!o.on_device()) lo = std::min(lo, o.start_us), hi = std::max(hi, o.end_us);
  return hi > lo ? hi - lo : 0.0;
}

std::vector<uint32_t> StreamScenario::streams() const {
  std::vector<uint32_t> s;
  for (const StreamOp& o : ops)
    if (o.on_device() && std::find(s.begin(), s.end(), o.stream) == s.end()) s.push_back(o.stream);
  std::sort(s.begin(), s.end());
  return s;
}

std::vector<StreamRow> stream_rows(const StreamScenario& s) {
  std::vector<StreamRow> rows;
  auto add = [&](std::string label, auto&& in_row) {
    StreamRow r{std::move(label), {}};
    for (size_t i = 0; i < s.ops.size(); ++i)
      if (in_row(s.ops[i])) r.ops.push_back(i);
    std::sort(r.ops.begin(), r.ops.end(), [&](size_t a, size_t b) { return s.ops[a].start_us < s.ops[b].start_us; });
    if (!r.ops.empty()) rows.push_back(std::move(r));
  };
  add("host", [](const StreamOp& o) { return !o.on_device(); });
  for (uint32_t st : s.streams())
    add(st == 0 ? "default stream" : "stream " + std::to_string(st), [st](const StreamOp& o) { return o.on_device() && o.stream == st; });
  add("copy HtoD", [](const StreamOp& o) { return o.kind == StreamOpKind::CopyHtoD; });
  add("copy DtoH", [](const StreamOp& o) { return o.kind == StreamOpKind::CopyDtoH; });
  add("kernels", [](const StreamOp& o) { return o.kind == StreamOpKind::Kernel; });
  return rows;
}

std::string check_stream_plan(const StreamPlan& p) {
  if (p.n == 0) return "n = 0: there is nothing to copy (n is the number of floats, >= 1)";
  if (p.n > (uint64_t(1) << 32)) return "n = " + std::to_string(p.n) + " floats: at most 4294967296 (16 GB)";
  if (p.chunks == 0) return "chunks = 0: the work is cut into 1 or more chunks";
  if (p.n % p.chunks)
    return "n = " + std::to_string(p.n) + " is not a multiple of chunks = " + std::to_string(p.chunks) +
           ": each chunk must be the same size (e.g. n = " + std::to_string((p.n / p.chunks + 1) * p.chunks) + ")";
  if (p.streams.empty()) return "no stream counts: give at least one (e.g. 2)";
  for (uint32_t s : p.streams) {
    if (s == 0) return "0 streams: a chunked scenario needs 1 or more streams";
    if (s > p.chunks)
      return std::to_string(s) + " streams for " + std::to_string(p.chunks) + " chunks: at most one stream per chunk";
    if (s > 32) return std::to_string(s) + " streams: at most 32";
  }
  if (p.work == 0 || p.work > 100000) return "work = " + std::to_string(p.work) + ": the kernel's rounds per element are 1 to 100000";
  return {};
}

// ---- the file --------------------------------------------------------------------------------

namespace {

constexpr const char* kFormat = "warpscope-streams";
constexpr int kVersion = 1;


}  // namespace

std::string stream_timeline_json(const StreamTimeline& t) {
  nlohmann::json j = to_json_fields(t);
  j["format"] = kFormat;
  j["version"] = kVersion;
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string parse_stream_timeline(const std::string& text, StreamTimeline& out) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return "not JSON";
  // (looked at before it is read: j.value("format", "") throws on a "format" that is a number)
  if (!j.is_object() || !j.contains("format") || !j["format"].is_string() || j["format"].get<std::string>() != kFormat)
    return std::string("not a stream timeline (its \"format\" is not \"") + kFormat + "\")";
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int64_t>() != kVersion)
    return "version is not " + std::to_string(kVersion) + " (this warpscope reads version " + std::to_string(kVersion) + ")";
  // The sizes first: a file of a million scenarios is refused before it is read into records.
  if (j.contains("scenarios") && j["scenarios"].is_array()) {
    if (j["scenarios"].size() > kMaxStreamScenarios)
      return std::to_string(j["scenarios"].size()) + " scenarios: at most " + std::to_string(kMaxStreamScenarios);
    size_t total = 0;
    for (const nlohmann::json& s : j["scenarios"])
      if (s.is_object() && s.contains("ops") && s["ops"].is_array()) total += s["ops"].size();
    if (total > kMaxStreamOps) return "more than " + std::to_string(kMaxStreamOps) + " operations";
  }
  StreamTimeline t;
  if (std::string err = from_json_fields(j, t); !err.empty()) return err;
  for (size_t si = 0; si < t.scenarios.size(); ++si)
    for (size_t oi = 0; oi < t.scenarios[si].ops.size(); ++oi)
      if (t.scenarios[si].ops[oi].end_us < t.scenarios[si].ops[oi].start_us)
        return "scenario " + std::to_string(si + 1) + ", op " + std::to_string(oi + 1) + ": it ends before it starts";
  out = std::move(t);
  return {};
}

std::string save_stream_timeline(const std::filesystem::path& path, const StreamTimeline& t) {
  return write_file_atomic(path, stream_timeline_json(t));
}

std::string load_stream_timeline(const std::filesystem::path& path, StreamTimeline& t) {
  std::string text, err;
  if (!read_file(path, text, err)) return err;
  if (text.size() > (256u << 20)) return path.string() + ": over 256 MB, not a stream timeline";
  if (std::string e = parse_stream_timeline(text, t); !e.empty()) return path.string() + ": " + e;
  return {};
}

std::string stream_timeline_perfetto(const StreamTimeline& t) {
  nlohmann::json events = nlohmann::json::array();
  for (size_t si = 0; si < t.scenarios.size(); ++si) {
    const StreamScenario& s = t.scenarios[si];
    const int pid = int(si + 1);
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", s.name}}}});
    const std::vector<StreamRow> rows = stream_rows(s);
    for (size_t r = 0; r < rows.size(); ++r) {
      const int tid = int(r + 1);
      events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", rows[r].label}}}});
      events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"sort_index", tid}}}});
      for (size_t i : rows[r].ops) {
        const StreamOp& o = s.ops[i];
        nlohmann::json args = {{"kind", to_string(o.kind)}, {"stream", o.stream}};
        if (o.bytes) args["bytes"] = o.bytes, args["GB/s"] = o.gbps(), args["pinned"] = o.pinned;
        events.push_back({{"name", o.name}, {"cat", to_string(o.kind)}, {"ph", "X"}, {"pid", pid}, {"tid", tid},
                          {"ts", o.start_us}, {"dur", o.duration_us()}, {"args", args}});
      }
    }
  }
  nlohmann::json j;
  j["traceEvents"] = std::move(events);
  j["displayTimeUnit"] = "ns";
  j["otherData"] = {{"device", t.device}, {"recorded", t.recorded}, {"command", t.command}, {"clock", t.clock}};
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ws
