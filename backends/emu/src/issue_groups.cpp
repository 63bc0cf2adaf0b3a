// The issue group cache's slow paths (issue_groups.h): a lane that does not join its warp's group,
// and the issue rule's answer when the cache cannot tell.
#include "issue_groups.h"

#include "worker_post.h"

namespace ws::emu {

// join_group's other case: the lane does something else than the warp's next instruction, at a
// smaller key (it becomes the next instruction), the same key (the group is inexact) or a larger
// one (it waits). In a divergent warp the next scan decides (the lane may be a loop round behind).
void Worker::place_in_group(IssueGroup& g, uint32_t bit, const Request& h) {
  if (g.divergent) {
    g.exact = false;
    return;
  }
  const uint64_t key = h.order();
  const bool back = key <= history_.last_key(lane_of(h));
  // A lane that jumps back (goes round a loop) while the group's lanes do not may have to wait
  // for them (a `continue` before the others' last operation), and so may the group's lanes if
  // they jumped back: the scan decides. (Whichever of them became ready first: the order lanes
  // become ready in must not matter.)
  if (g.mask && (back || g.back)) {
    g.exact = false;
    return;
  }
  if (key < g.key)  // the smallest key so far: a group of its own (inexact if the last one was:
                    // a lane left to the scan may come first)
    g = {key, h.loc, h.type == ReqType::Access ? h.group_tail() : 0, bit,
         h.type == ReqType::WarpOp ? h.member_mask() : 0, g.exact, false, back};
  else if (key == g.key)
    g.exact = false;  // the same key, something else (another allocation at the site)
}

// The warp's next instruction from its ready lanes (the lanes L[i] for the bits of `ready`), the
// slow way: the issue rule's answer (issue_policy.h), and what the cache keeps beside it.
IssueGroup Worker::scan_group(uint32_t w, uint32_t ready) {
  const uint32_t base = w * kWarpSize;
  const Lane* L = &lanes_[base];
  const IssueChoice c = choose_issue_group(ready, LaneHeads{L, OldestEntry{}, history_, base}, loops_);
  const int first = std::countr_zero(c.mask);  // (the lowest lane of the chosen site, kept by rule 6)
  const Request& lead = L[first].req();
  IssueGroup g{c.key, lead.loc, 0, c.mask, 0, c.exact, history_.divergent(w),
               c.key <= history_.last_key(base + uint32_t(first))};
  if (lead.type == ReqType::Access) {
    g.tail = lead.group_tail();
  } else if (lead.type == ReqType::WarpOp) {
    for (uint32_t m = c.mask; m; m &= m - 1) g.named |= L[std::countr_zero(m)].req().member_mask();
  }
  return g;
}

}  // namespace ws::emu
