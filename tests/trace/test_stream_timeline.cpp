// Stream timelines: what a recording says (end to end, the work summed, overlap, rows), the file
// round trip, the refusals of damaged files, the Perfetto export, and the plan's checks.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "ws/trace/stream_timeline.h"

using namespace ws;

namespace {

StreamOp op(StreamOpKind k, uint32_t stream, double a, double b, uint64_t bytes = 0, std::string name = "") {
  StreamOp o;
  o.kind = k;
  o.stream = stream;
  o.start_us = a;
  o.end_us = b;
  o.bytes = bytes;
  o.pinned = bytes > 0;
  o.name = name.empty() ? to_string(k) : name;
  return o;
}

// Copy in, kernel, copy out, end to end; then the same in two chunks on two streams, where chunk
// 1's copy-in runs under chunk 0's kernel.
StreamTimeline sample() {
  StreamTimeline t;
  t.device = "test GPU";
  t.recorded = "2026-11-25 22:00 UTC";
  t.command = "by hand";
  t.clock = "made up for the test";
  StreamScenario sync{"one stream", "copy, kernel, copy", {}};
  sync.ops = {op(StreamOpKind::HostCall, 0, 0, 100, 0, "cudaMemcpy"), op(StreamOpKind::CopyHtoD, 0, 5, 100, 1000000),
              op(StreamOpKind::HostCall, 0, 101, 103, 0, "launch"), op(StreamOpKind::Kernel, 0, 104, 204, 0, "scale_chunk"),
              op(StreamOpKind::HostCall, 0, 104, 310, 0, "cudaMemcpy"), op(StreamOpKind::CopyDtoH, 0, 210, 300, 1000000)};
  StreamScenario two{"two streams", "chunks", {}};
  two.ops = {op(StreamOpKind::CopyHtoD, 1, 0, 50, 500000),   op(StreamOpKind::Kernel, 1, 50, 100),
             op(StreamOpKind::CopyHtoD, 2, 50, 100, 500000), op(StreamOpKind::Kernel, 2, 100, 150),
             op(StreamOpKind::CopyDtoH, 1, 100, 145, 500000), op(StreamOpKind::CopyDtoH, 2, 150, 195, 500000),
             op(StreamOpKind::HostCall, 1, 0, 2, 0, "cudaMemcpyAsync")};
  t.scenarios = {sync, two};
  return t;
}

}  // namespace

TEST(StreamTimeline, EndToEndAgainstTheWorkSummed) {
  const StreamTimeline t = sample();
  const StreamScenario& sync = t.scenarios[0];
  // From the first host call (0) to the last operation's completion: the second cudaMemcpy
  // returns at 310, after its copy ends at 300. The device alone spans 5 .. 300.
  EXPECT_DOUBLE_EQ(sync.end_to_end_us(), 310.0);
  EXPECT_DOUBLE_EQ(sync.device_span_us(), 295.0);
  EXPECT_DOUBLE_EQ(sync.busy_us(), 95.0 + 100.0 + 90.0);
  EXPECT_DOUBLE_EQ(sync.host_us(), 310.0);
  const StreamScenario& two = t.scenarios[1];
  EXPECT_DOUBLE_EQ(two.end_to_end_us(), 195.0);
  EXPECT_DOUBLE_EQ(two.busy_us(), 50 + 50 + 50 + 50 + 45 + 45.0);
  EXPECT_LT(two.end_to_end_us(), two.busy_us());  // the overlap
  EXPECT_EQ(two.streams(), (std::vector<uint32_t>{1, 2}));
  EXPECT_DOUBLE_EQ(sync.ops[1].gbps(), 1000000.0 / 95.0 / 1000.0);
}

