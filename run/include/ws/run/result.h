// What a run gives back: the verdict of its check, one trace per launch (recording backends),
// the faults that stopped it, and (gpu-fast) its timing.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ws/trace/trace.h"

namespace ws {

struct TimingOptions;
struct RunTiming;

// A timed run's GPU work kept on the device (its allocations and launches, in order): timing it
// again costs only the replays. Made by gpu-fast with TimingOptions::keep; frees its memory when
// the last copy goes. Thread-safe (takes the GPU like any run).
class Replay {
 public:
  virtual ~Replay() = default;
  // Times `o.reps` replays after `o.warmup`, as the run did. False with `error` when it cannot
  // (the device was reset since, a replay failed).
  virtual bool time(const TimingOptions& o, RunTiming& out, std::string& error) = 0;
};

// What timing measured: one sample per replay of the whole run's GPU work.
struct RunTiming {
  std::vector<double> ms;  // one per timed replay
  unsigned launches = 0;   // kernel launches + library calls per replay
  // Bytes the run must move at least: every global allocation once (inputs read, outputs
  // written), scratch space excluded. The lecture's GB/s for a reduction is n * sizeof(T) / time.
  uint64_t bytes = 0;
  // Arithmetic of one run as the kernel's spec counts it (TimingSpec::flops; 0: not counted). Set
  // by warpscope's run process, which has the spec's code, for the process that asked.
  double flops = 0;
  std::shared_ptr<Replay> replay;  // with TimingOptions::keep
};

// A value the run's check compared, as the kernel left it: the bytes of a host array of
// `elem_size`-byte elements of type `type` ("int", "float"). Tests read it back (value<T>) and
// compare it with what they compute themselves from the kernel's host reference.
struct CheckedValue {
  std::string type;
  uint32_t elem_size = 0;
  std::vector<uint8_t> bytes;
};

struct RunResult {
  std::string refused;           // non-empty: nothing ran; says why (a limit, a constraint)
  bool completed = false;        // every launch ran to its end without a fault
  bool passed = false;           // the result matched the CPU reference
  std::string result;            // "sum = 2097152"
  std::string expected;          // "sum = 2097152"
  std::string check;             // how it was checked: "exact (int)", "|err| <= 3.1e-3 ..."
  // What the check compared, by name ("sum", "y"), as the kernel computed it.
  std::vector<std::pair<std::string, CheckedValue>> checked;
  std::vector<Trace> launches;   // one per kernel launch, in order (recording backends)
  std::vector<Diagnostic> errors;  // faults that stopped a launch, and backend errors
  std::vector<std::string> notes;  // e.g. "the grid was capped at 1024 blocks"
  RunTiming timing;                // gpu-fast with RunConfig::timing.reps > 0
  // emu: wall time of the emulator's launches themselves (the blocks, the merge of their
  // records), without making the inputs, the CPU reference and the check.
  double emulate_seconds = 0;

  // The checked value `name` as elements of T (empty when there is none of that name and size).
  template <class T>
  std::vector<T> value(const std::string& name) const {
    for (const auto& [n, v] : checked)
      if (n == name && v.elem_size == sizeof(T)) {
        std::vector<T> out(v.bytes.size() / sizeof(T));
        if (!out.empty()) std::memcpy(out.data(), v.bytes.data(), out.size() * sizeof(T));
        return out;
      }
    return {};
  }
};

}  // namespace ws
