// Barriers: a lane's __syncthreads() is queued like any operation; the block's barrier releases
// when every thread waits at one (release_barrier), and a block where some wait while the others
// exited or wait at another is reported as barrier divergence.
//
// Repeats. A thread that sits out a loop's body (reduction steps it has no part in) meets the
// loop's barrier again and again: one queued entry counts the repeats (Request::barrier: it waits
// for the block's releases `first` to `last`), and a release does not touch the lanes that still
// have repeats to wait. (Capped at Worker::kMaxBarrierRepeat, so that a loop of barriers alone
// still fills the queue and comes back to the scheduler.) The kernel's code counts a repeat
// itself while t_barrier_repeat points at the lane's queued barrier (emu_hooks.h); post_barrier is
// reached for the first meeting, or after the lane was switched out.
//
// Release lists. So that neither a release nor the scheduler's "is anything left" test walks all
// the block's lanes, the worker keeps counts as lanes change state (lanes exited, lanes at a
// barrier, lanes at the barrier of the first of them: refresh), and files each lane at a barrier,
// once its entry can grow no more, under the release that lets it go (its entry's `last`:
// file_for_release). The lists form a ring of Worker::kReleaseRing, more than any pending
// release's distance; a lane is filed at most once per release, so each list has room for every
// lane of the block from the start (one allocation for all, made when the worker is: pages
// nothing touches are never faulted in), and filing a lane never allocates: it also happens on a
// lane's fiber, outside the kernel's try (exit_lane).
#pragma once

#include <source_location>

#include "lane.h"
#include "request.h"
#include "worker.h"

namespace ws::emu {

// The running lane meets __syncthreads() at `loc`: a repeat of its newest entry, or a new one.
inline void Worker::post_barrier(const std::source_location& loc) {
  Lane& l = *current_;
  const void* key = site_key(loc);
  if (l.size) {
    Request& tail = l.queue[l.size - 1];  // (the running lane's entries are queue[0, size))
    if (tail.type == ReqType::Barrier && tail.loc == key &&
        tail.barrier.last - tail.barrier.first + 1 < kMaxBarrierRepeat) {
      ++tail.barrier.last;
      offer_barrier_repeats(tail);
      return;
    }
  }
  queue_barrier(key);
}

// Lets the kernel's code count further repeats of the barrier `tail` (the lane's newest entry).
inline void Worker::offer_barrier_repeats(Request& tail) {
  t_barrier_repeat = {tail.loc, &tail.barrier.last,
                      kMaxBarrierRepeat - (tail.barrier.last - tail.barrier.first + 1)};
}

// A lane whose oldest operation is a barrier, once that entry can grow no more (the lane has
// stopped, or the scheduler moved it on): filed under the release that lets it go.
inline void Worker::file_for_release(Lane& l) {
  const auto& b = l.req().barrier;
  leaving_[b.last % kReleaseRing].push(&l);
}

}  // namespace ws::emu
