// Turning what gpu-trace wrote on the device into a Trace (plain C++: tested on the CPU with
// records built in the test, tests/backends/gpu_host).
//
//   ws::gpu::DecodeInput in;          // launch, global allocations, records, counters...
//   in.read_string = [&](uint64_t device_address) { ... };  // file names live on the device
//   ws::Trace t = ws::gpu::decode(in);
//
// Records are ordered by block, then by the order the warps reserved them (which is each warp's
// issue order); addresses become (allocation, byte offset); shared arrays are named from their
// records; each warp's barrier arrivals become one Barrier event.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ws/gpu/trace_format.h"
#include "ws/trace/trace.h"

namespace ws::gpu {

struct DecodeInput {
  LaunchInfo launch;
  std::vector<Allocation> globals;               // index = the alloc index kernels record
  std::vector<gpu_trace::Record> records;        // the first min(reserved, capacity) records
  unsigned long long reserved = 0;               // reservations made on the device
  unsigned long long capacity = 0;
  std::vector<uint32_t> full_blocks;             // blocks recorded in full, ascending
  uint64_t total_blocks = 0;
  std::vector<gpu_trace::SiteCounter> counters;  // every SM's table, concatenated
  bool counter_overflow = false;
  std::function<std::string(uint64_t)> read_string;  // device address -> NUL-terminated text
};

Trace decode(const DecodeInput& in);

}  // namespace ws::gpu
