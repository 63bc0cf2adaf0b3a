// warpscope analysis — shared-memory hazards (what compute-sanitizer's racecheck reports), and
// the same rules for global memory between the threads of one block (racecheck does not look
// there: `*sum += x` from every thread of a block is a global race it leaves to the result).
// Global accesses of different blocks are not compared: blocks order their global work through
// fences and atomics (the last-block-done pattern), which a trace of one block cannot judge. Nor
// is a plain global load against another thread's atomic: the atomicCAS loop reads the word
// before it swaps, and tolerates a stale value by design.
//
// Two accesses of a block's shared memory form a hazard when they come from DIFFERENT threads,
// overlap in at least one byte, at least one of them writes, they are not both atomics, and no
// __syncthreads() separates them:
//   RAW  read after write   (a thread reads bytes another thread wrote)
//   WAR  write after read   (a thread overwrites bytes another thread read)
//   WAW  write after write  (two threads write the same bytes; also two lanes of ONE store)
// An atomic counts as a read and a write; atomic vs atomic is never a hazard.
//
// "No barrier between" is decided per warp: every Barrier event of a warp starts that warp's next
// barrier interval; two accesses can race only when they fall in the same interval (the k-th
// __syncthreads() of the block orders everything before it against everything after it).
//
// Scope (reported separately):
//   InterWarp          the threads are in different warps: a real race on every GPU.
//   SameInstruction    two lanes of one store/atomic-free instruction write the same bytes (WAW):
//                      which value lands is undefined.
//   IntraWarpLockstep  same warp, different instructions, and no __syncwarp() whose member mask
//                      covers both lanes issued between them: correct only if the warp runs in
//                      lockstep (pre-Volta, plus `volatile`); "needs __syncwarp/volatile on Volta+".
//                      The `volatile` flags (kFlagVolatile on the events) are reported with it.
//
// Hazards are aggregated by (kind, scope, earlier site, later site): a count of conflicting access
// pairs and one example (block, the two threads, the element, e.g. `cache[1]`), like racecheck.
//
// Example: the seeds' race — two threads in different warps, `cache[threadIdx.x] = x[...]` then
// `y[...] = cache[0] * cache[1]` with no barrier — gives one RAW InterWarp hazard, earlier site the
// store, later site the load, example element `cache[1]` (or `cache[0]`). With one
// __syncthreads() after the store, the RAW goes away and a WAR (next iteration's store against the
// previous iteration's load) remains; with both barriers there is none.
#pragma once

#include <cstdint>
#include <string>

#include "ws/trace/trace.h"

namespace ws::analysis {

enum class HazardKind : uint8_t { RAW = 0, WAR = 1, WAW = 2 };
enum class HazardScope : uint8_t { InterWarp = 0, SameInstruction = 1, IntraWarpLockstep = 2 };
const char* to_string(HazardKind);
const char* to_string(HazardScope);

// One side of a hazard's example.
struct HazardAccess {
  uint32_t site = 0;
  AccessKind kind = AccessKind::Load;
  uint32_t thread = 0;      // linear thread index in the block
  Dim3 thread_index;        // (x, y, z)
  uint32_t warp = 0, lane = 0;
  bool is_volatile = false; // the access was made through a volatile view
  uint64_t event = 0;       // index in Trace::events
};

struct Hazard {
  MemSpace space = MemSpace::Shared;  // shared memory, or global memory between threads of one block
  HazardKind kind = HazardKind::RAW;
  HazardScope scope = HazardScope::InterWarp;
  uint32_t first_site = 0;   // the earlier access's site
  uint32_t second_site = 0;  // the later access's site
  uint32_t alloc = Event::kNoAlloc;  // allocation of the later access
  uint64_t count = 0;        // conflicting access pairs found (see README: approximate bound)
  uint64_t volatile_count = 0;  // of those, pairs where BOTH accesses were volatile
  // Example (the first pair found).
  uint32_t block = 0;
  Dim3 block_index;
  HazardAccess first, second;
  uint64_t byte_offset = 0;  // offset in `alloc` of the first overlapping byte
  std::string element;       // ws::element_name(alloc, byte_offset): "sdata[17]"
  std::string message;       // one readable sentence for the UI/CLI
};

// The racing access pairs that met on one element of an array (the later access's element), for
// the memory heatmap's hazard colouring: inter-warp and same-instruction pairs, and pairs that
// are safe only in lockstep.
struct ElementHazards {
  uint32_t alloc = Event::kNoAlloc;
  uint64_t element = 0;
  uint64_t races = 0, lockstep = 0;
};

}  // namespace ws::analysis
