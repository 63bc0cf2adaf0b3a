// Fuzz target: a trace file's payload (past its header and checksum, where a damaged file can
// still be wrong) through everything that reads a trace: the loader and its checks, the analysis
// with hazards on, its text and JSON reports, the trace's own JSON and Chrome exports, the views'
// per-element counts and timelines. Nothing may crash, hang or ask for unbounded memory: a bad file
// is a clear error from the loader.
//
// Built with clang's libFuzzer by scripts/fuzz.sh; built with the project's compiler, replay.cpp
// runs the corpus (tests/fuzz/corpus/trace: real traces and every crash found so far) as a test.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ws/analysis/analysis.h"
#include "ws/analysis/views.h"
#include "ws/trace/trace_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ws::LoadResult r = ws::deserialize_trace_payload(std::string(reinterpret_cast<const char*>(data), size));
  if (!r.ok()) return 0;
  const ws::Trace& t = r.trace;
  ws::analysis::Options opt;
  opt.per_event = true;
  const ws::analysis::Report rep = ws::analysis::analyze(t, opt);
  (void)ws::analysis::format_table(rep);
  (void)ws::analysis::to_json(rep);
  (void)ws::to_json(t);
  for (uint32_t a = 0; a < t.allocations.size() && a < 4; ++a)
    if (t.allocations[a].extent <= (1u << 20)) (void)ws::analysis::element_counts(t, a, 0, t.events.size());
  if (!t.events.empty()) (void)ws::analysis::block_timeline(t, t.events.front().block, ws::analysis::TimelineMode::AlignedSteps);
  return 0;
}
