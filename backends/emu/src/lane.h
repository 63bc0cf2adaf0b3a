// A lane: one CUDA thread of the block a worker runs, its fiber and its queue of requests
// (request.h), and the storage the worker keeps its lanes in.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>

#include "fiber_switch.h"
#include "request.h"

namespace ws::emu {

struct alignas(64) Lane {
  // Operations queued before the lane stops. 16 holds a whole reduction's worth of barriers for
  // the threads that sit out the tree (they run to their exit without stopping once).
  static constexpr uint32_t kQueue = 16;

  FiberContext fiber;  // the lane, suspended on its fiber (stale while it runs; see on_fiber)
  uint32_t linear = 0;
  LaneState state = LaneState::Running;
  // `head` is back to 0 whenever the queue empties, and a lane is resumed only when its queue is
  // empty: so while a lane runs, its entries are queue[0, size) (push writes queue[size]).
  uint8_t head = 0;  // back to 0 whenever the queue empties: a lane that stops at every
  uint8_t size = 0;  // operation uses only queue[0], in the same cache line as this header
  static constexpr uint8_t kNoBarrier = 0xff;
  uint8_t last_barrier = kNoBarrier;  // queue index of the newest queued barrier entry
  // Eager shuffles and converged issue (eager_shuffles.h, converged_issue.h): the run pass the
  // lane was last scheduled in, and how many of its queued operations in that pass are known to
  // be the same as its warp's reference lane's (it started the pass with an empty queue, so they
  // sit at queue[0, size)); kAgreeAll for the reference lane itself.
  static constexpr uint8_t kAgreeAll = 0xff;
  uint32_t pass = 0;
  uint8_t agree = 0;
  // The lane has a fiber: it started in this block and has not exited (fiber_pool.h). Without
  // one it has not started yet, or it has exited.
  bool on_fiber = false;
  Request queue[kQueue];

  const Request& req() const { return queue[head]; }  // the oldest queued operation
};
#if !defined(__SANITIZE_ADDRESS__)  // (ASan builds carry the fiber's stack extent: see fiber_switch.h)
static_assert(offsetof(Lane, queue) + sizeof(Request) <= 64);
#endif

// A worker's lanes, in storage kept from one launch to the next (lane_array.cpp): 704 bytes a
// thread, 180 KB for a block of 256, which malloc would map afresh and unmap at every launch
// (above its mmap threshold), so that every launch would fault its pages in again.
class LaneArray {
 public:
  explicit LaneArray(uint32_t n);  // n lanes, value-initialized
  ~LaneArray();
  LaneArray(const LaneArray&) = delete;
  LaneArray& operator=(const LaneArray&) = delete;
  Lane& operator[](size_t i) { return data_[i]; }
  const Lane& operator[](size_t i) const { return data_[i]; }
  Lane* data() { return data_; }
  const Lane* data() const { return data_; }
  Lane* begin() { return data_; }
  Lane* end() { return data_ + size_; }
  const Lane* begin() const { return data_; }
  const Lane* end() const { return data_ + size_; }
  const Lane& front() const { return data_[0]; }
  uint32_t size() const { return size_; }

 private:
  Lane* data_;
  uint32_t size_;
  size_t capacity_;  // lanes the storage has room for
};

// Lanes filed for later (the lanes one barrier release lets go: barriers.h), in storage the owner
// gives with room for every lane of the block, so that filing a lane never allocates.
struct LaneList {
  Lane** slots = nullptr;
  uint32_t count = 0;
  uint32_t room = 0;
  void push(Lane* l) {
    assert(count < room && "a lane filed twice for one release");
    slots[count++] = l;
  }
  Lane** begin() const { return slots; }
  Lane** end() const { return slots + count; }
  uint32_t size() const { return count; }
  bool empty() const { return count == 0; }
  void clear() { count = 0; }
};

}  // namespace ws::emu
