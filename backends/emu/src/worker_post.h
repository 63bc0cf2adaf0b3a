// The lane side's hot path: what a thread does at every instrumented operation (queue it, and
// stop when it needs the result). Inline, so that the kernel API's hooks (hooks.cpp) reach the
// lane's queue without a call into worker.cpp; the scheduler (worker.cpp) uses refresh too.
#pragma once

#include <cstddef>
#include <cstring>

#include "site_registry.h"
#include "worker.h"

namespace ws::emu {

inline uint64_t Request::order() const { return issue_order(site_location(loc)) | uint64_t(sub); }

inline Request& Worker::push(const void* loc, ReqType type, SubOp sub) {
  Lane& l = *current_;
  t_barrier_repeat.room = 0;  // the lane's newest entry is no longer the barrier it pointed at
  Request& r = l.queue[(l.head + l.size) % Lane::kQueue];
  r.loc = loc;
  r.type = type;
  r.sub = sub;
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

// The lane's oldest operation `h` is one it can issue (an access, a warp op or a fence).
inline void Worker::set_ready(Lane& l, const Request& h) {
  l.state = LaneState::Ready;
  const uint32_t w = l.linear / kWarpSize, bit = 1u << (l.linear % kWarpSize);
  ready_[w] |= bit;
  IssueGroup& g = groups_[w];
  // The same call (and for an access the same allocation and kind) as the warp's next
  // instruction: it joins it, at its key (one site, one sub-operation).
  if (h.loc == g.loc && (h.type != ReqType::Access || h.tail() == g.tail)) {
    ready_pc_[l.linear] = g.key;
    g.mask |= bit;
    return;
  }
  const uint64_t key = h.order();
  ready_pc_[l.linear] = key;
  if (key < g.key)  // the smallest key so far: a group of its own (never below an unknown 0)
    g = {key, h.loc, h.type == ReqType::Access ? h.tail() : 0, bit, true};
  else if (key == g.key)
    g.exact = false;  // the same key, something else (another allocation at the site)
}

// An access the lane just pushed: as posted, knowing what it is.
inline void Worker::posted_access(Request& r, bool must_stop) {
  Lane& l = *current_;
  if (l.size == 1) set_ready(l, r);
  if (must_stop || l.size == Lane::kQueue) yield_lane();
}

// Called for every operation that becomes a lane's oldest one (about twice per lane access), so
// it is kept small enough to inline; the rare failure case is out of line.
inline void Worker::refresh(Lane& l) {
  const Request& h = l.req();
  if (h.type <= ReqType::Fence) {  // Access, WarpOp, Fence: the lane can issue
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
  Request& r = l.queue[(l.head + l.size) % Lane::kQueue];
  r.loc = key;
  r.access.byte_offset = byte_offset;
  std::memcpy(reinterpret_cast<char*>(&r) + offsetof(Request, alloc), &tag, sizeof tag);
  ++l.size;
  return r;
}

inline void Worker::post_access(const void* key, uint64_t tag, uint64_t byte_offset) {
  Request& r = push_access(key, tag, byte_offset);
  r.access.store_to = nullptr;
  // The lane performs its load or atomic when the warp has issued it; a load of memory that
  // nothing in this launch can write reads the same value now, so that lane goes on.
  const bool now = r.sub == SubOp::Load && r.space() == MemSpace::Global && read_only(r.alloc);
  posted_access(r, !now);
}

inline void Worker::post_store(const void* key, uint64_t tag, uint64_t byte_offset, void* target,
                               uint64_t value) {
  Request& r = push_access(key, tag, byte_offset);
  r.access.store_to = target;
  r.access.value = value;
  posted_access(r, false);
}

}  // namespace ws::emu
