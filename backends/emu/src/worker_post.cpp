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

void Worker::post_print(std::string_view text, const char* format) {
  BlockRecord& rec = *record_;
  // A line costs what it keeps, its text and its record: a loop printing "" is bounded too.
  const uint64_t cost = text.size() + sizeof(PrintedLine);
  if (rec.printed_bytes + cost > LaunchState::kPrintfBytes) {
    rec.printf_cut = true;
    return;
  }
  if (launch_.printf_kept.fetch_add(cost, std::memory_order_relaxed) + cost > LaunchState::kPrintfKept) {
    launch_.printf_dropped.store(true, std::memory_order_relaxed);
    return;
  }
  const Lane& l = lane();
  // The barriers this thread has passed or queued (a thread may run ahead of a release it waits
  // for only when nothing it does depends on it; its printf still comes after the barrier).
  const uint32_t barriers = l.last_barrier == Lane::kNoBarrier ? releases_ : l.queue[l.last_barrier].barrier.last;
  const uint32_t warp = l.linear / kWarpSize;
  const uintptr_t call = reinterpret_cast<uintptr_t>(format);
  const uint32_t nth = print_made_[{l.linear, barriers, call}]++;
  const uint32_t rank = print_rank_.try_emplace({barriers, warp, call, nth}, uint32_t(print_rank_.size())).first->second;
  rec.printed_bytes += cost;
  rec.printed.push_back({barriers, warp, rank, l.linear % kWarpSize, std::string(text)});
}

void Worker::post_fence(const std::source_location& loc, bool block_scope) {
  Request& r = push(site_key(loc), ReqType::Fence, SubOp::Fence);
  r.block_scope = block_scope;
  posted(false);
}

}  // namespace ws::emu
