// The lane side's hot path: what a thread does at every instrumented operation (queue it, and
// stop when it needs the result). Inline, so that the kernel API's hooks (hooks.cpp) reach the
// lane's queue without a call into worker.cpp; the scheduler (worker.cpp) uses refresh too.
#pragma once

#include <cstddef>
#include <cstring>

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

// Whether two queued operations would be issued alike: the same site and tail word (type,
// sub-operation, and for an access the allocation, width and flags, for a warp-synchronous call
// its member mask; push sets the access fields to 0 for anything else), and for a barrier the
// same releases.
inline bool same_operation(const Request& a, const Request& b) {
  if (((reinterpret_cast<uintptr_t>(a.loc) ^ reinterpret_cast<uintptr_t>(b.loc)) | (a.tail() ^ b.tail())) != 0)
    return false;
  return a.type != ReqType::Barrier || (a.barrier.first == b.barrier.first && a.barrier.last == b.barrier.last);
}

// A shuffle the running lane `l` just queued (its newest entry, queue[t]): its result now if the
// issue can give no other (see eager shuffles in worker.h); false if the lane must wait for it.
// (`s` is the shuffle's operands, passed by value: read back from the queued request, they would
// be loads, and the shuffle kind a switch, where the hook has them in registers and the kind
// constant.)
inline bool Worker::try_eager_shuffle(Lane& l, ShuffleArgs s, uint64_t& result) {
  const int i = int(l.linear % kWarpSize);
  const int src = s.width == kWarpSize ? shuffle_source(s.op, i, kWarpSize, s.arg)
                                       : shuffle_source(s.op, i, shuffle_width(s.width), s.arg);
  const uint32_t from_linear = l.linear - uint32_t(i) + uint32_t(src);
  if (src == i || from_linear >= threads_) {  // its own value, whoever else takes part
    result = s.value;
    return true;
  }
  Lane& from = lanes_[from_linear];
  const uint32_t t = l.size - 1u;  // the shuffle's place (the lane began the pass with an empty queue)
  if (from.pass != pass_) {
    // The source lane does not run in this pass: its queued operations stay as they are until
    // the warp issues them. A warp instruction takes every lane whose oldest operation is at its
    // site (and, for an access, its allocation and kind), so if this lane's operations up to the
    // shuffle are the same as the source lane's next ones, the two shuffles are issued
    // together, one pair at a time. (A block's lanes that stopped at a load and run again, e.g.
    // lanes 0-7 of a block sum's second warp sum, read lanes that waited at the shuffle.) But a
    // source lane that waits for lanes its mask names (WaitWarp) may be left out of an issue of
    // lanes whose masks do not name it: then the reading lane's mask must name it.
    if (from.size <= t) return false;
    if (from.state == LaneState::WaitWarp && !(s.member_mask >> src & 1)) return false;
    for (uint32_t k = 0; k <= t; ++k)
      if (!same_operation(l.queue[k], from.queue[(from.head + k) % Lane::kQueue])) return false;
    result = from.queue[(from.head + t) % Lane::kQueue].warp.value;
    return true;
  }
  if (from.size <= t) {
    // If the source lane is still to run in this pass, the other order would have helped.
    if (from.size == 0) descend_[l.linear / kWarpSize] = src > i;
    return false;
  }
  // Both lanes queued the same operations as their warp's reference lane, up to the shuffle.
  const Lane& ref = *warp_ref_[l.linear / kWarpSize];
  if (!agrees(l, ref, t) || !agrees(from, ref, t)) return false;
  result = from.queue[t].warp.value;
  return true;
}

// Whether lane `x` (scheduled in this pass, so its queue began it empty: entries [0, size)) queued
// the same operations as its warp's reference lane up to entry `t`. Each entry of a lane is
// compared once: Lane::agree keeps how far it is known to agree (the queues of a pass's lanes do
// not change until the pass ends, when the warps issue).
inline bool Worker::agrees(Lane& x, const Lane& ref, uint32_t t) {
  uint32_t a = x.agree;
  if (a > t) return true;
  const uint32_t end = std::min<uint32_t>(t + 1, ref.size);
  while (a < end && same_operation(x.queue[a], ref.queue[a])) ++a;
  x.agree = uint8_t(a);
  return a > t;
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
