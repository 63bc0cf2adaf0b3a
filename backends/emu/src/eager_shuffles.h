// Eager shuffles: a lane takes a shuffle's result without waiting for its warp to issue it, when
// the issue can give no other.
//
// A lane that meets a shuffle normally stops until its warp issues it: its result is another lane's
// value. But two lanes of a warp that began one run pass with empty queues (every lane the
// scheduler resumes has one) and have queued the same operations since (same sites, allocations,
// kinds, barriers, member masks) are issued in the same warp instructions, each of those operations
// together: the issue rule (issue_policy.h) groups the lanes at one site. So when the lane a
// shuffle reads has already run, in this pass, to the same shuffle through the same operations, its
// value there is the value the issue will give: the lane takes it and runs on (try_eager_shuffle),
// and the shuffle is still issued and recorded as one warp instruction.
//
// "The same operations" is checked against one reference lane per warp (the first of the warp to
// run in the pass), so that each lane compares each of its entries once (Lane::agree), and only
// when a shuffle of its reads another lane. A source lane that does not run in this pass (it waits,
// with operations queued) will not change its queue before the warp issues: when the reading lane's
// operations in this pass are the same as the source lane's next ones, the shuffle is issued
// together with the source lane's matching one, and the lane takes that value too (compared entry
// by entry: lanes that stopped at a load and run again later, while the others wait at the shuffles
// after it; not when the source lane waits for lanes its mask names and the reading lane's mask
// leaves it out: the others may issue without it). A shuffle down reads higher lanes, so a warp's
// lanes run highest first; a lane that finds its source lane still to run turns the warp's order
// for its next pass. (After an atomic or a store the lanes run lowest first: they perform an
// atomic, or a store wider than 8 bytes, as they resume, and lane order is the order a GPU's lanes
// take for it.)
//
// Debug builds check each result taken at once against the one the issue computes
// (check_eager_shuffles).
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>

#include "lane.h"
#include "request.h"
#include "worker.h"

namespace ws::emu {

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
// issue can give no other (see above); false if the lane must wait for it.
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

// The lane `l` is warp w's reference lane for the pass being scheduled: the first of its lanes
// to run in it.
inline void Worker::make_reference(uint32_t w, Lane& l) {
  warp_pass_[w] = pass_;
  warp_ref_[w] = &l;
  l.agree = Lane::kAgreeAll;
}

// Debug builds: the result the running lane `l` took at once for the shuffle it just queued.
inline void Worker::note_eager_result([[maybe_unused]] const Lane& l, [[maybe_unused]] uint64_t result) {
#ifndef NDEBUG
  eager_results_[size_t(l.linear) * Lane::kQueue + l.size - 1u] = result;  // (its queue began the pass empty)
#endif
}

// Debug builds: the lanes of `mask` (of L, their requests entry(L[i])) issue a shuffle: each of
// them that took its result at once took the value the issue gives it (issue_warp_op's rule).
template <class Entry>
inline void Worker::check_eager_shuffles([[maybe_unused]] uint32_t mask, [[maybe_unused]] const Lane* L,
                                         [[maybe_unused]] Entry entry) const {
#ifndef NDEBUG
  for (uint32_t m = mask; m; m &= m - 1) {
    const int i = std::countr_zero(m);
    const Request& r = entry(L[i]);
    if (!r.warp.eager) continue;
    const int src = shuffle_source(r.warp.op, i, shuffle_width(r.warp.width), r.warp.arg);
    const uint64_t issued = (mask >> src & 1) ? entry(L[src]).warp.value : r.warp.value;
    const size_t slot = size_t(&r - L[i].queue);
    assert(eager_results_[size_t(L[i].linear) * Lane::kQueue + slot] == issued &&
           "a shuffle's result taken at once is not the one its issue gives");
  }
#endif
}

}  // namespace ws::emu
