// Converged issue (converged_issue.h): when a warp's next instructions are known, issuing them
// from the queues, and moving the lanes on afterwards.
#include "converged_issue.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include "eager_shuffles.h"
#include "issue_effects.h"
#include "issue_groups.h"
#include "issue_policy.h"
#include "worker_post.h"

namespace ws::emu {

// After a pass that ran lanes of warp `w`: whether its next instructions can be issued
// converged, and how many.
void Worker::form_converged(uint32_t w, uint32_t pass) {
  if (!converged_on_ || failed_ || history_.divergent(w) || warp_pass_[w] != pass) return;
  const Lane& ref = *warp_ref_[w];
  // Entries [0, end) are issued converged, and every lane keeps at least one more (entry `end`,
  // whatever it is: settle_converged moves the lanes on to it as retire_head would). The
  // reference lane's entries first (cheapest, and mostly what decides): those issuable at once.
  uint32_t end = 0;
  while (end + 1u < ref.size && can_issue(ref.queue[end].type)) ++end;
  // Worth the lanes' checks below (about 50 instructions a lane) only for a few entries: each
  // saves about 25 a lane (a block's first loads, one or two, are not worth it).
  if (end < kMinConverged) return;
  const uint32_t n = lanes_in(w);
  Lane* L = &lanes_[w * kWarpSize];
  uint32_t mask = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const Lane& l = L[i];
    if (l.pass != pass) {
      if (l.state == LaneState::Exited) continue;
      return;  // a lane with operations queued from before: the warp issues lane by lane
    }
    if (l.size < 2) return;
    mask |= 1u << i;
    end = std::min<uint32_t>(end, l.size - 1u);
  }
  // A warp-synchronous call names only live lanes (else the warp waits for the others, or fails:
  // wait_or_fail_warp_sync).
  for (uint32_t k = 0; k < end; ++k)
    if (ref.queue[k].type == ReqType::WarpOp && (ref.queue[k].member_mask() & ~mask)) {
      end = k;
      break;
    }
  // The same operations as the reference lane (so the same as each other) up to `end`.
  for (uint32_t m = mask; m && end; m &= m - 1) {
    Lane& l = L[std::countr_zero(m)];
    if (&l != &ref && !agrees(l, ref, end - 1)) end = l.agree;
  }
  if (end < kMinConverged) return;
  converged_[w] = {mask, 0, uint8_t(end)};
  groups_[w].converged = true;
}

// Entry `next` of every live lane of warp `w`: issue_one's work for it without retire_head (see
// Converged): the same event, the same stores performed in lane order, nothing computed for
// a shuffle (every lane took its result when it queued it: a shuffle that waits is its lane's
// last entry, and `end` is before every lane's last one).
bool Worker::issue_converged(uint32_t w) {
  Converged& c = converged_[w];
  const uint32_t base = w * kWarpSize, mask = c.mask, k = c.next;
  Lane* L = &lanes_[base];
  const Request lr = L[std::countr_zero(mask)].queue[k];
  const SiteRegistry::Key site = site_of(lr);
  check_converged_issue(w);
  Event e = issued_event(w, mask, site);
  history_.remember_issue(w, mask, sub_order(site.order, lr.sub));  // (convergent, no lane left behind)
  switch (lr.type) {
    case ReqType::Access: {
      uint64_t offsets[kWarpSize];
      uint32_t lanes = 0;
      for (uint32_t m = mask; m; m &= m - 1) {
        const int i = std::countr_zero(m);
        const Request& r = L[i].queue[k];
        offsets[lanes++] = r.access.byte_offset;
        if (r.access.store_to) perform_posted(r, base + uint32_t(i));
      }
      record_access(e, lr, mask, offsets, lanes);
      break;
    }
    case ReqType::WarpOp:
      e.type = EventType::WarpSync;
      e.op = uint8_t(lr.warp.op);
      e.alloc = lr.member_mask();  // Event::aux()
      break;
    default:  // a fence (form_converged takes nothing else)
      e.type = EventType::Fence;
      e.op = lr.block_scope ? 1 : 0;
      break;
  }
  keep_event(*record_, launch_, e);
  if (++c.next == c.end) settle_converged(w);
  return true;
}

// The lanes of a converged warp move on to entry `next` at once, as retire_head would have
// moved them one entry at a time, in lane order: a lane whose entry there can issue joins the
// warp's next group (starting from the empty group that forget_group leaves when an issue took
// every ready lane); one at a barrier, its exit or a failure leaves the ready set (refresh).
void Worker::settle_converged(uint32_t w) {
  Converged& c = converged_[w];
  Lane* L = &lanes_[w * kWarpSize];
  IssueGroup g{};
  for (uint32_t m = c.mask; m; m &= m - 1) {
    const int i = std::countr_zero(m);
    Lane& l = L[i];
    l.head = c.next;
    l.size = uint8_t(l.size - c.next);
    const Request& h = l.req();
    if (can_issue(h.type)) [[likely]] {
      join_group(g, 1u << i, h);  // (the lane is Ready, its bit in ready_[w] set)
    } else {
      refresh(l);
      if (l.state == LaneState::AtBarrier) file_for_release(l);
    }
  }
  groups_[w] = g;
  c = Converged{};
}

void Worker::settle_all_converged() {
  for (uint32_t w = 0; w < warps_; ++w)
    if (converged_[w].next < converged_[w].end) settle_converged(w);
}

// Debug builds: the issue rule, asked about entry `next` of every lane of a converged warp (with
// the warp's ready lanes and history as they are before the issue), chooses them all; and the
// lanes that took a shuffle's result at once took the one the issue gives.
void Worker::check_converged_issue([[maybe_unused]] uint32_t w) {
#ifndef NDEBUG
  const Converged& c = converged_[w];
  const uint32_t base = w * kWarpSize;
  const Lane* L = &lanes_[base];
  const LaneHeads heads{L, QueueEntry{c.next}, history_, base};
  assert(ws::emu::complete_warp_sync_group(int(lanes_in(w)), heads) == 0 &&
         "a converged warp has a warp-synchronous call to finish first");
  const IssueChoice rule = choose_issue_group(ready_[w], heads, loops_);
  const Request& r = L[std::countr_zero(c.mask)].queue[c.next];
  assert(rule.mask == c.mask && rule.key == r.order() && "converged issue disagrees with the issue rule");
  if (r.type == ReqType::WarpOp && is_shuffle(r.warp.op)) check_eager_shuffles(c.mask, L, QueueEntry{c.next});
#endif
}

}  // namespace ws::emu
