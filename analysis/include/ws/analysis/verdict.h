// What one run comes to, in one word and one sentence: the verdict every part of warpscope shows
// (the labs' badge, `warpscope run`, its JSON) so that a kernel that is broken on purpose looks
// broken everywhere, with the same words.
//
//   FAULT          a launch stopped before its end (an out-of-bounds index, barrier divergence)
//   RACE           threads of different warps (or lanes of one instruction) touch the same shared
//                  word, one writes, no barrier between: wrong on any GPU, even when the result
//                  happened to come out right
//   FAIL           the result differs from the CPU reference
//   LOCKSTEP ONLY  right, but only while a warp's lanes run in lockstep: lanes of one warp share a
//                  word without __syncwarp() between (Volta and later need it, and volatile)
//   PASS           none of these
//
//   RunVerdict v = verdict(result.completed, result.passed, reports);
//   // v.word == "RACE", v.sentence == "thread (0,0,0) writes cache[1] at race.cuh:41, thread
//   // (32,0,0) reads it at race.cuh:42: different warps, no __syncthreads() between"
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ws/analysis/analysis.h"

namespace ws::analysis {

enum class Verdict : uint8_t { Pass = 0, LockstepOnly = 1, Fail = 2, Race = 3, Fault = 4 };
const char* to_string(Verdict);  // "PASS", "LOCKSTEP ONLY", "FAIL", "RACE", "FAULT"

struct RunVerdict {
  Verdict verdict = Verdict::Pass;
  const char* word = "PASS";
  std::string sentence;       // the first hazard pair, or why it failed; "" for a plain PASS
  uint64_t races = 0;         // conflicting pairs: different warps or one instruction
  uint64_t lockstep = 0;      // conflicting pairs inside a warp
  const Hazard* first = nullptr;  // the hazard the sentence names (in one of the reports)
  bool ok() const { return verdict == Verdict::Pass; }
};

// `reports` come from analyze() with hazards on, one per launch of the run. `run_errors` are the
// run's own (RunResult::errors): why a run that recorded no launch stopped (the run process
// crashed, its time ran out), the sentence when no launch names an error.
RunVerdict verdict(bool completed, bool passed, std::span<const Report> reports,
                   std::span<const Diagnostic> run_errors = {});

// "thread (0,0,0) writes cache[1] at race.cuh:41, thread (32,0,0) reads it at race.cuh:42:
// different warps, no __syncthreads() between".
std::string hazard_sentence(const Report& report, const Hazard& h);

}  // namespace ws::analysis
