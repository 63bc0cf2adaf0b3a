// warpscope analysis — Trace -> Report: metrics per warp instruction, per source site, per warp and
// per launch; shared-memory hazards; the trace's diagnostics. Plain C++, no GPU, no GL.
//
// The viewer computes nothing of its own: every number it shows is in a Report (or in
// metrics_of(), instruction.h, for the selected instruction's lane/word/sector detail).
//
// Example (CUB style):
//
//     ws::Trace trace = ...;                         // from the emulator or the GPU recorder
//     ws::analysis::Options opt;                     // all recorded blocks, hazards on
//     ws::analysis::Report r = ws::analysis::analyze(trace, opt);
//     r.totals.shared[ws::analysis::kLd].conflicts;  // == ncu l1tex__data_bank_conflicts_..._op_ld.sum
//     for (const auto& s : r.sites) ...;             // one row per (site, allocation, kind)
//     std::puts(ws::analysis::format_table(r).c_str());
//     std::string json = ws::analysis::to_json(r);   // format: analysis/README.md
//
// For the interleaved-addressing reduction (`index = 2*s*tid; sdata[index] += sdata[index+s]`,
// 4-byte int, 256 threads) the warp-0 load of sdata[index] at s = 1 has lanes on words 0, 2, 4, ...
// -> banks 0, 2, ..., 30 each twice -> 2 wavefronts, 1 conflict (2-way); at s = 2 words 0, 4, 8, ...
// -> 4-way (4 wavefronts, 3 conflicts); s = 4 -> 8-way (words 8*tid: banks 0, 8, 16, 24 x 8 words).
// From s = 32 on fewer than 8 lanes are active, so the ways drop again (4, 2, 1).
//
// Counting decisions (details in analysis/README.md):
//   - Instructions for divergence/SIMD efficiency: Access, WarpSync and Fence events (the trace
//     records memory and warp-synchronous instructions, not arithmetic).
//     simd_efficiency = mean active lanes / 32; simd_efficiency_live = mean active lanes / live
//     lanes of the warp (differs only for a partial last warp).
//   - Atomics are counted apart from loads and stores, as Nsight Compute does (op_atom metrics).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ws/analysis/hazards.h"
#include "ws/analysis/instruction.h"
#include "ws/trace/trace.h"

