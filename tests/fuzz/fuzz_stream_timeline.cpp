// Fuzz target: a stream timeline file (warpscope's JSON) through everything that reads one: the
// parser and its checks, the rows the view draws, the overlap numbers, the Perfetto export and the
// JSON written back. Nothing may crash, hang or ask for unbounded memory: a bad file is a clear
// error from the parser.
//
// Built with clang's libFuzzer by scripts/fuzz.sh; with the project's compiler, replay.cpp runs the
// corpus (tests/fuzz/corpus/streams: the shipped recording, cut-down ones, every crash found) as a test.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ws/trace/stream_timeline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ws::StreamTimeline t;
  if (!ws::parse_stream_timeline(std::string(reinterpret_cast<const char*>(data), size), t).empty()) return 0;
  for (const ws::StreamScenario& s : t.scenarios) {
    (void)s.end_to_end_us();
    (void)s.busy_us();
    (void)s.host_us();
    for (const ws::StreamRow& r : ws::stream_rows(s))
      for (size_t i : r.ops)
        if (i >= s.ops.size()) __builtin_trap();  // a row names an operation that is not there
  }
  (void)ws::stream_timeline_perfetto(t);
  ws::StreamTimeline back;
  if (!ws::parse_stream_timeline(ws::stream_timeline_json(t), back).empty()) __builtin_trap();  // what we write we read
  return 0;
}
