#include "ws/timing/streams.h"

#include <cstdlib>
#include <system_error>
#include <vector>

#if defined(WS_HAVE_CUDA)
#include "ws/gpu/streams.h"
#endif

namespace ws::timing {

std::string record_streams(const StreamPlan& plan, StreamTimeline& out, const std::string& command) {
  if (std::string why = check_stream_plan(plan); !why.empty()) return why;
#if defined(WS_HAVE_CUDA)
  return gpu::record_streams(plan, out, command);
#else
  (void)out, (void)command;
  return "this build of warpscope has no CUDA: recording streams needs a CUDA GPU";
#endif
}

std::filesystem::path shipped_stream_recording() {
  namespace fs = std::filesystem;
  const char* name = "streams_h100.json";
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
    if (fs::is_regular_file(p, ec)) return p;
  return {};
}

}  // namespace ws::timing
