// warpscope — the trace: the record of one kernel launch.
//
// A Trace is what every backend produces (the CPU emulator, and the GPU recorder) and what
// analysis and viz read. It holds:
//   - the launch configuration (LaunchInfo),
//   - an allocation table (Allocation): so views say `sdata[17]`, not a raw address,
//   - a site table (Site): file, line, column and the text of the source line,
//   - events in issue order (Event): warp memory instructions, barriers, warp-synchronous ops,
//   - one byte offset per active lane of each memory instruction (lane_offsets),
//   - diagnostics (errors and warnings found while running: out of bounds, barrier divergence, ...).
//
// Ordering: events are grouped by block (ascending linear block index), and inside a block they
// are in issue order (the order in which the block's warps issued them). Whatever the number of
// worker threads, the same launch gives the same trace.
//
// Example: the sequential-addressing reduction's `sdata[tid] += sdata[tid + s]` at s = 16 is one
// Event{type=Access, kind=Load, space=Shared, mask=0x0000ffff, ...} with 16 entries in
// lane_offsets (bytes from the start of `sdata`), followed by the Load of `sdata[tid]` and the
// Store of `sdata[tid]`, each with the same mask.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ws {

inline constexpr int kWarpSize = 32;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  constexpr uint64_t count() const { return uint64_t(x) * y * z; }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

enum class MemSpace : uint8_t { Global = 0, Shared = 1 };
enum class AccessKind : uint8_t { Load = 0, Store = 1, Atomic = 2 };
enum class EventType : uint8_t {
  Access = 0,    // a warp memory instruction (load, store or atomic)
  Barrier = 1,   // __syncthreads(): one event per warp when the block's barrier releases
  WarpSync = 2,  // a warp-synchronous operation (__syncwarp, shuffle, vote, __activemask)
  Fence = 3,     // __threadfence() / __threadfence_block()
};
enum class WarpOp : uint8_t {
  SyncWarp = 0, Shfl, ShflUp, ShflDown, ShflXor, Ballot, Any, All, ActiveMask,
  MatchAny, MatchAll,  // __match_any_sync, __match_all_sync
  ReduceAdd, ReduceMin, ReduceMax, ReduceAnd, ReduceOr, ReduceXor,  // __reduce_*_sync
  Clock,  // clock() / clock64(): the emulator's issue clock at it, or the SM's cycle counter
};
enum class AtomicOp : uint8_t { None = 0, Add, Sub, Min, Max, Inc, Dec, Exch, CAS, And, Or, Xor };

// Event::flags bits
inline constexpr uint8_t kFlagVolatile = 1;  // accessed through a volatile view

const char* to_string(MemSpace);
const char* to_string(AccessKind);
const char* to_string(EventType);
const char* to_string(WarpOp);
const char* to_string(AtomicOp);

struct Allocation {
  std::string name;       // as written in the kernel or driver: "sdata", "g_idata"
  std::string type_name;  // element type as the user wrote it: "int", "float4"
  MemSpace space = MemSpace::Global;
  uint32_t elem_size = 0; // bytes per element
  uint64_t extent = 0;    // number of elements
  // Byte address of element 0. Shared: offset in the block's shared-memory window (banks are
  // computed from it). Global: the address in the backend's global address space.
  uint64_t base = 0;
  // A matrix stored row after row: the elements of one row (the views draw it as a matrix). 0: a
  // vector, or a shape nobody named.
  uint32_t row_length = 0;
};

// A source site: one array access (operator[]) or one intrinsic call in the kernel source.
// Identity across backends is (file, line, rank): nvcc and g++ report different columns for the
// same expression, but the same line and the same order of columns within a line.
struct Site {
  std::string file;   // path relative to the kernels/ folder, e.g. "reduction/reduce.cuh"
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t rank = 0;  // position of this column among the trace's sites on the same line
  std::string text;   // the source line, without its line break
};

struct LaunchInfo {
  std::string kernel;    // catalog name, e.g. "reduce"
  std::string variant;   // e.g. "3-sequential"
  std::string backend;   // "emu", "gpu-trace"
  std::string device;    // "CPU emulator" or the CUDA device name
  std::string entry;     // the __global__ function, e.g. "reduce3<256>"
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  uint32_t static_shared_bytes = 0;
  uint64_t n = 0;
  std::vector<std::pair<std::string, std::string>> params;  // every parameter, as text
};