TEST(StreamTimeline, RowsAreHostStreamsEnginesAndKernels) {
  const StreamTimeline t = sample();
  std::vector<std::string> labels;
  for (const StreamRow& r : stream_rows(t.scenarios[1])) labels.push_back(r.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"host", "stream 1", "stream 2", "copy HtoD", "copy DtoH", "kernels"}));
  const std::vector<StreamRow> rows = stream_rows(t.scenarios[0]);
  EXPECT_EQ(rows[1].label, "default stream");
  EXPECT_EQ(rows[1].ops.size(), 3u);  // both copies and the kernel, in order of start
  EXPECT_LT(t.scenarios[0].ops[rows[1].ops[0]].start_us, t.scenarios[0].ops[rows[1].ops[1]].start_us);
}

TEST(StreamTimeline, SavedAndLoadedUnchanged) {
  const StreamTimeline t = sample();
  const auto path = std::filesystem::temp_directory_path() / "ws_stream_timeline_test.json";
  ASSERT_EQ(save_stream_timeline(path, t), "");
  StreamTimeline back;
  ASSERT_EQ(load_stream_timeline(path, back), "");
  std::filesystem::remove(path);
  EXPECT_EQ(back.device, t.device);
  EXPECT_EQ(back.clock, t.clock);
  ASSERT_EQ(back.scenarios.size(), 2u);
  ASSERT_EQ(back.scenarios[1].ops.size(), t.scenarios[1].ops.size());
  for (size_t i = 0; i < t.scenarios[1].ops.size(); ++i) {
    const StreamOp &a = t.scenarios[1].ops[i], &b = back.scenarios[1].ops[i];
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.stream, b.stream);
    EXPECT_EQ(a.start_us, b.start_us);
    EXPECT_EQ(a.end_us, b.end_us);
    EXPECT_EQ(a.bytes, b.bytes);
    EXPECT_EQ(a.pinned, b.pinned);
  }
}

TEST(StreamTimeline, DamagedFilesAreRefusedWithWhatIsWrong) {
  const std::string good = stream_timeline_json(sample());
  auto damaged = [&](auto&& edit) {
    nlohmann::json j = nlohmann::json::parse(good);
    edit(j);
    StreamTimeline t;
    return parse_stream_timeline(j.dump(), t);
  };
  StreamTimeline t;
  EXPECT_EQ(parse_stream_timeline("{", t), "not JSON");
  EXPECT_NE(parse_stream_timeline("[1,2]", t).find("not a stream timeline"), std::string::npos);
  EXPECT_NE(damaged([](auto& j) { j["version"] = 7; }).find("version is not 1"), std::string::npos);
  EXPECT_NE(damaged([](auto& j) { j["scenarios"] = 3; }).find("\"scenarios\" is not a list"), std::string::npos);
  EXPECT_EQ(damaged([](auto& j) { j["scenarios"][1]["ops"][0]["kind"] = "teleport"; }),
            "scenario 2, op 1: \"kind\" is 'teleport', not host, kernel, HtoD, DtoH or DtoD");
  EXPECT_EQ(damaged([](auto& j) { j["scenarios"][0]["ops"][2]["end_us"] = -5; }), "scenario 1, op 3: it ends before it starts");
  EXPECT_EQ(damaged([](auto& j) { j["scenarios"][0]["ops"][0]["start_us"] = "soon"; }),
            "scenario 1, op 1: \"start_us\" is not a number");
  EXPECT_EQ(damaged([](auto& j) { j["scenarios"][0]["ops"][0]["start_us"] = 1e300; }),
            "scenario 1, op 1: \"start_us\" is out of range");
  EXPECT_EQ(damaged([](auto& j) { j["scenarios"][0]["ops"][0]["stream"] = -1; }),
            "scenario 1, op 1: \"stream\" is not a whole number from 0 to 4294967295");
  EXPECT_EQ(damaged([](auto& j) { j["scenarios"][0]["ops"][1]["bytes"] = "lots"; }), "scenario 1, op 2: \"bytes\" is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(damaged([](auto& j) { j["device"] = 5; }), "\"device\" is not a string");
  EXPECT_NE(damaged([](auto& j) {
              for (int i = 0; i < 70; ++i) j["scenarios"].push_back(j["scenarios"][0]);
            }).find("at most 64"),
            std::string::npos);
  // A refused file leaves what was loaded before as it was.
  StreamTimeline kept = sample();
  EXPECT_NE(parse_stream_timeline("{\"format\": \"warpscope-streams\"}", kept), "");
  EXPECT_EQ(kept.scenarios.size(), 2u);
  // A format or a version of the wrong type (13 bytes that aborted `streams --load`): refused.
  for (const char* odd : {"{\"format\": 0}", "{\"format\": null}", "{\"format\": [1]}",
                          "{\"format\": \"warpscope-streams\", \"version\": \"1\"}"})
    EXPECT_NE(parse_stream_timeline(odd, kept), "") << odd;
  // Truncated anywhere: refused, never a crash.
  for (size_t cut = 0; cut + 2 < good.size(); cut += 7) {  // (all but the closing brace and newline)
    StreamTimeline x;
    EXPECT_NE(parse_stream_timeline(good.substr(0, cut), x), "") << cut;
  }
  const auto missing = std::filesystem::temp_directory_path() / "no_such_dir_ws" / "t.json";
  EXPECT_NE(load_stream_timeline(missing, t).find("no_such_dir_ws"), std::string::npos);
}

