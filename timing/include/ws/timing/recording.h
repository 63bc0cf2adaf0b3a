// Timings kept as a file: the tables `warpscope bench` measured on a GPU (the lecture's reduction
// table, any kernel's table), the card, the date and the command, so that a machine without a GPU
// shows time, labelled as a recording, where it would otherwise count barriers.
//
//   warpscope bench -k transpose --save assets/timing/transpose_h200.json     # on the GPU
//   ws::timing::TimingRecording r;
//   std::string err = ws::timing::load_timing_recording(path, r);            // "" or what is wrong
//   if (const auto* t = r.kernel_table("transpose")) draw(*t);
//
// The JSON field lists here are the only ones: `bench --json` prints the same records.
#pragma once

#include "ws/timing/timing.h"

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace ws::timing {

struct TimingRecording {
  std::string device;    // "NVIDIA H200"
  std::string recorded;  // "2026-11-28 15:02 UTC"
  std::string command;   // "warpscope bench -k transpose --save ..."
  std::vector<ReductionTable> reductions;
  std::vector<KernelTable> kernels;
  // The reduction table nearest in size to `n` (log scale), or null.
  const ReductionTable* reduction_table(uint64_t n) const;
  // `kernel`'s table (the first), or null.
  const KernelTable* kernel_table(const std::string& kernel) const;
};

// The records as JSON, and back (from_json throws nlohmann::json::exception on a missing or
// mistyped field).
nlohmann::json to_json(const ReductionTable& t);
nlohmann::json to_json(const KernelTable& t);
nlohmann::json to_json(const Device& d);
nlohmann::json to_json(const Ceilings& c);
ReductionTable reduction_table_from_json(const nlohmann::json& j);
KernelTable kernel_table_from_json(const nlohmann::json& j);

// Writes `r` to `path` atomically. "" or why not.
std::string save_timing_recording(const std::filesystem::path& path, const TimingRecording& r);
// Reads `path` (a regular file of at most 16 MiB). "" or what is wrong with it.
std::string load_timing_recording(const std::filesystem::path& path, TimingRecording& r);

// The recordings that ship with warpscope (assets/timing/*.json), each loaded; a damaged one is
// skipped with its error in `errors` when given.
std::vector<TimingRecording> shipped_timing_recordings(std::vector<std::string>* errors = nullptr);

}  // namespace ws::timing
