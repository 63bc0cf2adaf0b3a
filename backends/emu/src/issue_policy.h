// The issue rule: which of a warp's lanes issue together as its next warp instruction. A pure
// function of what each lane waits at (its oldest queued operation) and of what the warp issued
// before (its lanes' loop rounds and last keys, IssueHistory below). The worker asks it through a
// view of its lanes (issue_groups.h), the unit tests through plain values
// (tests/backends/emu/test_issue_policy.cpp); the scheduler's shortcuts (issue_groups.h, converged_issue.h,
// eager_shuffles.h) only ever predict its answer, and Debug builds check that they do.
//
// The rule, "min-PC" with loop rounds, a model of the SIMT reconvergence stack for structured code:
//  1. A warp-synchronous call whose lanes have all arrived goes first: the call that the lowest
//     lane waiting at one (LaneState::WaitWarp) waits at, once every lane named by its lanes'
//     masks is there too, waiting or ready (complete_warp_sync_group).
//  2. Otherwise the ready lanes take part: those whose oldest operation can issue (can_issue: an
//     access, a warp-synchronous call or a fence; not a barrier, the exit or an error), and that
//     do not wait for the lanes of a warp-synchronous call. Lanes at one site and sub-operation are
//     one candidate, with one key (issue_order: line << 24 | column << 8 | sub-operation, so a
//     load before the store of one `a[i] += x`) and the round of its lowest lane.
//  3. A lane's round: the times it went round a loop (issued at or before its previous key) since
//     its warp last diverged, plus one when the candidate's key is at or before the lane's last
//     issued key (issuing it is such a jump back: lane_round).
//  4. Candidate a issues before b when a is a round behind b and a's site lies inside the innermost
//     loop (in the source, the same file) around b's site: lanes a round behind finish the
//     iteration first, so an if/else inside a loop meets again at every iteration's end, as on a
//     GPU. The other way round likewise; otherwise in source order, the smaller key first
//     (issues_before).
//  5. Candidates are weighed in order of their lowest lane: one that issues before the best so far
//     replaces it; one that neither issues before nor after it is a tie (the same key at two
//     sites: two files, or one line and column of two instantiations of a template), and the
//     best stays.
//  6. Of the best candidate's lanes an access keeps those that do what its lowest lane does (the
//     same allocation, width and kind: one instruction); the others issue later.
// The choice is exact when no tie remains and step 6 left no lane out: every ready lane at the
// chosen key is in the group. A cache of it (issue_groups.h) may then be kept up to date as lanes
// become ready; an inexact one must be asked again.
//
// Worked example: four lanes of a warp in
//   10  for (int i = 0; i < n; ++i) {      // the loop: lines 10 to 13
//   11    if (lane % 2) v += a[i];         // odd lanes: a load at 11
//   12    else          v += b[i];         // even lanes: a load at 12
//   13  }
// First iteration, all ready and round 0: lanes 1 and 3 wait at 11, lanes 0 and 2 at 12. By
// source order 11 goes first: lanes {1, 3} issue (mask 0b1010), and the warp is divergent. Lanes 1
// and 3 go round and wait at 11 again, at their last key: round 1. Lanes 0 and 2 are still in
// round 0, at 12, inside the loop around 11: they issue next (0b0101), and then go round too
// (round 1, as lanes 1 and 3), so 11 comes first again: 0b1010, 0b0101, 0b1010, ... Without the
// loop rule lanes 1 and 3 would run every iteration before lanes 0 and 2 ran one.
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>
#include <vector>

#include "request.h"

