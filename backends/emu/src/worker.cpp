// The run loop: a block from its first run pass to its last lane's exit, one warp instruction per
// warp turn. Who calls whom ([file] of the callee where it is not this one; "Debug" marks the
// checks that only Debug builds run):
//
// Per block: run_block (from launch.cpp, for each block of the worker's share)
//   run_block_steps
//     schedule every lane, each warp's highest lane first
//     run_queue                           a run pass of lanes of any warps:
//       make_reference                    each warp's first lane to run [eager_shuffles.h]
//       run_pass                          switch to each lane in turn [fiber_pool.cpp]
//         (on the lane's fiber: the kernel's hooks [hooks.cpp] -> post_* [worker_post.h,
//         barriers.h] -> refresh / set_ready -> join_group [issue_groups.h]; a shuffle may take
//         its result at once: try_eager_shuffle [eager_shuffles.h]; a lane that stops or exits
//         hands over to the next: yield_lane / exit_lane [fiber_pool.cpp])
//       form_converged                    each warp that ran [converged_issue.cpp]
//     loop over warp turns: issue_one(w) for each warp with a ready or waiting lane; then
//       nothing issued, every lane exited:   done
//       nothing issued, lanes wait at a warp-synchronous call:
//                                           report_warp_sync_deadlock [warp_ops.cpp]
//       nothing issued otherwise:           release_barrier [barriers.cpp] -> run_queue
//       past the step budget:               report_budget [faults.cpp]; cancelled: stops
//   the lowest failing lane's error, if one met an error (meet_failure [faults.cpp])
//
// Per warp turn: issue_one(w)
//   complete_warp_sync_group              a warp-synchronous call whose lanes all came goes first
//                                         [warp_ops.cpp -> issue_policy.h, rule 1]
//   the warp's group (groups_[w]):
//     converged -> issue_converged        entry k of every lane [converged_issue.cpp]
//                  (Debug: check_converged_issue); settle_converged after the run's last entry
//     exact     -> used as kept           (Debug: check_cached_group [issue_groups.h])
//     otherwise -> scan_group             [issue_groups.cpp] -> choose_issue_group [issue_policy.h]
//   a warp-synchronous call whose named lanes are missing: wait_or_fail_warp_sync [warp_ops.cpp]
//   site_of, issued_event [issue_effects.h]; history_.issued [issue_policy.h]
//   forget_group                          the next group of the lanes left [issue_groups.h]
//   each issued lane, in lane order: perform_posted [issue_effects.h], then
//     retire_head -> join_group [issue_groups.h] / refresh [worker_post.h] / file_for_release
//     [barriers.h]
//   an access: record_access -> SiteCounting::count [issue_effects.h, site_counting.h]
//   a warp-synchronous call: issue_warp_op [warp_ops.cpp] (Debug: check_eager_shuffles)
//   lanes whose queue emptied: make_reference, run_pass [fiber_pool.cpp] -> form_converged
#include "worker.h"
#include "ws/emu/crash_report.h"

#include <algorithm>
#include <bit>

#include "converged_issue.h"
#include "issue_effects.h"
#include "issue_groups.h"
#include "worker_post.h"

