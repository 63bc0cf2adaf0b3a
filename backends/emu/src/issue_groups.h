// The issue group cache: per warp, the instruction it issues next, kept up to date as its lanes
// become ready, so that a converged warp issues without asking the issue rule (issue_policy.h)
// at every instruction.
//
// Each lane that becomes ready (its oldest queued operation can issue) is offered to its warp's
// group: when it does the same thing as the group's lanes (the same site, and for an access the
// same allocation and kind) it joins it, inline (join_group); otherwise place_in_group decides
// whether it starts a group of its own (a smaller key), makes the group inexact (the same key,
// something else) or waits (a larger key). What the rule's loop rounds could change is never
// decided here: in a divergent warp, or where lanes jumped back (went round a loop), the group
// is marked inexact, and issue_one asks the rule again (scan_group). After an issue that leaves
// ready lanes behind, the group is theirs, asked of the rule at once (forget_group). So the
// cache is exact only while every ready lane at its key is in it, as the rule's choice would be;
// Debug builds check that at every issue that takes a cached group (check_cached_group).
#pragma once

#include <bit>
#include <cassert>
#include <cstdint>

#include "issue_policy.h"
#include "lane.h"
#include "worker.h"

namespace ws::emu {

struct IssueGroup {
  uint64_t key = UINT64_MAX;  // UINT64_MAX: no lane ready
  const void* loc = nullptr;
  uint64_t tail = 0;  // an access's tail word (allocation, width, kind); 0 otherwise
  uint32_t mask = 0;
  uint32_t named = 0;  // a warp-synchronous call: the lanes its lanes' member masks name
  bool exact = true;
  // The warp was divergent when the group was made (scan_group, forget_group): place_in_group,
  // which does not know the warp, reads it here. In a divergent warp a lane that becomes ready
  // elsewhere leaves the choice to a new scan (it may be a loop round behind).
  bool divergent = false;
  // The group's lanes jumped back (went round a loop): a lane that becomes ready elsewhere
  // may be a round behind them, so the scan decides (place_in_group).
  bool back = false;
  // The warp issues converged (converged_issue.h: converged_[w] has the entries;
  // settle_converged makes a new group). A copy of `converged_[w].next < converged_[w].end`,
  // here so that issue_one tells the two paths apart from the group it reads anyway.
  bool converged = false;
};

// The issue rule's view of a warp's lanes L[0, 32) (issue_policy.h: the Heads of
// choose_issue_group): `entry` gives the request of a lane that the rule weighs.
template <class Entry>
struct LaneHeads {
  const Lane* L;
  Entry entry;
  const IssueHistory& history;
  uint32_t base;  // L[0]'s index in the block
  const Request& at(int i) const { return entry(L[i]); }
  const void* site(int i) const { return at(i).loc; }
  SubOp sub(int i) const { return at(i).sub; }
  uint64_t key(int i) const { return at(i).order(); }
  ReqType type(int i) const { return at(i).type; }
  uint64_t instruction(int i) const { return at(i).group_tail(); }
  uint32_t member_mask(int i) const { return at(i).member_mask(); }
  LaneState state(int i) const { return L[i].state; }
  uint32_t round(int i) const { return history.round(base + uint32_t(i)); }
  uint64_t last_key(int i) const { return history.last_key(base + uint32_t(i)); }
};
struct OldestEntry {  // a lane's oldest queued operation
  const Request& operator()(const Lane& l) const { return l.req(); }
};
struct QueueEntry {  // a lane's queue entry k (a converged warp's lanes: their heads are at 0)
  uint32_t k;
  const Request& operator()(const Lane& l) const { return l.queue[k]; }
};

// A lane that became ready with `h` joins its warp's next instruction `g` (the usual case,
// inline), or starts it, or makes it inexact (place_in_group). `g` may be issue_one's copy.
// (A lane that joins does not add to g.back: in a convergent warp every ready lane comes from its
// last issue or from a barrier's release, so lanes at one site all jumped back or none did; in a
// divergent one every group is left to the scan.)
inline void Worker::join_group(IssueGroup& g, uint32_t bit, const Request& h) {
  // The same call (and for an access the same allocation and kind) as the warp's next
  // instruction: it joins it (one site, one sub-operation: one key).
  if (h.loc == g.loc && (h.type != ReqType::Access || h.group_tail() == g.tail)) [[likely]] {
    g.mask |= bit;
    if (h.type == ReqType::WarpOp) g.named |= h.member_mask();
    return;
  }
  place_in_group(g, bit, h);
}

// After lanes left the ready set: the next instruction of the lanes left, if any (a lane that
// becomes ready later joins it, or replaces it with a smaller key). In a divergent warp it is
// left to the next issue's scan: the lanes that become ready meanwhile rarely join it.
inline void Worker::forget_group(uint32_t w) {
  if (history_.divergent(w)) groups_[w] = IssueGroup{0, nullptr, 0, 0, 0, false, true};
  else if (!ready_[w]) groups_[w] = IssueGroup{};
  else groups_[w] = scan_group(w, ready_[w]);
}

// Debug builds: a group that issue_one takes from the cache (exact) is the issue rule's choice.
inline void Worker::check_cached_group([[maybe_unused]] uint32_t w, [[maybe_unused]] uint32_t ready,
                                       [[maybe_unused]] const IssueGroup& g) {
#ifndef NDEBUG
  const IssueGroup rule = scan_group(w, ready);
  assert(rule.mask == g.mask && rule.key == g.key && rule.loc == g.loc && rule.tail == g.tail &&
         rule.named == g.named && "the issue group cache disagrees with the issue rule");
#endif
}

}  // namespace ws::emu
