// The referee between the two backends: the emulator's trace and the GPU recorder's trace of the
// same launch must hold the same lane accesses; how the lanes were grouped into warp
// instructions may differ (the hardware's own convergence versus the emulator's SIMT model),
// and that is reported as a table, not as a failure.
//
//   ws::analysis::Crosscheck c = ws::analysis::crosscheck(emu_trace, gpu_trace);
//   if (!c.identical) for (auto& d : c.differences) puts(d.c_str());
//   for (auto& g : c.grouping) ...   // per (line, kind, allocation): instructions on each side
#pragma once

#include <string>
#include <vector>

#include "ws/trace/trace.h"

namespace ws::analysis {

struct GroupingRow {
  uint32_t line = 0;
  AccessKind kind = AccessKind::Load;
  std::string allocation;
  std::string source;               // the line's text
  uint64_t emu_instructions = 0, gpu_instructions = 0;
  uint64_t lanes = 0;               // lane accesses (equal on both sides when identical)
};

// Warp-synchronous calls (shuffles, votes, __syncwarp) per (line, op) on each side: the same
// calls by the same lanes make the same count where the warps were whole.
struct WarpOpRow {
  uint32_t line = 0;
  WarpOp op = WarpOp::SyncWarp;
  uint64_t emu_calls = 0, gpu_calls = 0;
  uint64_t emu_lanes = 0, gpu_lanes = 0;  // lanes that made them
};

struct Crosscheck {
  bool identical = false;          // same multiset of (block, thread, line, allocation, element, kind)
  uint64_t emu_accesses = 0, gpu_accesses = 0;
  std::vector<uint32_t> blocks;    // blocks compared: recorded by both
  std::vector<std::string> differences;  // the first few accesses one side has and the other lacks
  std::vector<GroupingRow> grouping;     // every (line, kind, allocation), grouping differences first
  uint64_t grouping_differences = 0;     // rows whose instruction counts differ
  std::vector<WarpOpRow> warp_ops;       // every (line, op) either side recorded, differences first
  uint64_t warp_op_differences = 0;      // rows whose lanes differ (the calls' grouping may)
  // "" or which side's trace is incomplete (a record buffer that filled up): then the two cannot
  // be identical, and the differences say nothing about the model.
  std::string incomplete;
};

Crosscheck crosscheck(const Trace& emu, const Trace& gpu, size_t max_differences = 10);

std::string format_crosscheck(const Crosscheck& c);

}  // namespace ws::analysis