namespace ws::emu {

namespace {
thread_local uint64_t t_epoch_counter = 0;  // per worker thread: new value for every block
}  // namespace

Worker::~Worker() { unwind_fibers(); }

Worker::Worker(LaunchState& launch) : launch_(launch), lanes_(uint32_t(launch.opt.block.count())) {
  ensure_signal_stack();  // (a thread that overflows its stack can still be reported)
  threads_ = uint32_t(launch.opt.block.count());
  warps_ = (threads_ + kWarpSize - 1) / kWarpSize;
  leaving_slots_.reset(new Lane*[size_t(kReleaseRing) * threads_]);
  for (uint32_t k = 0; k < kReleaseRing; ++k) leaving_[k] = {&leaving_slots_[size_t(k) * threads_], 0, threads_};
  fibers_.reserve(threads_, launch.stack_bytes);
  queue_.resize(threads_);
  tids_.resize(threads_);
  pending_failures_.resize(threads_);
  warp_steps_.resize(warps_);
  ready_.assign(warps_, 0);
  groups_.assign(warps_, IssueGroup{});
  history_.resize(threads_);
  operands_.assign(threads_, Operands{});
  results_.assign(threads_, 0);
  eager_ = launch.opt.eager_shuffles;
  converged_on_ = launch.opt.converged_issue;
  converged_.assign(warps_, Converged{});
  warp_pass_.assign(warps_, 0);
  warp_ref_.assign(warps_, nullptr);
  descend_.assign(warps_, 1);
  waiting_shuffles_.assign(warps_, 0);
#ifndef NDEBUG
  eager_results_.assign(size_t(threads_) * Lane::kQueue, 0);
#endif
  warp_waiting_.assign(warps_, 0);
  const Dim3 b = launch.opt.block;
  for (uint32_t i = 0; i < threads_; ++i) {
    Lane& l = lanes_[i];
    l.linear = i;
    tids_[i].x = i % b.x;
    tids_[i].y = (i / b.x) % b.y;
    tids_[i].z = i / (b.x * b.y);
  }
  dynamic_shared_.resize(launch.opt.dynamic_shared_bytes);
  for (size_t a = 0; a < std::min<size_t>(64, launch.opt.read_only.size()); ++a)
    if (launch.opt.read_only[a]) read_only_bits_ |= uint64_t(1) << a;
}

// A pass of lanes of any warps (a block's start, a barrier's release): each warp's reference
// lane for eager shuffles is the first of its lanes to run.
void Worker::run_queue() {
  if (queue_size_ == 0) return;
  uint32_t warps[kMaxWarps];  // the warps in this pass, for form_converged
  uint32_t count = 0;
  for (uint32_t k = 0; k < queue_size_; ++k) {
    const uint32_t linear = queue_[k]->linear, w = linear / kWarpSize;
    if (warp_pass_[w] != pass_) {
      make_reference(w, *queue_[k]);
      warps[count++] = w;
    }
  }
  const uint32_t pass = pass_;
  run_pass();
  for (uint32_t k = 0; k < count; ++k) form_converged(warps[k], pass);
}

bool Worker::run_block(uint32_t linear_block, BlockRecord& record) {
  const bool ok = run_block_steps(linear_block, record);
  if (failing_lane_ != kNoLane) {  // the error a thread met (meet_failure)
    record.diagnostics.push_back(std::move(pending_failures_[failing_lane_]));
    failing_lane_ = kNoLane;
  }
  return ok;
}

bool Worker::run_block_steps(uint32_t linear_block, BlockRecord& record) {
  t_worker = this;
  record_ = &record;
  print_made_.clear();
  print_rank_.clear();
  block_ = linear_block;
  epoch_ = ++t_epoch_counter;
  t_block_epoch = epoch_;
  t_defer_loads = launch_.opt.defer_loads;
  clock_ = 0;
  failed_ = false;
  waiting_warp_sync_ = 0;
  std::fill(warp_waiting_.begin(), warp_waiting_.end(), 0u);
  std::fill(warp_steps_.begin(), warp_steps_.end(), 0);
  const Dim3 g = launch_.opt.grid, b = launch_.opt.block;
  blockIdx = {linear_block % g.x, (linear_block / g.x) % g.y, linear_block / (g.x * g.y)};
  blockDim = dim3(b.x, b.y, b.z);
  gridDim = dim3(g.x, g.y, g.z);

  // Every lane runs to its first operation that waits, each warp's highest lane first (the
  // order for shuffles down: see eager_shuffles.h; the same for every block, so that
  // the run does not depend on which worker ran the blocks before).
  std::fill(descend_.begin(), descend_.end(), uint8_t(1));
  std::fill(waiting_shuffles_.begin(), waiting_shuffles_.end(), 0u);
  std::fill(converged_.begin(), converged_.end(), Converged{});
  for (Lane& l : lanes_) {
    // (The last block left each lane's Exit queued, and no lane on a fiber: a block that failed
    // is its worker's last.)
    l.head = l.size = 0;
    l.last_barrier = Lane::kNoBarrier;
    l.state = LaneState::Running;
  }
  for (uint32_t base = 0; base < threads_; base += kWarpSize)
    for (uint32_t i = std::min(threads_, base + kWarpSize); i-- > base;) schedule(lanes_[i]);
  std::fill(ready_.begin(), ready_.end(), 0u);
  std::fill(groups_.begin(), groups_.end(), IssueGroup{});
  history_.reset();
  exited_ = releases_ = at_barrier_ = at_barrier_key_ = 0;
  barrier_key_ = nullptr;
  // A block that finished released every lane it filed; one that failed may have left some.
  if (!leaving_empty_)
    for (LaneList& v : leaving_) v.clear();
  leaving_empty_ = false;
  run_queue();
  if (failed_) return false;
  for (;;) {
    bool progressed = false;
    for (uint32_t w = 0; w < warps_; ++w) {
      if (!ready_[w] && !warp_waiting_[w]) continue;  // nothing this warp could issue
      if (issue_one(w)) progressed = true;
      if (failed_) return false;
    }
    if (!progressed) {
      if (exited_ == threads_) break;
      if (waiting_warp_sync_) {
        report_warp_sync_deadlock();
        return false;
      }
      if (!release_barrier()) return false;
    }
    if (record.issued > launch_.opt.step_budget) {
      report_budget();
      return false;
    }
    if (launch_.stops(block_)) return false;
    if (launch_.opt.cancel && launch_.opt.cancel->load(std::memory_order_relaxed)) {
      add_diagnostic(Severity::Error, "cancelled", "the run was cancelled before block " + std::to_string(block_) +
                     " finished", Diagnostic::kNoSite, 0);
      failed_ = true;
      launch_.aborted = true;
      return false;
    }
  }
  record.done = true;
  leaving_empty_ = true;
  return true;
}

bool Worker::issue_one(uint32_t w) {
  const uint32_t base = w * kWarpSize;
  Lane* L = &lanes_[base];
  const int count = int(lanes_in(w));
  // A warp-synchronous call whose named lanes have all arrived goes first.
  uint32_t mask = warp_waiting_[w] ? complete_warp_sync_group(L, count) : 0;
  if (!mask) {
    const uint32_t ready = ready_[w];
    if (!ready) return false;
    uint32_t named = 0;  // a warp-synchronous call: the lanes named by its lanes' masks
    IssueGroup& g = groups_[w];
    if (g.converged) return issue_converged(w);
    if (!g.exact) g = scan_group(w, ready);
    else check_cached_group(w, ready, g);  // (kept by join_group as the lanes became ready)
    mask = g.mask;
    named = g.named;
    const Request& first = L[std::countr_zero(mask)].req();
    if (first.type == ReqType::WarpOp && first.warp.op != WarpOp::ActiveMask && first.warp.op != WarpOp::Clock &&
        (named & ~mask))
      return wait_or_fail_warp_sync(w, mask, L, count);
  }
  // (A copy: the issued lanes move on to their next operation below.)
  const Request lr = L[std::countr_zero(mask)].req();

  // The site's registry id, and its issue key (for the loop rounds below), from one cache lookup.
  const SiteRegistry::Key site = site_of(lr);
  const uint64_t key = sub_order(site.order, lr.sub);
  Event e = issued_event(w, mask, site);
  // The issued lanes leave the ready set; each goes on to its next queued operation (and is
  // ready again if that can issue) or, with nothing queued, resumes at run_queue below.
  history_.issued(w, mask, (ready_[w] & ~mask) != 0, key);
  ready_[w] &= ~mask;
  forget_group(w);
  uint32_t ready = ready_[w];
  IssueGroup group = groups_[w];
  switch (lr.type) {
    case ReqType::Access: {
      // One pass over the lanes, in lane order: the offsets, a queued store written as its lane
      // is taken (the highest lane wins a same-address race, as on the GPU), the lane moved on.
      // A load or atomic is performed by its lane when it resumes.
      uint64_t offsets[kWarpSize];
      uint32_t lanes = 0;
      for (uint32_t m = mask; m; m &= m - 1) {
        const int i = std::countr_zero(m);
        const Request& r = L[i].req();
        offsets[lanes++] = r.access.byte_offset;
        if (r.access.store_to) perform_posted(r, base + uint32_t(i));
        retire_head(L[i], i, ready, group, false);
      }
      record_access(e, lr, mask, offsets, lanes);
      break;
    }
    case ReqType::WarpOp:
      e.type = EventType::WarpSync;
      e.op = uint8_t(lr.warp.op);
      e.alloc = lr.member_mask();  // Event::aux()
      issue_warp_op(mask, L, &results_[base]);
      for (uint32_t m = mask; m; m &= m - 1) retire_head(L[std::countr_zero(m)], std::countr_zero(m), ready, group, true);
      break;
    case ReqType::Fence:
      e.type = EventType::Fence;
      e.op = lr.block_scope ? 1 : 0;
      for (uint32_t m = mask; m; m &= m - 1) retire_head(L[std::countr_zero(m)], std::countr_zero(m), ready, group, false);
      break;
    default:
      break;  // barriers, exits and failures are never Ready
  }
  ready_[w] = ready;
  groups_[w] = group;
  keep_event(*record_, launch_, e);
  // Lanes whose queue is now empty resume (and perform their loads and atomics, and their stores
  // wider than 8 bytes), in the warp's order; lowest first after an atomic or a store, which they
  // perform in that order (the highest lane's store is the one left, as on a GPU).
  if (queue_size_) {
    if (descend_[w] && !(lr.type == ReqType::Access && lr.kind() != AccessKind::Load))
      std::reverse(queue_.data(), queue_.data() + queue_size_);
    make_reference(w, *queue_[0]);
    const uint32_t pass = pass_;
    run_pass();
    form_converged(w, pass);
  }
  return true;
}

inline void Worker::retire_head(Lane& l, int i, uint32_t& ready, IssueGroup& group, bool may_wait) {
  if (may_wait && l.state == LaneState::WaitWarp) {
    --waiting_warp_sync_;
    --warp_waiting_[l.linear / kWarpSize];
  }
  if (--l.size == 0) {
    l.head = 0;
    l.state = LaneState::Running;  // (issue_one took the issued lanes out of ready_)
    schedule(l);
    return;
  }
  l.head = uint8_t((l.head + 1) % Lane::kQueue);
  const Request& h = l.req();
  if (can_issue(h.type)) [[likely]] {  // ready again
    l.state = LaneState::Ready;
    ready |= 1u << i;
    join_group(group, 1u << i, h);
  } else {
    // A barrier, the exit or a failure. (refresh clears the lane's bit in ready_[w], already clear
    // in `ready`, which issue_one writes back; it does not touch groups_.)
    refresh(l);
    if (l.state == LaneState::AtBarrier) file_for_release(l);
  }
}

}  // namespace ws::emu