// One issued warp instruction. 48 bytes; lane data lives in Trace::lane_offsets.
struct Event {
  EventType type = EventType::Access;
  AccessKind kind = AccessKind::Load;  // Access only
  uint8_t width = 0;                   // Access: bytes per lane (1, 2, 4, 8, 16)
  MemSpace space = MemSpace::Global;   // Access only
  uint8_t op = 0;                      // WarpOp for WarpSync, AtomicOp for atomics
  uint8_t flags = 0;                   // kFlag* bits
  uint16_t warp = 0;                   // warp index inside the block
  uint32_t block = 0;                  // linear block index: x + y*gx + z*gx*gy
  uint32_t site = 0;                   // index into Trace::sites
  uint32_t alloc = kNoAlloc;           // index into Trace::allocations (Access only)
  uint32_t mask = 0;                   // active lanes that issued this instruction
  uint32_t step = 0;                   // issue index of this instruction within its warp
  uint32_t sm = 0;                     // GPU: SM id; emulator: 0
  uint64_t lane_begin = 0;             // Access: first of popcount(mask) entries in lane_offsets
  uint64_t time = 0;                   // GPU: %globaltimer ns; emulator: block-local issue clock
  // WarpSync: `aux` is the member mask the call named; Barrier: unused.
  uint32_t aux() const { return alloc; }

  static constexpr uint32_t kNoAlloc = 0xffffffffu;
};

enum class Severity : uint8_t { Info = 0, Warning = 1, Error = 2 };
const char* to_string(Severity);

// Something the run found: an out-of-bounds access, barrier divergence, a runaway kernel, a
// shuffle whose mask names lanes that are not there, code that is only correct in lockstep...
struct Diagnostic {
  Severity severity = Severity::Error;
  std::string code;      // stable identifier: "out-of-bounds", "barrier-divergence", ...
  std::string message;   // one readable paragraph, for the UI and the CLI
  uint32_t site = kNoSite;
  uint32_t block = 0;    // linear block index
  uint32_t thread = 0;   // linear thread index inside the block
  static constexpr uint32_t kNoSite = 0xffffffffu;
};

// Per-site totals over EVERY block of a launch, counted by the GPU recorder on the device, so
// whole-grid numbers need no full trace (gpu-trace only; empty for emulator traces, whose
// analysis counts from the events).
struct SiteCounters {
  uint32_t site = 0;
  AccessKind kind = AccessKind::Load;
  MemSpace space = MemSpace::Global;
  uint8_t width = 0;
  uint64_t instructions = 0, lanes = 0;
  uint64_t wavefronts = 0, ideal_wavefronts = 0;  // shared
  uint64_t sectors = 0, lines = 0;                 // global
  // Adds another row of the same site (another SM's table, another block): the sums, the widest.
  SiteCounters& operator+=(const SiteCounters& o) {
    width = width > o.width ? width : o.width;
    instructions += o.instructions, lanes += o.lanes;
    wavefronts += o.wavefronts, ideal_wavefronts += o.ideal_wavefronts;
    sectors += o.sectors, lines += o.lines;
    return *this;
  }
};

struct Trace {
  static constexpr uint32_t kFormatVersion = 3;        // 3: Allocation::row_length
  static constexpr uint32_t kOldestFormatVersion = 2;  // still read

  LaunchInfo launch;
  std::vector<Allocation> allocations;
  std::vector<Site> sites;
  std::vector<Event> events;
  std::vector<uint64_t> lane_offsets;  // byte offset from the allocation's base, per active lane
  std::vector<Diagnostic> diagnostics;
  std::vector<SiteCounters> site_counters;  // gpu-trace: every block; see SiteCounters

  std::vector<uint32_t> recorded_blocks;  // ascending; the blocks whose events are in `events`
  uint64_t total_blocks = 0;
  bool truncated = false;           // the record cap was reached
  uint64_t dropped_events = 0;      // events not stored because of the cap
  uint64_t unrecorded_events = 0;   // events of blocks that ran but were not recorded
  uint64_t unrecorded_lane_accesses = 0;

  // Lane offsets of an Access event, in lane order (lowest active lane first).
  std::span<const uint64_t> lanes(const Event& e) const;
  // Byte address of a lane access: allocation base + offset.
  uint64_t address(const Event& e, uint64_t lane_offset) const;
  // Thread (x, y, z) and linear index of lane `lane` of warp `warp`.
  Dim3 thread_index(uint32_t warp, uint32_t lane) const;
  Dim3 block_index(uint32_t linear_block) const;
  bool has_errors() const;
  uint64_t lane_access_count() const { return lane_offsets.size(); }
  // Memory used by the trace's containers, in bytes (what "fits in 1 GiB" is measured with).
  uint64_t memory_bytes() const;
};

// "sdata[17]" for a lane offset of an allocation; "g_odata[3]+2" when not element-aligned.
std::string element_name(const Allocation& a, uint64_t lane_offset);

// Sets Site::rank: the position of each site's column among the trace's sites on the same line
// (what every backend calls after filling the site table).
void assign_site_ranks(Trace& t);

}  // namespace ws
