// What gpu-trace writes on the device and the host reads back: one Record per warp instruction of
// the blocks recorded in full, and per-site counters (per SM) for every block.
//
// Recording one access (see gpu_trace_api.cuh, inlined at the access): __activemask() there is
// the lanes that execute it together, the group's leader reserves a Record with one atomicAdd,
// and every lane writes its own byte offset into it. Reservations past the buffer's
// capacity are counted, not written: the host marks the trace truncated and says how many were
// dropped.
#pragma once

#include <cstdint>

namespace ws::gpu_trace {

inline constexpr uint8_t kRecordAccess = 0;
inline constexpr uint8_t kRecordBarrier = 1;
// A warp-synchronous call (shuffle, vote, match, reduce, __syncwarp, __activemask): `kind` holds
// its ws::WarpOp, `alloc` the member mask it named, `mask` the lanes that made it together.
inline constexpr uint8_t kRecordWarpOp = 2;

struct Record {
  uint64_t time;         // %globaltimer, ns
  uint64_t file;         // device address of the site's file-name string
  uint64_t alloc;        // global: allocation index given by the backend; shared: unused
  uint32_t line, column;
  uint32_t block;        // linear block index
  uint32_t mask;         // lanes that executed this instruction together
  uint32_t sm;           // %smid
  uint16_t warp;         // warp index in the block
  uint8_t type;          // kRecordAccess / kRecordBarrier / kRecordWarpOp
  uint8_t kind;          // AccessKind
  uint8_t width;         // bytes per lane
  uint8_t space;         // MemSpace
  uint8_t flags;         // kFlagVolatile ...
  uint8_t atomic;        // AtomicOp
  uint32_t shared_base;  // shared: the array's start in the block's shared window
  uint32_t elem_size;    // the array's declared element size
  uint32_t extent;       // shared: the array's element count
  char name[16];         // shared: the array's name (from its type), NUL-padded
  uint64_t offsets[32];  // byte offset from the array's start, indexed by lane
};

// Per-site counters, one small table per hardware warp slot of each SM ([sm][%warpid][slot]): a
// slot is held by one warp at a time, so the leader lane finds its site's row with a plain read
// and claims a free row with plain stores; it adds to the sums with fire-and-forget atomics
// (RED: the warp does not wait for them, and they never contend across SMs). The host sums all
// tables.
struct SiteCounter {
  unsigned long long key;  // 0 = free slot; else site key (see site_key) | 1
  unsigned long long instructions, lanes, wavefronts, ideal_wavefronts, sectors, lines;
  uint64_t file;
  uint32_t line, column;
  uint8_t kind, space, width, pad[5];
};

inline constexpr uint32_t kCounterSlots = 32;     // per warp slot; a kernel has far fewer sites
inline constexpr uint32_t kWarpSlotsPerSm = 64;   // %warpid < 64 on every architecture so far

// Records are reserved per SM (one counter per SM), so the reservation atomic is contended only
// by the warps of one SM. The buffer is handed out in chunks of kChunk records: an SM takes the
// next free chunk when it fills its last, so the SMs that record (those running the recorded
// blocks: often a few) share the whole buffer. A block runs on one SM, so a warp's records stay
// in issue order in its SM's chunks, in the order the SM took them (sm_chunk).
inline constexpr unsigned long long kChunk = 256;

struct Control {
  Record* records;
  unsigned long long capacity;        // records in the whole buffer: chunks * kChunk
  unsigned long long chunks;
  unsigned long long* next_chunk;     // chunks handed out (may exceed `chunks`)
  unsigned long long* sm_chunk;       // [sm_count][chunks]: the SM's i-th chunk + 1; 0 not yet, ~0 none left
  unsigned long long* sm_reserved;    // [sm_count] reservations made (some may have found no chunk)
  const uint32_t* full_blocks;    // bitmap: blocks recorded in full
  uint32_t full_block_words;
  uint32_t counters_enabled;
  SiteCounter* counters;          // [sm][kWarpSlotsPerSm][kCounterSlots]
  unsigned long long* counter_keys;  // the same shape: each row's key again, alone. The device finds
                                     // rows here: no atomic touches these lines, so they stay in L1
  uint32_t sm_count;
  uint32_t counter_overflow;      // set when a site found no free slot
};

}  // namespace ws::gpu_trace
