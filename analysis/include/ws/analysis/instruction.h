// warpscope analysis — metrics of ONE warp memory instruction of a trace.
//
// The counting rules themselves are in ws/rules (shared_banks.h, global_sectors.h,
// atomic_contention.h), shared with the emulator, which counts with them as it runs; here they are
// applied to a trace's event (its lanes' addresses from the allocation table) and joined with what
// only a trace knows: the warp's previous instruction (how its mask changed) and the live lanes
// of a partial warp. The views draw from this directly (the access map's "a row per wavefront",
// the sector strip), and analyze() (analysis.h) sums the rules per site and per launch.
//
//     const ws::Event& e = trace.events[i];
//     auto m = ws::analysis::metrics_of(trace, e);
//     if (m.space == ws::MemSpace::Shared)
//       for (const auto& w : m.shared.words) draw_cell(w.wavefront, w.bank, w.lanes);
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "ws/rules/atomic_contention.h"
#include "ws/rules/global_sectors.h"
#include "ws/rules/shared_banks.h"
#include "ws/trace/trace.h"

namespace ws::analysis {

// How a warp's active mask changed from its previous instruction (Access, WarpSync or Fence
// events; barriers are not instructions here).
enum class MaskTransition : uint8_t {
  First = 0,       // the warp's first instruction in the trace
  Same = 1,        // same mask
  Split = 2,       // proper subset of the previous mask: the warp diverged here
  Reconverge = 3,  // proper superset: lanes rejoined here
  Switch = 4,      // neither (e.g. the else-path after the if-path: 0xaaaaaaaa -> 0x55555555)
};
const char* to_string(MaskTransition);
MaskTransition classify_transition(uint32_t previous_mask, uint32_t mask);

// Everything a view needs about one event. For non-Access events only the first block is filled.
struct InstructionMetrics {
  uint64_t event = 0;          // index in Trace::events (or ~0 if the event is not in the trace)
  uint32_t active_lanes = 0;   // popcount(mask)
  uint32_t live_lanes = 0;     // lanes of this warp that exist (partial last warp of a block)
  uint32_t previous_mask = 0;  // mask of the warp's previous instruction (0 if First)
  MaskTransition transition = MaskTransition::First;

  bool is_access = false;
  MemSpace space = MemSpace::Global;
  AccessKind kind = AccessKind::Load;
  uint32_t width = 0;
  // Byte address per lane (allocation base + lane offset); 0 for inactive lanes.
  std::array<uint64_t, 32> lane_address{};

  rules::SharedMetrics shared;  // filled for shared accesses
  rules::GlobalMetrics global;  // filled for global accesses
  rules::AtomicMetrics atomic;  // filled for atomics (both spaces)
  // A global atomic that nvcc compiles as one lane's atomic after a warp reduction
  // (compiler_aggregates): one update and one sector pass, where the source asks for one a lane.
  bool compiler_aggregated = false;
};

// Whether nvcc (sm_80 and later) issues this warp's global atomic as ONE lane's RED/ATOM after a
// warp reduction (SASS: VOTEU.ANY, UFLO, REDUX, then one lane's REDG), as Nsight Compute counts it:
// an integer add, sub, min, max, and, or or xor of 4-byte elements, every active lane (two or
// more) on one address. Floating-point adds, exchanges, CAS and inc/dec are issued lane by lane.
// `distinct_addresses` is the instruction's (rules::atomic_contention).
bool compiler_aggregates(const Trace& trace, const Event& e, uint32_t distinct_addresses);

// Lanes of `warp` that exist in a block of launch.block threads (32 except for a partial last warp).
uint32_t live_lanes(const Trace& trace, uint32_t warp);

// Full metrics of one event of `trace` (the event must be an element of trace.events for
// previous_mask/transition to be filled; otherwise they stay First/0).
InstructionMetrics metrics_of(const Trace& trace, const Event& event);

}  // namespace ws::analysis
