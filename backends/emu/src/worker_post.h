// The lane side's hot path: what a thread does at every instrumented operation (queue it, and
// stop when it needs the result). Inline, so that the kernel API's hooks (hooks.cpp) reach the
// lane's queue without a call into worker.cpp; the scheduler (worker.cpp) uses refresh too.
#pragma once

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

// Called for every operation that becomes a lane's oldest one (about twice per lane access), so
// it is kept small enough to inline; the rare failure case is out of line.
inline void Worker::refresh(Lane& l) {
  const Request& h = l.req();
  uint32_t& ready = ready_[l.linear / kWarpSize];
  const uint32_t bit = 1u << (l.linear % kWarpSize);
  if (h.type <= ReqType::Fence) {  // Access, WarpOp, Fence: the lane can issue
    l.state = LaneState::Ready;
    ready_pc_[l.linear] = h.order();
    ready |= bit;
    return;
  }
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

inline Request& Worker::push_access(const std::source_location& loc, SubOp sub,
                                    const AccessRequest& req) {
  Request& r = push(site_key(loc), ReqType::Access, sub);
  r.access = {req.byte_offset, nullptr, 0};
  r.alloc = req.alloc;
  r.width = uint8_t(req.width);
  r.bits = uint8_t(uint8_t(req.space) | (req.flags & kFlagVolatile) << 1 | uint8_t(req.atomic) << 4);
  return r;
}

inline void Worker::post_access(const std::source_location& loc, SubOp sub, const AccessRequest& req) {
  push_access(loc, sub, req);
  // The lane performs its load or atomic when the warp has issued it; a load of memory that
  // nothing in this launch can write reads the same value now, so that lane goes on.
  const std::vector<uint8_t>& ro = launch_.opt.read_only;
  const bool now = sub == SubOp::Load && req.space == MemSpace::Global && req.alloc < ro.size() && ro[req.alloc];
  posted(!now);
}

inline bool Worker::post_store(const std::source_location& loc, const AccessRequest& req, void* target,
                               const void* value) {
  // Up to 8 bytes ride in the queue; a wider store (int4, a struct) waits for its turn and the
  // lane writes it.
  const bool queued = req.width <= 8;
  Request& r = push_access(loc, SubOp::Store, req);
  if (queued) {
    r.access.store_to = target;
    std::memcpy(&r.access.value, value, req.width);
  }
  posted(!queued);
  return queued;
}

}  // namespace ws::emu
