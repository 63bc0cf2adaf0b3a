// Lanes on fibers (fiber_pool.h): a fiber's life, the switches from lane to lane, and the fibers'
// unwinding when the worker is destroyed.
#include "fiber_pool.h"

#include <cassert>
#include <exception>
#include <string>
#include <utility>

#include "worker_post.h"

namespace ws::emu {

namespace {
// Thrown into a suspended lane when the worker is destroyed (unwind_fibers). Not a
// std::exception, so that the kernel's own `catch (const std::exception&)` does not stop it.
struct FiberUnwind {};
}  // namespace

FiberContext FiberPool::make(FiberEntry entry, void* arg) {
  const FiberStack& stack = stacks_.emplace_back(stack_bytes_, unsigned(stacks_.size()));
  return fiber_make(stack.top(), stack.usable_bytes(), entry, arg);
}

void Worker::unwind_fibers() {
  // Every fiber is suspended somewhere: a free one where its last lane exited (exit_lane), one
  // that still runs a lane inside the kernel (its block failed) in yield_lane. Each is resumed
  // once with quitting_ set and switches back here for the last time from the end of lane_main:
  // a free one by leaving lane_main's loop, the other by an exception (FiberUnwind, thrown by
  // yield_lane) that unwinds its frames, so that their destructors run.
  Worker* const outer = t_worker;
  t_worker = this;
  quitting_ = true;
  queue_size_ = 0;
  for (Lane& l : lanes_) {
    if (!l.on_fiber) continue;
    // Its queued operations no longer matter, and a running lane writes its next one at
    // queue[size] (Lane::head): a destructor in the kernel that stores while the stack unwinds
    // must find the queue empty, not write past a full one into the next lane.
    l.head = l.size = 0;
    current_ = &l;
    fiber_swap(scheduler_, l.fiber);
  }
  while (fibers_.has_free()) {
    const FiberContext f = fibers_.take();
    fiber_swap(scheduler_, f);
  }
  // (run_block left this worker as the thread's; a kernel called after the launch must find none.)
  t_worker = outer == this ? nullptr : outer;
}

// A fiber's life: the lanes it is given in turn (current_, set by whoever switched to it, or by
// exit_lane), each from the kernel's start to its exit.
void Worker::lane_main(void* worker) {
  Worker& w = *static_cast<Worker*>(worker);
  try {
    while (!w.quitting_) {  // one lane per turn
      try {
        w.launch_.body();
      } catch (const FiberUnwind&) {
        throw;
      } catch (const std::exception& e) {
        // fail() switches away and never returns here.
        w.fail(nullptr, "exception", std::string("the kernel threw: ") + e.what());
      } catch (...) {
        w.fail(nullptr, "exception", "the kernel threw an exception that is not a std::exception");
      }
      w.exit_lane();
    }
  } catch (const FiberUnwind&) {
  }
  FiberContext gone;  // never resumed
  fiber_swap(gone, w.scheduler_);
  __builtin_unreachable();
}

// A fiber for the lane `lane` (not started), which the caller switches to at once: a free one, or
// a new one. Only the scheduler calls it: a fiber is made on the worker's own stack, where running
// out of memory for it is reported (launch.cpp), not inside the kernel's code.
FiberContext Worker::fiber_for(Lane& lane) {
  if (fibers_.has_free()) {
    lane.on_fiber = true;
    return fibers_.take();
  }
  const FiberContext made = fibers_.make(&Worker::lane_main, this);
  lane.on_fiber = true;
  return made;
}

// Switching. The scheduler hands a queue of lanes to run; each lane, when it has posted its next
// operation, switches straight to the next lane of the queue, and the last one switches back to
// the scheduler: one context switch per lane instead of two.
void Worker::enter(Lane& lane) {
  assert(lane.head == 0 && lane.size == 0 && "a lane runs only with an empty queue");
  current_ = &lane;
  threadIdx = tids_[lane.linear];
  t_barrier_repeat.room = 0;  // it pointed into the lane that ran before
}

// Runs the lanes of queue_ (their warps' reference lanes set). A lane that stops while the next
// one needs a new fiber comes back here for it (needs_fiber_).
void Worker::run_pass() {
  queue_pos_ = 1;
  Lane* lane = queue_[0];
  enter(*lane);
  do {
    fiber_swap(scheduler_, lane->on_fiber ? lane->fiber : fiber_for(*lane));
    lane = std::exchange(needs_fiber_, nullptr);  // (entered already)
  } while (lane);
  queue_size_ = 0;
  next_pass();
}

void Worker::yield_lane() {
  Lane& self = *current_;
  if (self.state == LaneState::AtBarrier) [[unlikely]]
    file_for_release_cold(self);  // (a queue full of barriers: rare, and out of line, so that
                                  // this path keeps few registers to save)
  if (queue_pos_ < queue_size_) {  // (after a failure too: see meet_failure)
    Lane& next = *queue_[queue_pos_++];
    enter(next);
    if (next.on_fiber) {
      fiber_swap(self.fiber, next.fiber);
    } else if (fibers_.has_free()) {
      next.on_fiber = true;
      fiber_swap(self.fiber, fibers_.take());
    } else {
      needs_fiber_ = &next;  // (the scheduler makes fibers: run_pass)
      fiber_swap(self.fiber, scheduler_);
    }
  } else {
    fiber_swap(self.fiber, scheduler_);
  }
  if (quitting_) [[unlikely]]
    throw FiberUnwind{};
}

// The running lane returned from the kernel: its Exit is queued, and its fiber is free. The next
// lane of the pass runs on it at once if it has not started (no switch); otherwise the fiber
// joins the free ones and switches to that lane's fiber, or back to the scheduler. Returns when
// the fiber is given a lane to start (current_), or is to quit.
void Worker::exit_lane() {
  Lane& self = *current_;
  push(nullptr, ReqType::Exit, SubOp::Load);
  self.on_fiber = false;
  if (self.size == 1) refresh(self);
  else if (self.state == LaneState::AtBarrier) file_for_release(self);  // (as yield_lane does)
  if (queue_pos_ < queue_size_) {
    Lane& next = *queue_[queue_pos_++];
    enter(next);
    if (!next.on_fiber) {
      next.on_fiber = true;
      return;
    }
    fiber_swap(fibers_.give(), next.fiber);
  } else {
    fiber_swap(fibers_.give(), scheduler_);
  }
}

}  // namespace ws::emu
