#include "streams.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "ws/timing/streams.h"
#include "ws/trace/stream_timeline.h"
#include "ws/util/atomic_file.h"

namespace ws::app {

namespace {

struct StreamsOptions {
  CLI::App* cmd = nullptr;
  uint64_t n = StreamPlan{}.n;
  uint32_t chunks = StreamPlan{}.chunks, work = StreamPlan{}.work;
  std::string streams = "2,4";
  std::string out, perfetto, load;
};

StreamsOptions& options() {
  static StreamsOptions o;
  return o;
}

// "2,4" -> {2, 4}; "" when it is not a list of whole numbers.
bool parse_counts(const std::string& text, std::vector<uint32_t>& out) {
  out.clear();
  size_t i = 0;
  while (i <= text.size()) {
    const size_t comma = text.find(',', i);
    const std::string part = text.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
    if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string::npos) return false;
    out.push_back(uint32_t(std::stoul(part)));
    if (comma == std::string::npos) break;
    i = comma + 1;
  }
  return !out.empty();
}

void print_summary(const StreamTimeline& t) {
  std::printf("%s%s%s\n", t.device.c_str(), t.recorded.empty() ? "" : ", recorded ", t.recorded.c_str());
  if (!t.clock.empty()) std::printf("  timestamps: %s\n", t.clock.c_str());
  std::printf("  %-52s %12s %12s %8s %10s %9s %9s\n", "scenario", "end to end", "sum of work", "overlap", "host", "HtoD",
              "DtoH");
  for (const StreamScenario& s : t.scenarios) {
    double h_bytes = 0, h_us = 0, d_bytes = 0, d_us = 0;
    for (const StreamOp& o : s.ops) {
      if (o.kind == StreamOpKind::CopyHtoD) h_bytes += double(o.bytes), h_us += o.duration_us();
      if (o.kind == StreamOpKind::CopyDtoH) d_bytes += double(o.bytes), d_us += o.duration_us();
    }
    const double e2e = s.end_to_end_us(), busy = s.busy_us();
    char overlap[16] = "none";
    if (busy > e2e && busy > 0) std::snprintf(overlap, sizeof overlap, "%.0f%%", 100.0 * (busy - e2e) / busy);
    std::printf("  %-52s %9.0f us %9.0f us %8s %7.0f us %5.1f GB/s %5.1f GB/s\n", s.name.c_str(), e2e, busy, overlap,
                s.host_us(), h_us > 0 ? h_bytes / h_us / 1000 : 0.0, d_us > 0 ? d_bytes / d_us / 1000 : 0.0);
  }
  std::printf("  (overlap: the share of the work's summed time saved by running copies and kernels at once;\n"
              "   none: end to end is the work summed plus the gaps between the steps)\n");
}

int cmd_streams(const StreamsOptions& o) {
  StreamTimeline t;
  if (!o.load.empty()) {
    if (std::string err = load_stream_timeline(o.load, t); !err.empty()) {
      std::fprintf(stderr, "warpscope: %s\n", err.c_str());
      return 1;
    }
  } else {
    StreamPlan plan;
    plan.n = o.n;
    plan.chunks = o.chunks;
    plan.work = o.work;
    if (!parse_counts(o.streams, plan.streams)) {
      std::fprintf(stderr, "warpscope: --streams '%s' is not a list of stream counts (e.g. 2,4)\n", o.streams.c_str());
      return 2;
    }
    if (std::string why = check_stream_plan(plan); !why.empty()) {
      std::fprintf(stderr, "warpscope: refused: %s\n", why.c_str());
      return 2;
    }
    std::string streams;
    for (uint32_t s : plan.streams) streams += (streams.empty() ? "" : ",") + std::to_string(s);
    const std::string command = "warpscope streams --n " + std::to_string(plan.n) + " --chunks " + std::to_string(plan.chunks) +
                                " --streams " + streams + " --work " + std::to_string(plan.work);
    if (std::string err = timing::record_streams(plan, t, command); !err.empty()) {
      std::fprintf(stderr, "warpscope: cannot record: %s\n", err.c_str());
      if (const auto shipped = timing::shipped_stream_recording(); !shipped.empty())
        std::fprintf(stderr, "  a recording made on a GPU ships with warpscope: warpscope streams --load %s\n", shipped.c_str());
      return 1;
    }
  }
  print_summary(t);
  if (!o.out.empty()) {
    if (std::string err = save_stream_timeline(o.out, t); !err.empty()) {
      std::fprintf(stderr, "warpscope: %s\n", err.c_str());
      return 1;
    }
    std::printf("wrote %s\n", o.out.c_str());
  }
  if (!o.perfetto.empty()) {
    if (std::string err = write_file_atomic(o.perfetto, stream_timeline_perfetto(t)); !err.empty()) {
      std::fprintf(stderr, "warpscope: %s\n", err.c_str());
      return 1;
    }
    std::printf("wrote %s (open it in https://ui.perfetto.dev)\n", o.perfetto.c_str());
  }
  return 0;
}

}  // namespace

void register_streams_command(CLI::App& app) {
  StreamsOptions& o = options();
  o.cmd = app.add_subcommand("streams",
                             "Copies and kernels over CUDA streams on one time axis: record them on a GPU (CUPTI), or load a "
                             "recording; end to end vs the sum of the parts");
  o.cmd->add_option("--n", o.n, "Floats in the array (default 16777216 = 64 MB)")->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
  o.cmd->add_option("--chunks", o.chunks, "Pieces the chunked scenarios cut it into (default 8; must divide n)")
      ->check(CLI::Range(1u, 4096u));
  o.cmd->add_option("--streams", o.streams, "Stream counts, one chunked scenario each (default 2,4)");
  o.cmd->add_option("--work", o.work, "The kernel's rounds per element (default 2048: about the copies' time on an H100)")->check(CLI::Range(1u, 100000u));
  o.cmd->add_option("-o,--out", o.out, "Save the timeline (warpscope's JSON; the viewer opens it)")->type_name("FILE");
  o.cmd->add_option("--perfetto", o.perfetto, "Also write Chrome trace JSON for Perfetto")->type_name("FILE");
  o.cmd->add_option("--load", o.load, "Load a saved timeline instead of recording")->type_name("FILE");
}

int run_streams_if_selected() {
  const StreamsOptions& o = options();
  if (o.cmd && o.cmd->parsed()) return cmd_streams(o);
  return -1;
}

}  // namespace ws::app
