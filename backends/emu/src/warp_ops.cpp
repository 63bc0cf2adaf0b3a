// Warp-synchronous calls at issue (__shfl_*_sync, votes, matches, warp reductions, __activemask,
// __syncwarp): each lane's result, a call's wait for the lanes its mask names (as on Volta and
// later), and the report of a call whose named lanes can never come.
#include <algorithm>
#include <bit>
#include <string>

#include "eager_shuffles.h"
#include "issue_groups.h"
#include "issue_policy.h"
#include "worker_post.h"

namespace ws::emu {

// Every lane of `mask` gets its result. One loop per kind of operation, so that the loop over
// the lanes does not dispatch on it (a shuffle is five per thread in a warp-shuffle reduction).
void Worker::issue_warp_op(uint32_t mask, Lane* L, uint64_t* result) {
  const WarpOp op = L[std::countr_zero(mask)].req().warp.op;
  switch (op) {
    case WarpOp::SyncWarp: return;  // nothing to compute: its lanes did not wait for a result
    case WarpOp::ActiveMask:
      for (uint32_t m = mask; m; m &= m - 1) result[std::countr_zero(m)] = mask;
      return;
    case WarpOp::Clock:  // this instruction's issue clock (issued_event took it: clock_ - 1)
      for (uint32_t m = mask; m; m &= m - 1) result[std::countr_zero(m)] = clock_ - 1;
      return;
    case WarpOp::Ballot:
    case WarpOp::Any:
    case WarpOp::All: {
      uint64_t vote = 0;
      for (uint32_t m = mask; m; m &= m - 1) {
        const int i = std::countr_zero(m);
        const Request& r = L[i].req();
        if (r.warp.value && (r.member_mask() >> i & 1)) vote |= 1ull << i;
      }
      for (uint32_t m = mask; m; m &= m - 1) {
        const int i = std::countr_zero(m);
        const uint32_t named = L[i].req().member_mask();
        result[i] = op == WarpOp::Ballot ? vote & named
                      : op == WarpOp::Any  ? (vote & named) != 0
                                           : (vote & named) == (named & mask);
      }
      return;
    }
    case WarpOp::MatchAny:
    case WarpOp::MatchAll: {
      // Each lane compares its value with those of the lanes its mask names that take part.
      for (uint32_t m = mask; m; m &= m - 1) {
        const int i = std::countr_zero(m);
        const Request& r = L[i].req();
        const uint32_t peers = r.member_mask() & mask;
        uint32_t same = 0;
        for (uint32_t p = peers; p; p &= p - 1) {
          const int j = std::countr_zero(p);
          if (L[j].req().warp.value == r.warp.value) same |= 1u << j;
        }
        result[i] = op == WarpOp::MatchAny ? same : (same == peers ? peers : 0);
      }
      return;
    }
    case WarpOp::ReduceAdd:
    case WarpOp::ReduceMin:
    case WarpOp::ReduceMax:
    case WarpOp::ReduceAnd:
    case WarpOp::ReduceOr:
    case WarpOp::ReduceXor: {
      // 32-bit operands; min and max compare as signed when the operand says so (arg 1).
      const bool is_signed = L[std::countr_zero(mask)].req().warp.arg == 1;
      for (uint32_t m = mask; m; m &= m - 1) {
        const int i = std::countr_zero(m);
        const uint32_t peers = L[i].req().member_mask() & mask;
        if (!peers) {  // (a mask without the lane itself: undefined on the GPU)
          result[i] = 0;
          continue;
        }
        uint32_t acc = uint32_t(L[std::countr_zero(peers)].req().warp.value);
        for (uint32_t p = peers & (peers - 1); p; p &= p - 1) {
          const uint32_t v = uint32_t(L[std::countr_zero(p)].req().warp.value);
          switch (op) {
            case WarpOp::ReduceAdd: acc += v; break;
            case WarpOp::ReduceMin: acc = is_signed ? uint32_t(std::min(int32_t(acc), int32_t(v))) : std::min(acc, v); break;
            case WarpOp::ReduceMax: acc = is_signed ? uint32_t(std::max(int32_t(acc), int32_t(v))) : std::max(acc, v); break;
            case WarpOp::ReduceAnd: acc &= v; break;
            case WarpOp::ReduceOr: acc |= v; break;
            default: acc ^= v; break;
          }
        }
        result[i] = acc;
      }
      return;
    }
    default: break;
  }
  check_eager_shuffles(mask, L, OldestEntry{});
  // A shuffle. Lanes that took their result at once (eager shuffles) need none: when all did,
  // there is nothing to compute (known at once when no lane of the warp waits at a shuffle).
  uint32_t& waiting = waiting_shuffles_[uint32_t(L - lanes_.data()) / kWarpSize];
  if (!waiting) return;
  uint32_t waits = 0;
  for (uint32_t m = mask; m; m &= m - 1) waits += !L[std::countr_zero(m)].req().warp.eager;
  if (!waits) return;
  waiting -= waits;
  // Every value first (a lane's result may come from a lane after it), then each
  // lane's source lane as PTX's shfl.sync computes it (shuffle_source). Reading from a lane that
  // is not taking part is undefined on the GPU; the emulator returns the reader's own value.
  // (The lanes of one call pass the same operand and width but for odd code: then the lane
  // loop needs neither.)
  uint64_t value[kWarpSize];
  const auto& lead = L[std::countr_zero(mask)].req().warp;
  bool uniform = true;
  for (uint32_t m = mask; m; m &= m - 1) {
    const int i = std::countr_zero(m);
    const auto& r = L[i].req().warp;
    value[i] = r.value;
    uniform &= r.arg == lead.arg && r.width == lead.width;
  }
  auto each = [&]<WarpOp kOp>() {
    auto one = [&](int i, int width, int b) {
      const int src = shuffle_source(kOp, i, width, b);
      result[i] = (mask >> src & 1) ? value[src] : value[i];
    };
    if (uniform) {
      const int width = shuffle_width(lead.width);
      for (uint32_t m = mask; m; m &= m - 1) one(std::countr_zero(m), width, lead.arg);
    } else {
      for (uint32_t m = mask; m; m &= m - 1) {
        const int i = std::countr_zero(m);
        one(i, shuffle_width(L[i].req().warp.width), L[i].req().warp.arg);
      }
    }
  };
  switch (op) {
    case WarpOp::Shfl: each.operator()<WarpOp::Shfl>(); break;
    case WarpOp::ShflUp: each.operator()<WarpOp::ShflUp>(); break;
    case WarpOp::ShflDown: each.operator()<WarpOp::ShflDown>(); break;
    case WarpOp::ShflXor: each.operator()<WarpOp::ShflXor>(); break;
    default: break;
  }
}

// (Called only for a warp with lanes in WaitWarp: issue_one asks warp_waiting_ first.)
uint32_t Worker::complete_warp_sync_group(Lane* L, int count) const {
  const uint32_t base = uint32_t(L - lanes_.data());
  return ws::emu::complete_warp_sync_group(count, LaneHeads{L, OldestEntry{}, history_, base});
}

bool Worker::wait_or_fail_warp_sync(uint32_t w, uint32_t mask, Lane* L, int count) {
  // The lanes named in the mask but absent can still come if they are running elsewhere in this
  // warp; if they exited, wait at a barrier, or do not exist, they never will.
  const Request& lr = L[std::countr_zero(mask)].req();
  uint32_t named = 0;
  for (uint32_t m = mask; m; m &= m - 1) named |= L[std::countr_zero(m)].req().member_mask();
  for (uint32_t missing = named & ~mask; missing; missing &= missing - 1) {
    const int ml = std::countr_zero(missing);
    std::string why;
    if (ml >= count) why = "does not exist (the warp has only " + std::to_string(count) + " lanes)";
    else if (L[ml].state == LaneState::Exited) why = "has already exited";
    else if (L[ml].state == LaneState::AtBarrier) why = "waits at " + where(L[ml]);
    else if (L[ml].state == LaneState::WaitWarp && L[ml].req().loc != lr.loc)
      why = "waits at another warp-synchronous call at " + where(L[ml]);
    if (why.empty()) continue;
    current_ = &L[std::countr_zero(mask)];
    add_diagnostic(Severity::Error, "warp-sync-mask",
                   std::string(to_string(lr.warp.op)) + " at " + site_text(site_id(lr)) + " in warp " + std::to_string(w) +
                       " of block " + std::to_string(block_) + ": the mask names lanes " + hex_mask(named) +
                       " but only lanes " + hex_mask(mask) + " reach it; lane " + std::to_string(ml) + " " + why +
                       ". Every lane named in the mask must reach the same call (Volta and later GPUs wait for "
                       "them; the result is undefined if they never come).",
                   site_id(lr), w * kWarpSize + uint32_t(std::countr_zero(mask)));
    failed_ = true;
    launch_.block_failed(block_);
    return true;
  }
  for (uint32_t m = mask; m; m &= m - 1) {
    const int i = std::countr_zero(m);
    L[i].state = LaneState::WaitWarp;  // out of the min-PC scan until its group is complete
    ready_[w] &= ~(1u << i);
  }
  forget_group(w);
  waiting_warp_sync_ += uint32_t(std::popcount(mask));
  warp_waiting_[w] += uint32_t(std::popcount(mask));
  return true;
}

void Worker::report_warp_sync_deadlock() {
  settle_all_converged();  // (unreachable with one pending: a converged warp always issues)
  for (uint32_t w = 0; w < warps_; ++w) {
    Lane* L = &lanes_[w * kWarpSize];
    const int count = int(lanes_in(w));
    uint32_t waiting = 0, named = 0;
    for (int i = 0; i < count; ++i)
      if (L[i].state == LaneState::WaitWarp) waiting |= 1u << i, named |= L[i].req().member_mask();
    if (!waiting) continue;
    const int ml = std::countr_zero(named & ~waiting);
    const Request& lr = L[std::countr_zero(waiting)].req();
    current_ = &L[std::countr_zero(waiting)];
    add_diagnostic(Severity::Error, "warp-sync-mask",
                   std::string(to_string(lr.warp.op)) + " at " + site_text(site_id(lr)) + " in warp " + std::to_string(w) +
                       " of block " + std::to_string(block_) + ": lanes " + hex_mask(waiting) +
                       " wait for lanes " + hex_mask(named) + ", but lane " + std::to_string(ml) + " waits at " +
                       (ml < count ? where(L[ml]) : std::string("nothing (it does not exist)")) + " and never comes.",
                   site_id(lr), w * kWarpSize + uint32_t(std::countr_zero(waiting)));
    break;
  }
  failed_ = true;
  launch_.block_failed(block_);
}

}  // namespace ws::emu