namespace ws::emu {

// What the rule decides: the lanes of the next warp instruction and its key.
struct IssueChoice {
  uint64_t key = UINT64_MAX;
  uint32_t mask = 0;
  bool exact = true;  // every ready lane at `key` is in `mask` (see above)
};

// A lane's round if it issues at `key` (rule 3).
constexpr uint32_t lane_round(uint32_t rounds, uint64_t last_key, uint64_t key) {
  return rounds + (key <= last_key ? 1 : 0);
}

// Rule 4. `loops.inside_loop_around(site, key, around)`: whether `site` (at `key`) lies inside the
// innermost loop around the site `around`, in one file (SiteLoops, site_loop.h).
template <class Loops>
bool issues_before(uint64_t a, uint32_t round_a, const void* site_a, uint64_t b, uint32_t round_b,
                   const void* site_b, Loops& loops) {
  if (round_a < round_b && loops.inside_loop_around(site_a, a, site_b)) return true;
  if (round_b < round_a && loops.inside_loop_around(site_b, b, site_a)) return false;
  return a < b;
}

// Rules 2 to 6: the next warp instruction of the lanes of `ready` (not 0). `h` describes lane i
// of the warp (i < 32) by its oldest queued operation:
//   h.site(i)         the call site, as a pointer that names it (site_key)
//   h.sub(i)          its sub-operation (SubOp): one site and sub-operation, one key
//   h.key(i)          its issue key (Request::order)
//   h.type(i)         its request type
//   h.instruction(i)  for an access, what makes two accesses at one site one warp instruction
//                     (Request::group_tail: allocation, width, kind)
//   h.round(i)        the lane's loop rounds so far (IssueHistory::round)
//   h.last_key(i)     the key of the lane's last issued operation (IssueHistory::last_key)
// and `loops` answers rule 4's question (issues_before).
template <class Heads, class Loops>
IssueChoice choose_issue_group(uint32_t ready, const Heads& h, Loops& loops) {
  assert(ready && "a warp with no ready lane has nothing to issue");
  uint64_t best = UINT64_MAX;
  uint32_t at_best = 0, best_round = 0;  // the best candidate's lanes, its round
  bool tie = false;                      // a candidate that is neither before nor after it
  for (uint32_t left = ready; left;) {
    // The candidate of the lowest lane left: the lanes at its site and sub-operation. (Taken
    // site by site, so that a key is computed once per site, not per lane.)
    const int first = std::countr_zero(left);
    const void* site = h.site(first);
    const auto sub = h.sub(first);
    uint32_t same = 0;
    for (uint32_t m = left; m; m &= m - 1) {
      const int j = std::countr_zero(m);
      if (h.site(j) == site && h.sub(j) == sub) same |= m & -m;
    }
    left &= ~same;
    const uint64_t k = h.key(first);
    const uint32_t round = lane_round(h.round(first), h.last_key(first), k);
    if (!at_best) {
      best = k, at_best = same, best_round = round;
      continue;
    }
    const void* best_site = h.site(std::countr_zero(at_best));
    if (issues_before(k, round, site, best, best_round, best_site, loops))
      best = k, at_best = same, best_round = round, tie = false;
    else if (!issues_before(best, best_round, best_site, k, round, site, loops))
      tie = true;
  }
  IssueChoice c{best, at_best, !tie};
  const int lead = std::countr_zero(at_best);
  if (h.type(lead) == ReqType::Access) {
    const uint64_t instruction = h.instruction(lead);
    for (uint32_t m = at_best; m; m &= m - 1)
      if (h.instruction(std::countr_zero(m)) != instruction) c.mask &= ~(m & -m), c.exact = false;
  }
  return c;
}

// Rule 1: the lanes of the lowest waiting lane's warp-synchronous call if every lane they name has
// arrived there (waiting or ready), else 0 (the lowest waiting call is still incomplete). `count`
// lanes; besides the above `h` tells h.state(i) and, for a warp-synchronous call,
// h.member_mask(i).
template <class Heads>
uint32_t complete_warp_sync_group(int count, const Heads& h) {
  for (int i = 0; i < count; ++i) {
    if (h.state(i) != LaneState::WaitWarp) continue;
    const void* site = h.site(i);
    uint32_t group = 0, named = 0;
    for (int j = 0; j < count; ++j) {
      const bool here = (h.state(j) == LaneState::WaitWarp || h.state(j) == LaneState::Ready) &&
                        h.type(j) == ReqType::WarpOp && h.site(j) == site;
      if (here) group |= 1u << j, named |= h.member_mask(j);
    }
    return (named & ~group) == 0 ? group : 0;
  }
  return 0;
}

// What the rule remembers of a block's issues: per lane its loop round (rule 3) and the key of its
// last issued operation, per warp whether it is divergent (its last issue left ready lanes
// behind). Rounds count only while a warp is divergent; an issue that takes every ready lane, or
// a barrier's release, starts them afresh. The warp's last issue (key and lanes) is kept per
// warp and written out per lane only for the lanes the next issue leaves out, so that a
// convergent warp pays nothing per lane for it.
class IssueHistory {
 public:
  void resize(uint32_t threads);  // for blocks of `threads` threads, all at their start
  void reset();                   // a block's start

  bool divergent(uint32_t w) const { return divergent_[w]; }
  uint32_t round(uint32_t linear) const { return rounds_[linear]; }
  uint64_t last_key(uint32_t linear) const {
    const uint32_t w = linear / kWarpSize;
    return (warp_last_mask_[w] >> (linear % kWarpSize) & 1) ? warp_last_key_[w] : last_key_[linear];
  }

  // Warp w issued the lanes of `mask` at `key`; `lanes_left`: ready lanes were left behind.
  void issued(uint32_t w, uint32_t mask, bool lanes_left, uint64_t key) {
    if (lanes_left || divergent_[w]) count_rounds(w, mask, lanes_left, key);
    remember_issue(w, mask, key);
  }
  // The same when the warp is known to be convergent and to leave no ready lane behind.
  void remember_issue(uint32_t w, uint32_t mask, uint64_t key) {
    for (uint32_t m = warp_last_mask_[w] & ~mask; m; m &= m - 1)
      last_key_[w * kWarpSize + uint32_t(std::countr_zero(m))] = warp_last_key_[w];
    warp_last_mask_[w] = mask;
    warp_last_key_[w] = key;
  }
  // A barrier's release at `key`: the last issue of every lane of warp w (no lane of the block is
  // ready then), so the warp has met again. (Lanes that keep waiting get the key too: it is read
  // only for lanes that become ready, and they will by a later release, which sets it again.)
  void release(uint32_t w, uint64_t key) {
    const uint32_t lanes = lanes_in(w);
    warp_last_mask_[w] = lanes == kWarpSize ? ~0u : (1u << lanes) - 1;  // (the warp's lanes only)
    warp_last_key_[w] = key;
    if (divergent_[w]) {
      std::fill_n(&rounds_[w * kWarpSize], lanes, 0u);
      divergent_[w] = 0;
    }
  }

 private:
  // The warp becomes (or stays) divergent when ready lanes were left behind, and then each
  // issued lane's round is counted (all of them take the highest: they go on together); it is
  // convergent again when an issue takes every ready lane.
  void count_rounds(uint32_t w, uint32_t mask, bool lanes_left, uint64_t key);
  uint32_t lanes_in(uint32_t w) const { return std::min<uint32_t>(kWarpSize, threads_ - w * kWarpSize); }

  uint32_t threads_ = 0;
  std::vector<uint8_t> divergent_;  // per warp
  std::vector<uint32_t> rounds_;    // per lane, while its warp is divergent (else 0)
  std::vector<uint64_t> last_key_;  // per lane, where warp_last_mask_ leaves it out
  std::vector<uint64_t> warp_last_key_;
  std::vector<uint32_t> warp_last_mask_;
};

}  // namespace ws::emu
