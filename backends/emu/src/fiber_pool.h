// Lanes on fibers. Every CUDA thread (lane) of a block runs on a fiber, a stack of its own, from
// its start to its exit; the scheduler switches to the lanes it lets run and they switch back.
//
// The pool. A thread that stops (a load, a barrier that fills its queue) keeps its fiber until it
// exits. But a thread that exits leaves nothing on its fiber's stack: the fiber takes the next
// lane of the run pass if that one has not started yet, and runs it at once, without a context
// switch (a switch is the dearest thing the emulator does: see fiber_switch.h). So a pass of lanes
// that run to their exit (most threads of a reduction) costs one switch, not one per thread, and
// a worker makes only as many fibers (and touches as many stacks) as lanes were ever stopped at
// once, plus one: at most one per lane of the block. Free fibers are taken last-in first-out (the
// stacks used most stay in the caches); new ones are made by the scheduler (Worker::run_pass), on
// the worker's own stack, where running out of memory for one is reported (launch.cpp), not
// inside the kernel's code.
//
// The switches (fiber_pool.cpp). The scheduler hands a queue of lanes to run (a run pass); each
// lane, when it has posted the operation it stops at, switches straight to the next lane of the
// queue (yield_lane), and the last one switches back to the scheduler: one context switch per
// lane instead of two. A lane that exits hands its fiber on (exit_lane). When the worker is
// destroyed, every fiber is resumed once more to unwind its stack (unwind_fibers).
#pragma once

#include <cstdint>
#include <vector>

#include "fiber_stack.h"
#include "fiber_switch.h"

namespace ws::emu {

class FiberPool {
 public:
  // Room for `lanes` fibers on stacks of `stack_bytes`. (Neither list ever moves afterwards: the
  // switches write the free list's slots.)
  void reserve(uint32_t lanes, uint32_t stack_bytes) {
    stacks_.reserve(lanes);
    free_.resize(lanes);
    stack_bytes_ = stack_bytes;
  }
  uint32_t stack_bytes() const { return stack_bytes_; }
  // Whether `address` lies in the guard page under one of this pool's stacks: a thread that
  // overflowed its stack faults there (crash_report.h).
  bool in_guard_page(const void* address) const {
    for (const FiberStack& s : stacks_)
      if (s.guard_contains(address)) return true;
    return false;
  }
  bool has_free() const { return free_count_ != 0; }
  // The free fiber given back last; its slot stays as it is until the next give().
  const FiberContext& take() { return free_[--free_count_]; }
  // The slot a fiber whose lane exited suspends itself in (fiber_swap's `from`): it is free then.
  FiberContext& give() { return free_[free_count_++]; }
  // A new fiber, on a new stack, that starts with entry(arg).
  FiberContext make(FiberEntry entry, void* arg);

 private:
  std::vector<FiberStack> stacks_;
  uint32_t stack_bytes_ = 0;
  std::vector<FiberContext> free_;  // free_[0, free_count_): fibers with no lane
  uint32_t free_count_ = 0;
};

}  // namespace ws::emu
