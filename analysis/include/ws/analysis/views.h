// warpscope analysis — the numbers behind the viewer's pictures, arranged the way the pictures
// draw them (the viewer computes nothing of its own; see analysis.h).
//
//   block_events(trace, b)          the index range of block b's events (they are contiguous)
//   block_timeline(trace, b, mode)  divergence timeline: a column per issue step, barriers aligned
//   bank_rows(trace, filter)        bank x instruction matrix: distinct words per bank, per shared
//                                   warp instruction, in issue order
//   element_counts(trace, a, ...)   accesses per element of one allocation up to an event
//                                   (the memory heatmap, and its playback)
//
// Example: the sequential-addressing reduction (256 threads, 8 warps) gives a timeline where the
// columns between two barriers hold the warps' instructions side by side; at s = 128 only warps
// 0..3 have instructions there, at s = 64 warps 0..1, ...: the "clean halving".
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "ws/analysis/instruction.h"
#include "ws/trace/trace.h"

namespace ws::analysis {

// [first, last) indices into trace.events of block `block` (empty range if it was not recorded).
std::pair<size_t, size_t> block_events(const Trace& trace, uint32_t block);

enum class TimelineMode : uint8_t {
  // x = the warp's own issue steps, restarted at every __syncthreads(): step k after barrier j of
  // every warp is in the same column, and each barrier is one column shared by all warps. A warp
  // that reached a barrier in several divergent groups (Volta+: one GPU record per group, same
  // site, disjoint masks, nothing in between) has them all in that one column.
  AlignedSteps = 0,
  // x = the block's issue clock (Event::time ranked): the order in which the emulator (or the
  // GPU) actually issued the warps' instructions, one at a time.
  IssueClock = 1,
  // x = real time (GPU traces: %globaltimer ns of each record, the block's first record at 0),
  // binned into columns of BlockTimeline::ns_per_column (1, 2 or 5 x 10^k ns, at most
  // kMaxTimeColumns columns). A block runs on one SM, so this is that SM's time line.
  Time = 2,
};
inline constexpr uint32_t kMaxTimeColumns = 2000;

struct TimelineEntry {
  uint64_t event = 0;   // index in trace.events
  uint32_t column = 0;  // x position in columns
};

struct BlockTimeline {
  uint32_t block = 0;
  uint32_t warps = 0;     // warps of the block (launch.block / 32, rounded up)
  uint32_t columns = 0;   // total width
  std::vector<std::vector<TimelineEntry>> per_warp;  // per warp: instructions and barriers in order
  std::vector<uint32_t> barrier_columns;             // ascending; AlignedSteps: one per barrier
  std::vector<uint32_t> live_lanes;                  // per warp (partial last warp < 32)
  // Time mode: the block's first record time and the width of a column.
  uint64_t time0 = 0;
  uint64_t ns_per_column = 0;
  // Whole block: active lanes / (32 x instructions) over Access, WarpSync and Fence events.
  uint64_t instructions = 0, active_lanes = 0;
  double simd_efficiency() const {
    return instructions ? double(active_lanes) / (32.0 * double(instructions)) : 0.0;
  }
};

BlockTimeline block_timeline(const Trace& trace, uint32_t block, TimelineMode mode = TimelineMode::AlignedSteps);

// A warp's lanes in the order a picture groups them: lanes active at the same instructions next
// to each other, at each of the warp's instructions in turn the active ones before the inactive
// ones, ties by lane number. What a divergent branch splits becomes solid blocks of rows:
//
//   if (lane % 2) a(); else b();   ->  0, 2, 4, ..., 30, 1, 3, ..., 31
//   (the if's lanes above, the else's below; without a split: 0, 1, ..., 31)
std::array<uint8_t, 32> grouped_lanes(const Trace& trace, const BlockTimeline& tl, uint32_t warp);

// One row of the bank-conflict heatmap: a shared-memory warp instruction.
struct BankRow {
  uint64_t event = 0;                  // index in trace.events
  std::array<uint8_t, 32> words{};     // distinct 4-byte words the bank served (0 = unused)
  std::array<uint8_t, 32> ways{};      // largest number of distinct words in one phase
  uint16_t wavefronts = 0, conflicts = 0;
};

struct EventFilter {
  int64_t block = -1;  // linear block index; -1 = every recorded block
  int64_t warp = -1;   // warp in the block; -1 = every warp
  int64_t site = -1;   // -1 = every site
};

// Shared-memory Access events (loads, stores, atomics) matching `filter`, in trace order.
std::vector<BankRow> bank_rows(const Trace& trace, const EventFilter& filter = {});

// Lane accesses per element of allocation `alloc` by the events in [first, last) of
// trace.events that match `filter` (block / warp). Element i counts a lane whose byte offset
// falls in element i; accesses past the extent are not counted (they are in the diagnostics).
//
// Also, per element: `conflicts`, summed over the shared-memory instructions that touched it, the
// number of OTHER words its bank had to serve in the same pass (bank ways - 1: 1 per access at
// stride 2, 0 with padding); and `first_touch`, the position (event index - first) of the first
// event that touched it, -1 when none did (with playback: the order the reduction tree folds in).
struct ElementCounts {
  uint32_t alloc = 0;
  std::vector<uint32_t> loads, stores, atomics;  // one per element
  std::vector<uint32_t> conflicts;               // one per element (0 for global arrays)
  std::vector<int64_t> first_touch;              // one per element, -1: untouched
  // Atomic contention: per element, the lane updates that waited behind another lane of the same
  // atomic instruction on that element (k lanes on one element in one instruction add k - 1).
  std::vector<uint32_t> contention;
  uint32_t max_total = 0;                        // largest loads+stores+atomics of one element
  uint32_t max_conflicts = 0;
  int64_t max_first_touch = -1;
  uint32_t max_contention = 0;
  uint32_t max_atomics = 0;  // most atomic lane updates on one element (0: no atomic touched it)
  uint32_t total(size_t i) const { return loads[i] + stores[i] + atomics[i]; }
};
ElementCounts element_counts(const Trace& trace, uint32_t alloc, size_t first, size_t last,
                             const EventFilter& filter = {});

// Global access (the access map's sector strip): which bytes of each touched 32-byte sector the
// active lanes use; bit b = byte b of the sector. Parallel to m.global.sector_addresses.
// popcount of all masks = bytes_unique; sectors x 32 = bytes_moved.
std::vector<uint32_t> sector_byte_masks(const InstructionMetrics& m);

// What one memory instruction costs beyond the ideal, in the unit of its kind: shared bank
// conflicts (wavefronts past one per phase), global sectors past the fewest that hold the bytes
// asked for (a coalesced 4-byte load: 0; a column walk: 28), an atomic's lanes waiting on the same
// address. 0 for an instruction that costs nothing extra.
uint64_t excess_cost(const InstructionMetrics& m);
// The selected warp's costliest memory instruction in `block` (the picture a lesson is about when
// nothing else names it), or -1 when none costs anything extra.
int64_t costliest_access(const Trace& trace, uint32_t block, uint32_t warp);

// The element index of lane_offset in `a` (offset / elem_size).
inline uint64_t element_of(const Allocation& a, uint64_t lane_offset) {
  return a.elem_size ? lane_offset / a.elem_size : lane_offset;
}

}  // namespace ws::analysis
