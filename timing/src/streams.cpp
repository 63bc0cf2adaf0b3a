#include "ws/timing/streams.h"

#include "serve_streams.h"
#include "ws/isolation/isolated_runs.h"
#include "ws/isolation/wire.h"
#include "ws/trace/field_codec.h"

#include <cstdlib>
#include <system_error>
#include <vector>

#if defined(WS_HAVE_CUDA)
#include "ws/gpu/streams.h"
#endif

namespace ws::timing {

namespace {

[[maybe_unused]] void write_plan(isolation::Writer& w, const StreamPlan& p) { put_field(w, p); }

StreamPlan read_plan(isolation::Reader& r) {
  StreamPlan p;
  get_field(r, p);
  return p;
}

}  // namespace

std::string record_streams(const StreamPlan& plan, StreamTimeline& out, const std::string& command) {
  if (std::string why = check_stream_plan(plan); !why.empty()) return why;
#if defined(WS_HAVE_CUDA)
  if (isolation::runs_gpu()) {
    isolation::Writer w;
    write_plan(w, plan);
    w.str(command);
    const isolation::Answer a = isolation::call(isolation::Kind::Streams, w.bytes(), {.what = "recording the streams"});
    if (!a.ok) return a.error;
    try {
      isolation::Reader r(a.payload);
      if (std::string error = r.str(); !error.empty()) return error;
      return parse_stream_timeline(r.str(), out);
    } catch (const std::exception& e) {
      return e.what();
    }
  }
  return gpu::record_streams(plan, out, command);
#else
  (void)out, (void)command;
  return "this build of warpscope has no CUDA: recording streams needs a CUDA GPU";
#endif
}

void serve_streams(isolation::Server& s) {
  s.on(isolation::Kind::Streams, [](const std::string& payload, const auto&) {
    isolation::Reader r(payload);
    const StreamPlan plan = read_plan(r);
    const std::string command = r.str();
    StreamTimeline t;
    std::string error = check_stream_plan(plan);
#if defined(WS_HAVE_CUDA)
    if (error.empty()) error = gpu::record_streams(plan, t, command);
#else
    if (error.empty()) error = "this build of warpscope has no CUDA: recording streams needs a CUDA GPU";
#endif
    isolation::Writer w;
    w.str(error);
    w.str(error.empty() ? stream_timeline_json(t) : std::string());
    return w.take();
  });
}

std::filesystem::path shipped_asset(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> places;
  if (const char* env = std::getenv("WARPSCOPE_ASSETS")) places.push_back(fs::path(env) / name);
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    // build/app/warpscope -> the source tree's assets/, or an installed share/warpscope/.
    for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path(); dir = dir.parent_path()) {
      places.push_back(dir / "assets" / name);
      places.push_back(dir / "share" / "warpscope" / name);
    }
  }
  places.push_back(fs::path(WS_SOURCE_ASSETS) / name);
  for (const fs::path& p : places)
    if (fs::exists(p, ec)) return p;
  return {};
}

std::filesystem::path shipped_stream_recording() {
  const std::filesystem::path p = shipped_asset("streams_h100.json");
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) ? p : std::filesystem::path();
}

}  // namespace ws::timing
