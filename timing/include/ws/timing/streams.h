// The streams lesson's recording, for the viewer and the command line: a GPU run of
// ws::StreamPlan's scenarios (backends/gpu/streams.h) when this build and machine have one, and the
// recording that ships with warpscope when they do not.
//
//   ws::StreamTimeline t;
//   if (std::string err = ws::timing::record_streams(plan, t, "warpscope streams"); !err.empty()) ...
#pragma once

#include <filesystem>
#include <string>

#include "ws/trace/stream_timeline.h"

namespace ws::timing {

// "" or why not: the plan's error, "this build has no CUDA", the device's why_not, CUPTI missing.
std::string record_streams(const StreamPlan& plan, StreamTimeline& out, const std::string& command);

// The recording made on a GPU by scripts/gpu_streams.sh that ships in assets/ (empty path when
// it cannot be found next to the executable or in the source tree).
std::filesystem::path shipped_stream_recording();

// A file or folder that ships in assets/: $WARPSCOPE_ASSETS/NAME, else beside the executable (or
// an installed share/warpscope/), else in the source tree; empty when none has it.
std::filesystem::path shipped_asset(const std::string& name);

}  // namespace ws::timing
