// Converged issue: a warp whose next instructions are known issues them straight from its lanes'
// queues, and moves the lanes on once, after the last of them.
//
// A warp instruction normally moves each issued lane on to its next queued operation (retire_head:
// its queue, its ready bit, the warp's next group), about 25 instructions per lane. But when every
// live lane of a warp ran in the same pass (a block's start, a barrier's release, or all of them
// resumed by one issue), each began it with an empty queue, and when their first `end` operations
// are the same as the reference lane's (the eager-shuffle agreement, Lane::agree) and issuable
// without waiting, the warp's next `end` instructions are known: entry k of every lane, all of them
// together, one per issue_one call (so the warps still take their turns as before). Those are
// issued straight from the queues (issue_converged) and the lanes' heads are moved on once, after
// the last of them (settle_converged), where retire_head's bookkeeping resumes exactly as it would
// have. In a reduction's warp sum this covers the loads and the shuffles (a shuffle in it needs no
// issue work when every lane took its result at once).
//
// Debug builds check each such issue against the issue rule (issue_policy.h: the rule, asked about
// entry k of every lane, chooses them all) and its shuffles' results taken at once
// (check_converged_issue).
#pragma once

#include <cstdint>

namespace ws::emu {

inline constexpr uint32_t kMinConverged = 4;  // entries worth issuing converged (see form_converged)

// A warp's converged run: entries [next, end) of the queues of the lanes of `mask`.
struct Converged {
  uint32_t mask = 0;  // the warp's live lanes
  uint8_t next = 0;   // the queue entry the warp issues next
  uint8_t end = 0;    // entries [next, end) are issued converged
};

}  // namespace ws::emu
