// The calls a kernel makes into the CPU SIMT emulator (backends/emu implements them).
//
// Each CUDA thread's kernel code runs on a fiber of its own. Every instrumented operation (an array
// access through a wrapper, a barrier, a shuffle or vote, a fence) posts a request describing
// itself; the scheduler issues it together with the other lanes of the warp that reached the
// same site (one warp instruction) and records it. Operations that return something (loads,
// atomics, shuffles, votes) wait for that: the call returns once the warp issued it, and the
// lane then performs the load or atomic itself, before any lane of the warp can issue its next
// instruction, which is what lockstep means. Stores, barriers and fences return at once; the
// emulator performs them in issue order (backends/emu/src/worker.h explains why that is the same),
// and so it does with a load whose value only feeds a store (deferred_load below).
#pragma once

#include <cstdint>
#include <cstring>
#include <source_location>
#include <string_view>

#include "ws/trace/trace.h"

namespace ws::emu {

// Sub-operations of one site, so that `sdata[i] += x` (a load then a store through the same
// operator[]) issues as two instructions of the same site, in that order.
enum class SubOp : uint8_t { Load = 0, Store = 1, Atomic = 2, Barrier = 3, WarpOp = 4, Fence = 5 };

// What an access says of itself besides its site and byte offset, in one word: the allocation
// (bits 0-31), the sub-operation (40-47), the width in bytes (48-55), and in the top byte the
// memory space (bit 56), the volatile flag (57), the deferred flag (58: see deferred_load) and
// the atomic operation (60-63). The emulator
// queues the word as it is (it is the tail of its queued request; bits 32-39 are the request's
// type, 0 for an access), so the kernel's code builds it mostly from constants and passes it in a
// register.
constexpr uint64_t access_tag(uint32_t alloc, SubOp sub, uint32_t width, MemSpace space, uint8_t flags,
                              AtomicOp op) {
  return uint64_t(alloc) | uint64_t(uint8_t(sub)) << 40 | uint64_t(uint8_t(width)) << 48 |
         uint64_t(uint8_t(uint8_t(space) | (flags & kFlagVolatile) << 1 | uint8_t(op) << 4)) << 56;
}

// Posts a load, an atomic, or a store wider than 8 bytes, and returns once the warp has issued
// it; the caller then performs it. `byte_offset` counts from the allocation's first element.
void access(const std::source_location& loc, uint64_t tag, uint64_t byte_offset);

// Posts a store of up to 8 bytes (`value`'s low bytes) to `target`: the emulator writes them
// when the warp issues the store, and the thread runs on meanwhile.
void store(const std::source_location& loc, uint64_t tag, uint64_t byte_offset, void* target, uint64_t value);

// A load whose value the thread never sees, and the store it feeds: `a[i] = b[j]` and
// `a[i] += b[j]` (any compound assignment from another element). The thread has no use for the
// values, so it need not wait for its warp's turn: it posts the loads, which read `from` into
// the lane's operand slot `slot` (0 or 1) when the warp issues them, and then the store, whose
// value `combine(slot 0, slot 1)` is computed when the warp issues it, and runs on. The trace
// and memory see the same instructions in the same order as when the thread waits for each
// load; the thread only stops less often. (Off with t_defer_loads: the kernel API then loads
// and stores the plain way.)
inline constexpr uint8_t kTagDeferred = 1 << 2;  // in the access tag's top byte (access_tag)
using Combine = uint64_t (*)(uint64_t slot0, uint64_t slot1);
void deferred_load(const std::source_location& loc, uint64_t tag, uint64_t byte_offset, const void* from,
                   uint32_t slot);
void deferred_store(const std::source_location& loc, uint64_t tag, uint64_t byte_offset, void* target,
                    Combine combine);
inline thread_local bool t_defer_loads = true;  // the launch's LaunchOptions::defer_loads

// Reports an out-of-bounds access and ends the launch. Never returns to the kernel.
[[noreturn]] void out_of_bounds(const std::source_location& loc, uint32_t alloc, int64_t index,
                                uint64_t extent, AccessKind kind);

// __syncthreads(): waits until every thread of the block has arrived at this barrier.
void syncthreads(const std::source_location& loc);

// libstdc++'s std::source_location is one pointer to a static record per call site, so that
// pointer alone names a site: the emulator queues it and compares it, and turns it back into
// the location only when it needs the file and line.
static_assert(sizeof(std::source_location) == sizeof(const void*));
inline const void* site_key(const std::source_location& loc) {
  const void* p;
  std::memcpy(&p, &loc, sizeof p);
  return p;
}

// The running thread's newest queued operation, when it is a barrier that can count more
// repeats: a thread that sits out a reduction step meets the same __syncthreads() again and
// again without anything in between, and each meeting only adds one to the queued barrier's
// count. The worker sets this whenever it queues or counts a barrier and clears it whenever
// the thread queues anything else or another thread starts running, so the kernel's own code
// counts the repeat inline (syncthreads_repeat) instead of calling into the emulator.
struct BarrierRepeat {
  const void* site = nullptr;  // the barrier's site_key
  uint32_t* last = nullptr;    // the queued barrier's last release number
  uint32_t room = 0;           // repeats it can still count; 0 when there is nothing to count
};
inline thread_local BarrierRepeat t_barrier_repeat;

inline void syncthreads_repeat(const std::source_location& loc) {
  BarrierRepeat& r = t_barrier_repeat;
  if (r.room && r.site == site_key(loc)) {
    ++*r.last;
    --r.room;
    return;
  }
  syncthreads(loc);
}

// __syncthreads_count(predicate) and its _and/_or forms: a barrier that also returns how many
// threads of the block passed a non-zero predicate. The thread waits for the barrier's release.
uint32_t syncthreads_reduce(const std::source_location& loc, bool predicate);

// Warp-synchronous operations. `value` and the result are raw bits of up to 8 bytes.
uint64_t warp_op(const std::source_location& loc, WarpOp op, uint32_t member_mask, uint64_t value,
                 int32_t arg, int32_t width);
// The shuffles, one call each: the operation is then a constant in the emulator's shuffle path
// (a shuffle reduction makes five per thread).
uint64_t shfl(const std::source_location& loc, uint32_t member_mask, uint64_t value, int32_t src_lane, int32_t width);
uint64_t shfl_up(const std::source_location& loc, uint32_t member_mask, uint64_t value, int32_t delta, int32_t width);
uint64_t shfl_down(const std::source_location& loc, uint32_t member_mask, uint64_t value, int32_t delta, int32_t width);
uint64_t shfl_xor(const std::source_location& loc, uint32_t member_mask, uint64_t value, int32_t lane_mask,
                  int32_t width);

void fence(const std::source_location& loc, bool block_scope);

// Shared memory. `object` identifies one __shared__ array (its address is stable for the
// worker thread); the call registers it in the current block's allocation table the first time
// the block touches it (filling it with a poison pattern, as uninitialised shared memory has no
// defined value) and returns the allocation's index. `epoch`/`cached` are the object's own cache.
uint32_t shared_alloc(void* storage, uint64_t bytes, uint32_t elem_size, uint64_t extent,
                      const char* name, std::string_view type_name, uint64_t& epoch,
                      uint32_t& cached);

// The block's dynamic shared memory (the third <<<>>> argument): registers a view of it as an
// allocation named `name` and returns its storage and extent in elements.
uint32_t dynamic_shared_alloc(uint32_t elem_size, const char* name, std::string_view type_name,
                              void*& storage, uint64_t& extent, uint64_t& epoch, uint32_t& cached);

// A per-launch fatal error raised by kernel code that the API itself detects (e.g. a dynamic
// shared array used in a launch with no dynamic shared memory). Never returns.
[[noreturn]] void fail(const std::source_location& loc, std::string_view code, std::string message);

// The dynamic shared memory view this worker thread bound last (dynamic_shared_alloc sets it):
// every thread of a block declares its own view object, and binds it from here without a call.
struct DynamicViewCache {
  uint64_t epoch = 0;        // block_epoch() of the block it belongs to
  const char* name = nullptr;  // the view's fixed_string (one address per instantiation)
  uint32_t elem_size = 0;
  uint32_t alloc = 0;
  void* storage = nullptr;
  uint64_t extent = 0;
};
inline thread_local DynamicViewCache t_dynamic_view;

// A number that is new for every block a worker thread runs; lets per-object caches (shared
// arrays) know when a new block began. Read at every shared access, so a thread-local variable,
// not a call.
inline thread_local uint64_t t_block_epoch = 0;
inline uint64_t block_epoch() { return t_block_epoch; }

}  // namespace ws::emu