namespace ws::analysis {

// Index by AccessKind: counters[kLd], counters[kSt], counters[kAtom].
inline constexpr int kLd = 0, kSt = 1, kAtom = 2;

struct Options {
  // Linear block indices to analyze; empty = every recorded block. Blocks not in the trace are
  // ignored (listed in Report::missing_blocks).
  std::vector<uint32_t> blocks;
  bool hazards = true;  // shared-memory hazard detection (the costliest part)
  // Per word of shared memory and barrier interval, how many distinct (thread, site) readers are
  // remembered for WAR detection. Beyond it, the oldest reader is forgotten (counts become lower
  // bounds; a hazard is still reported if any remembered reader conflicts).
  uint32_t max_readers_per_word = 64;
  bool per_event = true;  // fill Report::events (one EventSummary per trace event)
  // Memory heatmap resolution: at most this many bins per allocation (1 element per bin when the
  // allocation is small enough). 0 = no heatmap.
  uint32_t heat_bins = 4096;
};

struct SharedCounters {
  uint64_t instructions = 0;      // smsp__inst_executed_op_shared_{ld,st,atom}.sum
  uint64_t wavefronts = 0;        // l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*.sum
  uint64_t ideal_wavefronts = 0;
  uint64_t conflicts = 0;         // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*.sum
  uint64_t lane_accesses = 0;     // active lanes summed
  uint64_t bytes = 0;             // lane accesses x width
  uint32_t max_ways = 0;          // worst n-way conflict seen
};

struct GlobalCounters {
  uint64_t instructions = 0;      // smsp__inst_executed_op_global_{ld,st}.sum
  uint64_t requests = 0;          // l1tex__t_requests_pipe_lsu_mem_global_op_*.sum
  uint64_t sectors = 0;           // l1tex__t_sectors_pipe_lsu_mem_global_op_*.sum
  uint64_t lines = 0;             // 128-byte lines (per instruction, summed)
  uint64_t lane_accesses = 0;
  uint64_t bytes_requested = 0;   // lane accesses x width
  uint64_t bytes_moved = 0;       // sectors x 32
  double efficiency() const { return bytes_moved ? double(bytes_requested) / double(bytes_moved) : 0.0; }
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
};

struct AtomicCounters {
  uint64_t instructions = 0;
  uint64_t lane_accesses = 0;
  uint64_t serialized = 0;        // sum over instructions of max_same_address
  uint32_t max_same_address = 0;  // worst instruction
  uint64_t distinct_addresses = 0;
  // Per sector, the most lanes on one address in it, summed: Nsight Compute's atomic sectors, of
  // the atomics as the source writes them (one update a lane).
  uint64_t sector_passes = 0;
  // The same as nvcc compiles them: a warp-uniform integer atomic is one lane's update after a
  // warp reduction (compiler_aggregates, instruction.h), one pass. What Nsight Compute counts.
  uint64_t compiled_sector_passes = 0;
  uint64_t aggregated_instructions = 0;  // the warp instructions nvcc makes one lane's
};

struct DivergenceCounters {
  uint64_t instructions = 0;      // Access + WarpSync + Fence events
  uint64_t active_lanes = 0;      // summed
  uint64_t live_lanes = 0;        // summed (lanes that exist in the issuing warp)
  uint64_t splits = 0, reconverges = 0, switches = 0;
  double avg_active_lanes() const { return instructions ? double(active_lanes) / double(instructions) : 0.0; }
  double simd_efficiency() const {
    return instructions ? double(active_lanes) / (32.0 * double(instructions)) : 0.0;
  }
  double simd_efficiency_live() const {
    return live_lanes ? double(active_lanes) / double(live_lanes) : 0.0;
  }
};

struct Totals {
  std::array<SharedCounters, 3> shared{};  // by kLd / kSt / kAtom
  std::array<GlobalCounters, 3> global{};
  AtomicCounters atomics_shared, atomics_global;
  DivergenceCounters divergence;
  uint64_t events = 0, accesses = 0, barriers = 0, warp_syncs = 0, fences = 0;
  uint64_t hazards = 0;           // sum of Hazard::count, InterWarp + SameInstruction
  uint64_t lockstep_hazards = 0;  // sum of Hazard::count, IntraWarpLockstep
};

// Totals of several launches (a multi-pass run) or traces: every counter summed, the worst-case
// fields (max_ways, max_same_address) as the maximum.
Totals& operator+=(Totals& a, const Totals& b);

// One row per (site, allocation, kind): `sdata[tid] += sdata[tid+s]` gives a Load row and a Store
// row for the `sdata[tid]` site.
struct SiteMetrics {
  uint32_t site = 0;
  uint32_t alloc = Event::kNoAlloc;
  MemSpace space = MemSpace::Global;
  AccessKind kind = AccessKind::Load;
  uint32_t width = 0;               // bytes per lane (largest seen)
  uint64_t instructions = 0;        // warp instructions issued here (= requests for global)
  uint64_t lane_accesses = 0;       // == active lanes summed
  uint64_t live_lanes = 0;
  double avg_active_lanes() const { return instructions ? double(lane_accesses) / double(instructions) : 0.0; }
  double simd_efficiency() const {
    return instructions ? double(lane_accesses) / (32.0 * double(instructions)) : 0.0;
  }
  // shared
  uint64_t wavefronts = 0, ideal_wavefronts = 0, conflicts = 0;
  uint32_t max_ways = 0;
  std::array<uint64_t, 32> bank_words{};   // summed SharedMetrics::bank_words (heatmap: load)
  std::array<uint64_t, 32> bank_excess{};  // summed max(0, bank_ways - 1) (heatmap: conflicts)
  // global
  uint64_t sectors = 0, lines = 0, bytes_requested = 0, bytes_moved = 0;
  double efficiency() const { return bytes_moved ? double(bytes_requested) / double(bytes_moved) : 0.0; }
  // atomics
  uint64_t serialized = 0;
  uint32_t max_same_address = 0;
  // divergence: warps whose mask narrowed / widened / switched at this site
  uint64_t splits = 0, reconverges = 0, switches = 0;
};

// Divergence per source site for every instruction kind (also shuffles, votes, __syncwarp).
struct SiteDivergence {
  uint32_t site = 0;
  uint64_t instructions = 0, active_lanes = 0, live_lanes = 0;
  uint64_t splits = 0, reconverges = 0, switches = 0;
  double simd_efficiency() const {
    return instructions ? double(active_lanes) / (32.0 * double(instructions)) : 0.0;
  }
};

struct WarpMetrics {
  uint32_t block = 0;
  uint32_t warp = 0;
  uint32_t live_lanes = 0;  // lanes that exist in this warp
  uint64_t instructions = 0, active_lanes = 0;
  uint64_t splits = 0, reconverges = 0, switches = 0;
  uint64_t barriers = 0;
  double simd_efficiency() const {
    return instructions ? double(active_lanes) / (32.0 * double(instructions)) : 0.0;
  }
  double simd_efficiency_live() const {
    return instructions && live_lanes ? double(active_lanes) / (double(live_lanes) * double(instructions)) : 0.0;
  }
};

// Per source line (the source view's gutter): the sums of every site row on that line.
struct LineMetrics {
  std::string file;
  uint32_t line = 0;
  uint64_t instructions = 0;   // every instruction kind (memory, shuffles, votes, __syncwarp)
  uint64_t lane_accesses = 0;  // memory accesses only
  uint64_t shared_wavefronts = 0, shared_conflicts = 0;
  uint64_t global_requests = 0, global_sectors = 0, global_bytes_requested = 0, global_bytes_moved = 0;
  uint64_t splits = 0, reconverges = 0, switches = 0;
  uint64_t hazards = 0;           // Hazard::count of inter-warp/same-instruction hazards touching the line
  uint64_t lockstep_hazards = 0;  // same, intra-warp lockstep
};

// Memory heatmap of one allocation: lane accesses per bin of `elements_per_bin` consecutive
// elements (bin i covers elements [i*elements_per_bin, (i+1)*elements_per_bin)). Accesses beyond
// the extent land in the last bin.
struct AllocationHeat {
  uint32_t alloc = 0;
  uint64_t elements_per_bin = 1;
  std::vector<uint32_t> loads, stores, atomics;  // one entry per bin
};

// Compact per-event numbers for timelines and heatmaps (index = index in Trace::events).
struct EventSummary {
  uint16_t wavefronts = 0;   // shared
  uint16_t conflicts = 0;    // shared
  uint16_t sectors = 0;      // global
  uint16_t lines = 0;        // global
  uint8_t active_lanes = 0;
  uint8_t max_same_address = 0;  // atomics
  MaskTransition transition = MaskTransition::First;
  bool analyzed = false;     // false: the event's block was not selected, or not an instruction
};

// Whole-launch numbers from the backend's per-site counters ("count every block": gpu-trace counts
// on the device, the emulator in its scheduler): every block of the launch went through them,
// recorded in full or not, so these are the numbers Nsight Compute reports for the kernel, even
// when only a few blocks were recorded. They hold what
// the device counts per (site, memory space, kind): warp instructions, active lanes, shared
// wavefronts and their ideal, global sectors and 128-byte lines. Not counted there (left 0): the
// allocation, max_ways and the bank-by-bank detail, atomics' contention, divergence transitions.
//
//     Report r = analyze(trace);                  // trace from gpu-trace, blocks {0} in full
//     if (r.grid.present)
//       r.grid.shared[kLd].conflicts;             // every block, not only block 0
//
// Empty (present == false) with --no-counters, and for the emulator when every block is recorded
// in full (Report::totals is then already the whole grid).
struct GridCounters {
  bool present = false;
  uint64_t blocks = 0;                      // blocks counted (the launch's)
  std::array<SharedCounters, 3> shared{};   // by kLd / kSt / kAtom
  std::array<GlobalCounters, 3> global{};
  uint64_t instructions = 0, lane_accesses = 0;  // memory instructions only
  double simd_efficiency() const {
    return instructions ? double(lane_accesses) / (32.0 * double(instructions)) : 0.0;
  }
  std::vector<SiteMetrics> sites;  // one per (site, space, kind), sorted like Report::sites
};

// The grid counters of a trace (present == false when it has none). analyze() fills Report::grid
// with it.
GridCounters grid_counters(const Trace& trace);

struct Report {
  // Copied from the trace so the report stands alone (table, JSON, UI).
  LaunchInfo launch;
  std::vector<Site> site_table;
  std::vector<Allocation> allocations;
  std::vector<uint32_t> blocks;          // blocks analyzed, ascending
  std::vector<uint32_t> missing_blocks;  // asked for in Options::blocks but not recorded
  uint64_t total_blocks = 0;
  bool truncated = false;
  uint64_t dropped_events = 0;
  bool hazards_checked = false;