TEST(StreamTimeline, PerfettoHasAProcessPerScenarioAndAThreadPerRow) {
  const nlohmann::json j = nlohmann::json::parse(stream_timeline_perfetto(sample()));
  ASSERT_TRUE(j.contains("traceEvents"));
  int processes = 0, threads = 0, complete = 0;
  double kernel_dur = -1;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") ++processes;
    if (e["ph"] == "M" && e["name"] == "thread_name") ++threads;
    if (e["ph"] == "X") {
      ++complete;
      if (e["pid"] == 1 && e["name"] == "scale_chunk") kernel_dur = e["dur"].get<double>();
    }
  }
  EXPECT_EQ(processes, 2);
  EXPECT_EQ(threads, 5 + 6);  // host, default stream, HtoD, DtoH, kernels; host, 2 streams, HtoD, DtoH, kernels
  // Every op once per row it is in: device ops twice (stream + engine or kernels), host calls once.
  EXPECT_EQ(complete, (3 + 2 * 3) + (1 + 2 * 6));
  EXPECT_DOUBLE_EQ(kernel_dur, 100.0);
}

TEST(StreamPlan, RefusedWithWhatIsAllowed) {
  StreamPlan p;
  EXPECT_EQ(check_stream_plan(p), "");
  p.n = 1000, p.chunks = 3;
  EXPECT_EQ(check_stream_plan(p), "n = 1000 is not a multiple of chunks = 3: each chunk must be the same size (e.g. n = 1002)");
  p.chunks = 4, p.streams = {0};
  EXPECT_EQ(check_stream_plan(p), "0 streams: a chunked scenario needs 1 or more streams");
  p.streams = {};
  EXPECT_EQ(check_stream_plan(p), "no stream counts: give at least one (e.g. 2)");
  p.streams = {8};
  EXPECT_EQ(check_stream_plan(p), "8 streams for 4 chunks: at most one stream per chunk");
  p.streams = {2};
  p.n = 0;
  EXPECT_NE(check_stream_plan(p).find("n = 0"), std::string::npos);
  p.n = 8, p.chunks = 0;
  EXPECT_NE(check_stream_plan(p).find("chunks = 0"), std::string::npos);
}

