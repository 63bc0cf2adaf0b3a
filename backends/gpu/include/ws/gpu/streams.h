// Recording the streams lesson on a GPU (seed 002, "Asynchronous data transfers"; seed 000, "kernel
// launches are asynchronous"): the same work (copy an array to the device, run a kernel on it,
// copy it back) done synchronously from pageable and from pinned memory, then cut into chunks over
// several streams with cudaMemcpyAsync, from pinned and from pageable memory, and once with a
// launch on the legacy default stream in the middle (it waits for every stream, and every stream
// waits for it).
//
// Device operations are timed by CUPTI's activity records (kernels, copies: start and end in ns);
// host calls by cuptiGetTimestamp() around each call (the same clock); each device operation is
// tied to the host call that issued it by CUPTI's external correlation. CUPTI (libcupti, in the
// CUDA toolkit) is opened at run time.
//
//   ws::StreamTimeline t;
//   std::string err = ws::gpu::record_streams({.n = 1 << 24, .chunks = 8}, t);
#pragma once

#include <string>

#include "ws/trace/stream_timeline.h"

namespace ws::gpu {

// Runs every scenario of `plan` (check_stream_plan first) on the current device and fills `out`;
// "" or why not (no GPU, CUPTI missing, the arrays do not fit the device's memory, a CUDA error).
std::string record_streams(const StreamPlan& plan, StreamTimeline& out, const std::string& command = {});

}  // namespace ws::gpu
