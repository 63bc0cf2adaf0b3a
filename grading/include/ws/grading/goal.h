// An exercise's goals, in the analysis' own terms, and how a run measures up to them: what a
// course grades ("line 14 still has a 4-way bank conflict"), not only whether the result is right.
//
// A goal names a metric, a bound and optionally a scope (the array, the lines, the kind of
// access it is about). grade() measures each on a run's reports and says whether it holds, with
// the value, where (the worst line) and a sentence for the student:
//
//     ws::grading::Goal g;
//     g.metric = ws::grading::Metric::BankConflicts;  // "bank_conflicts" in an exercise file
//     g.scope.array = "sdata";
//     g.max = 0;
//     std::vector<ws::analysis::Report> reports = ...;  // one per launch of the run, hazards on
//     std::vector<ws::grading::GoalResult> r = ws::grading::grade({g}, run, reports);
//     // reduction step 2 (index = 2*s*tid), 256 threads, n = 4096:
//     // r[0].held == false, r[0].value == 11 * 16 ... , r[0].line == the tree step's line,
//     // r[0].detail == "line 27: 8-way bank conflicts (sdata[index] += sdata[index + s])"
//
// Counting follows analysis.h: conflicts and ways over shared loads, stores and atomics;
// sectors per request per global site (the worst site in scope); SIMD efficiency over the memory
// and warp-synchronous instructions in scope; races and lockstep races are hazard pairs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ws/analysis/analysis.h"
#include "ws/run/result.h"

namespace ws::grading {

enum class Metric {
  BankConflicts,      // shared-memory bank conflicts, summed in scope
  BankWays,           // the worst n-way shared-memory conflict in scope (1: none)
  SectorsPerRequest,  // global memory: sectors / requests of the worst site in scope
  SimdEfficiency,     // percent of lanes active, over the instructions in scope
  Races,              // hazard pairs between warps (or lanes of one instruction)
  LockstepRaces,      // hazard pairs inside a warp with no __syncwarp() between
  BarrierDivergence,  // barriers that some threads of a block skipped
  GlobalAtomics,      // atomic lane accesses on global memory, in scope
  Result,             // the run's check against the reference passes
  GpuTime,            // on a CUDA GPU: the kernel's median time over a copy (or read) of its bytes
};

// The metrics by name, for exercise files and their errors: "bank_conflicts", ...
struct MetricInfo {
  Metric metric;
  const char* name;
  const char* what;       // "bank conflicts"
  bool percent = false;   // measured and bounded in percent
  bool scoped = false;    // array / line / access narrow it
  bool gpu = false;       // measured on a CUDA GPU (gpu-fast), not on the emulator's run
};
std::span<const MetricInfo> metrics();
const MetricInfo& info(Metric m);
std::optional<Metric> metric_named(const std::string& name);
std::string metric_names();  // "bank_conflicts, bank_ways, ..." (for "allowed: ...")

// What part of the kernel a goal is about; empty fields: all of it.
struct Scope {
  std::string array;        // an allocation's name as written ("sdata", "tile")
  std::string line_text;    // lines of the graded file that contain this text
  uint32_t line_number = 0; // or one line, by number
  std::string access;       // "load", "store", "atomic" or ""
};

struct Goal {
  Metric metric = Metric::Result;
  Scope scope;
  std::optional<double> max, min;  // Result has neither
  std::string says;                // what it asks, in the exercise's words
  // GpuTime: the ceiling it is held against ("copy": a device-to-device copy of the run's bytes;
  // "read": a read-only stream of them) and the size timed (0: the launch's n).
  std::string of = "copy";
  uint64_t n = 0;
};

// A GPU goal's measurement (the app times the kernel; this library only judges).
struct GpuTime {
  bool ok = false;
  std::string why_not;     // "no CUDA device (...)", a refusal, a fault
  double ms = 0;           // the kernel's median time
  double ceiling_ms = 0;   // the same bytes at the ceiling's rate
  uint64_t bytes = 0;
};

struct GoalResult {
  bool held = false;
  bool measured = false;    // false: nothing in scope ran (the value is not there to judge)
  double value = 0;
  std::string value_text;   // "3", "87.5%", "8 sectors / request", "PASS"
  std::string bound_text;   // "<= 0", ">= 90%"
  uint32_t line = 0;        // the line that shows why (the worst one), 0: none
  std::string file;         // its file
  std::string detail;       // "line 27: 8-way bank conflicts (sdata[index] += sdata[index + s])"
  bool skipped = false;     // not graded on this machine (a GPU goal where there is no GPU)
};

// Measures every goal on `run` (its reports: one per launch, analysed with hazards on). A goal
// scoped by line text matches the sites whose source line contains it.
// A GpuTime goal is judged on `gpu` (one per GpuTime goal, in their order): none there, the goal
// is skipped (no GPU here: counted neither way); one that is not ok fails, saying why.
std::vector<GoalResult> grade(std::span<const Goal> goals, const RunResult& run,
                              std::span<const analysis::Report> reports, std::span<const GpuTime> gpu = {});

// The bound as text: "<= 0", ">= 90%", "passes".
std::string bound_text(const Goal& g);

}  // namespace ws::grading