  Totals totals;
  std::vector<SiteMetrics> sites;           // sorted by (file, line, rank, alloc, kind)
  std::vector<SiteDivergence> divergence;   // per site with any instruction, sorted like sites
  std::vector<LineMetrics> lines;           // per source line with any instruction, sorted (file, line)
  std::vector<AllocationHeat> heat;         // per allocation (index = allocation index)
  std::vector<WarpMetrics> warps;           // per (block, warp) analyzed
  std::vector<EventSummary> events;         // parallel to Trace::events (if Options::per_event)
  std::vector<Hazard> hazards;              // InterWarp and SameInstruction first, then lockstep
  std::vector<ElementHazards> hazard_elements;  // per (alloc, element) with a pair, sorted so
  std::vector<Diagnostic> diagnostics;      // the trace's, plus the analysis's own (truncation)
  GridCounters grid;                        // the device's counters of every block, if any
};

Report analyze(const Trace& trace, const Options& options = {});

// Totals under Nsight Compute metric names (in a fixed order), e.g.
// {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 31}.
std::vector<std::pair<std::string, double>> ncu_metrics(const Report& report);
// The same names for the whole grid's counters (GridCounters).
std::vector<std::pair<std::string, double>> ncu_metrics(const GridCounters& grid);

// "file:line" of a site, or "?" for an unknown index.
std::string site_location(const Report& report, uint32_t site);

// Readable text: totals, per-site rows, divergence, hazards, diagnostics.
std::string format_table(const Report& report);

// The JSON document described in analysis/README.md.
std::string to_json(const Report& report);

}  // namespace ws::analysis
