// The lane side's cases that are not inline (worker_post.h): an access or a warp-synchronous call
// that is its lane's first queued operation, a warp-synchronous call that waits, a fence.
#include "worker_post.h"

namespace ws::emu {

// An access that is the lane's only queued operation: the scheduler sees it now.
void Worker::first_posted_access(Lane& l, Request& r, bool must_stop) {
  set_ready(l, r);
  if (must_stop) yield_lane();
}

// post_warp_op's other cases: the lane's first queued operation (the scheduler sees it now),
// __syncwarp() (queued: like a barrier it returns nothing, and memory still sees every operation
// in issue order), and a call that waits for its warp's issue.
uint64_t Worker::post_warp_op_rest(Lane& l, Request& r, bool eager_tried) {
  const WarpOp op = r.warp.op;
  if (l.size == 1) set_ready(l, r);  // (a warp op can issue: no need to ask refresh)
  if (l.size != Lane::kQueue) {
    if (op == WarpOp::SyncWarp) return 0;
    uint64_t eager;
    const ShuffleArgs args{r.warp.value, r.member_mask(), r.warp.arg, r.warp.width, op};
    if (!eager_tried && is_shuffle(op) && eager_ && try_eager_shuffle(l, args, eager)) {
      r.warp.eager = true;
      note_eager_result(l, eager);
      return eager;
    }
  }
  if (is_shuffle(op)) ++waiting_shuffles_[l.linear / kWarpSize];
  yield_lane();
  return results_[l.linear];  // (meaningless for __syncwarp, which returns nothing)
}

void Worker::post_print(std::string_view text) {
  uint64_t left = launch_.printf_left.load(std::memory_order_relaxed);
  do {
    if (left < text.size()) {
      launch_.printf_dropped.store(true, std::memory_order_relaxed);
      return;
    }
  } while (!launch_.printf_left.compare_exchange_weak(left, left - text.size(), std::memory_order_relaxed));
  if (printfs_.empty()) printfs_.assign(threads_, 0);
  const uint32_t t = lane().linear;
  record_->printed.push_back({t / kWarpSize, printfs_[t]++, t % kWarpSize, std::string(text)});
}

void Worker::post_fence(const std::source_location& loc, bool block_scope) {
  Request& r = push(site_key(loc), ReqType::Fence, SubOp::Fence);
  r.block_scope = block_scope;
  posted(false);
}

}  // namespace ws::emu
