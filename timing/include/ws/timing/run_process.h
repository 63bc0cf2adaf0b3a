// The timing library's requests to warpscope's run process (ws/isolation): with it in use (the
// viewer), device(), measure_ceilings() and record_streams() ask that process, so that the GPU is
// touched only there; its `serve-runs` command answers them with serve_timing().
#pragma once

#include "ws/isolation/server.h"

namespace ws::timing {

// Registers the answers to Device, Ceilings and Streams requests (measured in this process).
void serve_timing(isolation::Server& s);

}  // namespace ws::timing