// The recording that ships in assets/ (made on a GPU by scripts/gpu_streams.sh): it loads, it is
// labelled, and it shows what the lesson says: the synchronous versions do not overlap, the
// chunked pinned ones do (end to end below the work summed), pinned copies beat pageable ones,
// and the default-stream launch costs the pipeline time.
TEST(StreamTimeline, TheShippedRecordingShowsTheLesson) {
  StreamTimeline t;
  ASSERT_EQ(load_stream_timeline(std::filesystem::path(WS_ASSETS_DIR) / "streams_h100.json", t), "");
  EXPECT_NE(t.device.find("NVIDIA"), std::string::npos);
  EXPECT_FALSE(t.recorded.empty());
  EXPECT_NE(t.command.find("warpscope streams"), std::string::npos);
  ASSERT_EQ(t.scenarios.size(), 6u);
  auto named = [&](const std::string& prefix) -> const StreamScenario& {
    for (const StreamScenario& s : t.scenarios)
      if (s.name.rfind(prefix, 0) == 0) return s;
    ADD_FAILURE() << "no scenario " << prefix;
    return t.scenarios[0];
  };
  auto copy_gbps = [](const StreamScenario& s, StreamOpKind k) {
    double bytes = 0, us = 0;
    for (const StreamOp& o : s.ops)
      if (o.kind == k) bytes += double(o.bytes), us += o.duration_us();
    return bytes / us / 1000;
  };
  const StreamScenario &pageable = named("pageable, one stream"), &pinned = named("pinned, one stream");
  const StreamScenario &two = named("pinned, 2 streams x"), &four = named("pinned, 4 streams x");
  const StreamScenario& drained = named("pinned, 2 streams, a default-stream");
  for (const StreamScenario* s : {&pageable, &pinned}) {
    EXPECT_GE(s->end_to_end_us(), s->busy_us() * 0.99) << s->name << ": a synchronous run cannot overlap";
    EXPECT_EQ(s->streams(), std::vector<uint32_t>{0});
  }
  for (const StreamScenario* s : {&two, &four, &drained}) EXPECT_LT(s->end_to_end_us(), s->busy_us() * 0.8) << s->name;
  EXPECT_LT(two.end_to_end_us(), pinned.end_to_end_us());
  EXPECT_LT(four.end_to_end_us(), two.end_to_end_us());
  EXPECT_GT(drained.end_to_end_us(), two.end_to_end_us());
  // End to end from the host's first call: the synchronous pageable run waits for its driver's
  // staging before the first copy starts, so from the call it is longer than the chunked pageable
  // run (which the device alone would call shorter the other way round).
  const StreamScenario& pageable_chunks = named("pageable, 2 streams x");
  double first_call = 1e30, last_end = 0;
  for (const StreamOp& o : pageable.ops) first_call = std::min(first_call, o.start_us), last_end = std::max(last_end, o.end_us);
  EXPECT_DOUBLE_EQ(pageable.end_to_end_us(), last_end - first_call);
  EXPECT_GT(pageable.end_to_end_us() - pageable.device_span_us(), 5000.0);  // the 5.7 ms before the first copy
  EXPECT_LT(pageable_chunks.end_to_end_us(), pageable.end_to_end_us());
  EXPECT_GT(copy_gbps(pinned, StreamOpKind::CopyHtoD), 2 * copy_gbps(pageable, StreamOpKind::CopyHtoD));
  EXPECT_EQ(two.streams(), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(drained.streams(), (std::vector<uint32_t>{0, 1, 2}));
  // Every chunk's copies: 8 in, 8 out, an eighth of the 64 MB each.
  size_t in = 0, out = 0;
  for (const StreamOp& o : four.ops) {
    if (o.kind == StreamOpKind::CopyHtoD) {
      ++in;
      EXPECT_EQ(o.bytes, (uint64_t(1) << 26) / 8);
    }
    if (o.kind == StreamOpKind::CopyDtoH) ++out;
  }
  EXPECT_EQ(in, 8u);
  EXPECT_EQ(out, 8u);
  std::vector<std::string> labels;
  for (const StreamRow& r : stream_rows(four)) labels.push_back(r.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"host", "stream 1", "stream 2", "stream 3", "stream 4", "copy HtoD", "copy DtoH",
                                              "kernels"}));
}
