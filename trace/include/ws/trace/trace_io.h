// Saving and loading traces, and exporting them for other tools.
//
//   if (std::string err = ws::save_trace(trace, "reduce.wst"); !err.empty()) report(err);
//   ws::LoadResult r = ws::load_trace("reduce.wst");
//   if (!r.ok()) report(r.error);   // "reduce.wst: damaged trace file: checksum mismatch ..."
//
// The .wst format (version 1), little-endian:
//   header  : "WSTRACE\0" | u32 version | u32 0x01020304 | u64 payload bytes | u64 FNV-1a of payload
//   payload : launch | allocations | sites | events | lane offsets | diagnostics | recording state
// Strings are u32 length + bytes; every count is checked against the bytes left before anything
// is allocated, and every index (site, allocation, lane range) is checked after loading, so a
// damaged or foreign file gives a clear error, never a crash.
#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "ws/trace/trace.h"

namespace ws {

std::string save_trace(const Trace& t, const std::filesystem::path& path);  // "" on success

struct LoadResult {
  Trace trace;
  std::string error;  // empty when the load succeeded
  bool ok() const { return error.empty(); }
};
LoadResult load_trace(const std::filesystem::path& path);

// The same, in memory (what the file functions use; handy for tests and fuzzing).
std::string serialize_trace(const Trace& t);
LoadResult deserialize_trace(const std::string& bytes);
// What follows a file's header (its checksum already right), in the current format: the part a
// damaged file can get wrong past the checksum; the fuzz target feeds it (tests/fuzz).
LoadResult deserialize_trace_payload(const std::string& payload);

// Warp memory instructions as JSON: one object per instruction with its lanes, threads, elements
// and addresses. Written atomically.
std::string export_json(const Trace& t, const std::filesystem::path& path);
std::string to_json(const Trace& t);

// The per-warp timelines of a run's launches as Chrome trace JSON (open it in Perfetto or
// chrome://tracing): one process per launch and block, one thread per warp, one slice per issued
// instruction. Its time axis says what it is: GPU traces in nanoseconds of %globaltimer, emulator
// traces in issue steps (written as microseconds, and named so in each process and in otherData).
std::string export_chrome_trace(std::span<const Trace> launches, const std::filesystem::path& path);
std::string to_chrome_trace(std::span<const Trace> launches);
std::string to_chrome_trace(const Trace& t);

}  // namespace ws
