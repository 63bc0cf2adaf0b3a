// The lane side's hot path: what a thread does at every instrumented operation (queue it, and
// stop when it needs the result). Inline, so that the kernel API's hooks (hooks.cpp) reach the
// lane's queue without a call into worker.cpp; the scheduler (worker.cpp) uses refresh too.
#pragma once

#include <cstddef>
#include <cstring>

#include "barriers.h"
#include "eager_shuffles.h"
#include "issue_groups.h"
#include "site_registry.h"
#include "worker.h"

namespace ws::emu {

inline Request& Worker::push(const void* loc, ReqType type, SubOp sub, uint32_t alloc_field) {
  Lane& l = *current_;
  t_barrier_repeat.room = 0;  // the lane's newest entry is no longer the barrier it pointed at
  Request& r = l.queue[l.size];  // (a lane runs only with a queue that began empty: Lane::head)
  r.loc = loc;
  // The whole tail word: type and sub-operation, the other access fields 0 (same_operation
  // compares it).
  const uint64_t tail = uint64_t(type) << 32 | uint64_t(sub) << 40 | alloc_field;
  std::memcpy(reinterpret_cast<char*>(&r) + offsetof(Request, alloc), &tail, sizeof tail);
  ++l.size;
  return r;
}

// After a lane filled in the request it pushed: the first one becomes what the scheduler sees;
// the lane stops when it needs the result, or when its queue is full (so a loop that only stores
// still comes back to the scheduler, and to its step budget).
inline void Worker::posted(bool must_stop) {
  Lane& l = *current_;
  if (l.size == 1) refresh(l);
  if (must_stop || l.size == Lane::kQueue) yield_lane();
}

// The lane's oldest operation `h` is one it can issue (an access, a warp op or a fence). (issue_one
// does the same for the lanes it moves on, on its own copies of ready_ and groups_.)
inline void Worker::set_ready(Lane& l, const Request& h) {
  const uint32_t w = l.linear / kWarpSize, bit = 1u << (l.linear % kWarpSize);
  l.state = LaneState::Ready;
  ready_[w] |= bit;
  join_group(groups_[w], bit, h);
}

// An access the lane just pushed: as posted, knowing what it is. Both calls are the last thing
// done, so the path of a lane that runs on (a store, a read-only load behind others in its
// queue) saves no registers.
inline void Worker::posted_access(Request& r, bool must_stop) {
  Lane& l = *current_;
  if (l.size == 1) return first_posted_access(l, r, must_stop);
  if (must_stop || l.size == Lane::kQueue) return yield_lane();
}

// Called for every operation that becomes a lane's oldest one (about twice per lane access), so
// it is kept small enough to inline; the rare failure case is out of line.
inline void Worker::refresh(Lane& l) {
  const Request& h = l.req();
  if (can_issue(h.type)) {  // the lane can issue
    set_ready(l, h);
    return;
  }
  uint32_t& ready = ready_[l.linear / kWarpSize];
  const uint32_t bit = 1u << (l.linear % kWarpSize);
  ready &= ~bit;
  if (h.type == ReqType::Barrier) {
    l.state = LaneState::AtBarrier;
    if (at_barrier_++ == 0) barrier_key_ = h.loc;
    if (h.loc == barrier_key_) ++at_barrier_key_;
  } else if (h.type == ReqType::Exit) {
    l.state = LaneState::Exited;
    ++exited_;
  } else {
    meet_failure(l);
  }
}

// An access's request: its site, its offset, and the kernel's tag word (emu_hooks.h), which is
// the request's tail (allocation, type, sub-operation, width, bits) as it is.
inline Request& Worker::push_access(const void* key, uint64_t tag, uint64_t byte_offset) {
  Lane& l = *current_;
  t_barrier_repeat.room = 0;  // (as push does)
  Request& r = l.queue[l.size];  // (as push does)
  r.loc = key;
  r.access.byte_offset = byte_offset;
  std::memcpy(reinterpret_cast<char*>(&r) + offsetof(Request, alloc), &tag, sizeof tag);
  ++l.size;
  return r;
}

// A warp-synchronous call: the lane waits for its warp's turn (and for the lanes its mask
// names), then reads its result. Inline in the kernel API's hook (hooks.cpp): a shuffle
// reduction makes five per thread. The usual case (a shuffle that takes its result at once, not
// the lane's first queued operation) is kept free of calls, so that it saves no registers; the
// rest is post_warp_op_rest.
inline uint64_t Worker::post_warp_op(const std::source_location& loc, WarpOp op, uint32_t member_mask,
                                     uint64_t value, int32_t arg, int32_t width) {
  Request& r = push(site_key(loc), ReqType::WarpOp, SubOp::WarpOp, member_mask);
  r.warp = {value, arg, width, op, false};
  Lane& l = *current_;
  const bool tried = l.size > 1 && l.size != Lane::kQueue && is_shuffle(op) && eager_;
  uint64_t eager;
  if (tried && try_eager_shuffle(l, {value, member_mask, arg, width, op}, eager)) [[likely]] {
    r.warp.eager = true;
    note_eager_result(l, eager);
    return eager;
  }
  return post_warp_op_rest(l, r, tried);
}

// Whether an access_tag word (emu_hooks.h) is a load of global memory: its sub-operation byte
// is Load and its space bit Global (both 0).
constexpr uint64_t kTagKindAndSpace = uint64_t(0xff) << 40 | uint64_t(1) << 56;
constexpr bool is_global_load(uint64_t tag) { return (tag & kTagKindAndSpace) == 0; }
static_assert(is_global_load(access_tag(9, SubOp::Load, 16, MemSpace::Global, kFlagVolatile, AtomicOp::None)) &&
              !is_global_load(access_tag(9, SubOp::Load, 4, MemSpace::Shared, 0, AtomicOp::None)) &&
              !is_global_load(access_tag(9, SubOp::Atomic, 4, MemSpace::Global, 0, AtomicOp::Add)) &&
              !is_global_load(access_tag(9, SubOp::Store, 4, MemSpace::Global, 0, AtomicOp::None)));

inline void Worker::post_access(const void* key, uint64_t tag, uint64_t byte_offset) {
  Request& r = push_access(key, tag, byte_offset);
  r.access.store_to = nullptr;
  // The lane performs its load or atomic when the warp has issued it; a load of memory that
  // nothing in this launch can write reads the same value now, so that lane goes on.
  const bool now = is_global_load(tag) && read_only(uint32_t(tag));
  posted_access(r, !now);
}

// A deferred load (emu_hooks.h): queued like a store, with where to read (`store_to`) and the
// operand slot to read into (`value`); the scheduler performs it at issue (perform_posted).
inline void Worker::post_deferred_load(const void* key, uint64_t tag, uint64_t byte_offset, const void* from,
                                       uint32_t slot) {
  Request& r = push_access(key, tag, byte_offset);
  r.access.store_to = const_cast<void*>(from);
  r.access.value = slot;
  posted_access(r, false);
}

// A deferred store: its value is combine(slot 0, slot 1) when the warp issues it.
inline void Worker::post_deferred_store(const void* key, uint64_t tag, uint64_t byte_offset, void* target,
                                        Combine combine) {
  Request& r = push_access(key, tag, byte_offset);
  r.access.store_to = target;
  r.access.value = reinterpret_cast<uint64_t>(combine);
  posted_access(r, false);
}

inline void Worker::post_store(const void* key, uint64_t tag, uint64_t byte_offset, void* target,
                               uint64_t value) {
  Request& r = push_access(key, tag, byte_offset);
  r.access.store_to = target;
  r.access.value = value;
  posted_access(r, false);
}

}  // namespace ws::emu
