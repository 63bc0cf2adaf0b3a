#include "worker.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <span>
#include <sstream>
#include <utility>

#include "site_registry.h"
#include "converged_issue.h"
#include "issue_effects.h"
#include "worker_post.h"

namespace ws::emu {

namespace {

thread_local uint64_t t_epoch_counter = 0;  // per worker thread: new value for every block

constexpr uint8_t kPoison = 0xCD;                // what uninitialised shared memory holds

std::string hex_mask(uint32_t m) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", m);
  return buf;
}

std::string site_text(uint32_t site) {
  const SiteInfo s = SiteRegistry::instance().info(site);
  return s.file + ":" + std::to_string(s.line);
}

}  // namespace

std::string format_ranges(const std::vector<uint32_t>& v) {
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(v[i]);
    if (j > i) {
      out += '-';  // (GCC 12 warns wrongly on `"-" + std::to_string(...)`)
      out += std::to_string(v[j]);
    }
    i = j + 1;
  }
  return out;
}

uint32_t LaunchState::register_shared(const char* name, std::string_view type, uint32_t elem_size,
                                      uint64_t extent, uint64_t bytes, bool dynamic,
                                      std::string& error) {
  std::lock_guard lock(shared_mutex);
  for (uint32_t i = 0; i < shared_allocs.size(); ++i) {
    const Allocation& a = shared_allocs[i];
    if (a.name == name && a.elem_size == elem_size && a.extent == extent &&
        (a.base >= kDynamicBase) == dynamic) {
      error = shared_errors[i];  // (every thread that touches an array over the limit fails)
      return global_allocs + i;
    }
  }
  Allocation a;
  a.name = name;
  a.type_name = std::string(type);
  a.space = MemSpace::Shared;
  a.elem_size = elem_size;
  a.extent = extent;
  if (dynamic) {
    a.base = kDynamicBase;
  } else {
    a.base = static_shared_bytes;
    static_shared_bytes += (bytes + 127) / 128 * 128;  // each array starts at bank 0
    const uint64_t total = static_shared_bytes + opt.dynamic_shared_bytes;
    if (total > Limits::max_shared_bytes_per_block) {
      error = "the block needs " + std::to_string(total) + " bytes of shared memory (static " +
              std::to_string(static_shared_bytes) + " + dynamic " +
              std::to_string(opt.dynamic_shared_bytes) + "), over the per-block limit of " +
              std::to_string(Limits::max_shared_bytes_per_block) + " bytes";
    }
  }
  shared_allocs.push_back(std::move(a));
  shared_errors.push_back(error);
  return global_allocs + uint32_t(shared_allocs.size() - 1);
}

Worker::~Worker() { unwind_fibers(); }

Worker::Worker(LaunchState& launch) : launch_(launch), lanes_(uint32_t(launch.opt.block.count())) {
  threads_ = uint32_t(launch.opt.block.count());
  warps_ = (threads_ + kWarpSize - 1) / kWarpSize;
  leaving_slots_.reset(new Lane*[size_t(kReleaseRing) * threads_]);
  for (uint32_t k = 0; k < kReleaseRing; ++k) leaving_[k] = {&leaving_slots_[size_t(k) * threads_], 0, threads_};
  fibers_.reserve(threads_);
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

// An access that is the lane's only queued operation: the scheduler sees it now.
void Worker::first_posted_access(Lane& l, Request& r, bool must_stop) {
  set_ready(l, r);
  if (must_stop) yield_lane();
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
    if (launch_.aborted.load(std::memory_order_relaxed)) return false;
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
    if (first.type == ReqType::WarpOp && first.warp.op != WarpOp::ActiveMask && (named & ~mask))
      return wait_or_fail_warp_sync(w, mask, L, count);
  }
  // (A copy: the issued lanes move on to their next operation below.)
  const Request lr = L[std::countr_zero(mask)].req();

  // The site's registry id, and its issue key (for the loop rounds below), from one cache lookup.
  const SiteRegistry::Key site = site_of(lr);
  const uint64_t key = site.order | uint64_t(lr.sub);
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
  if (record_->recorded) record_->events.push_back(e);
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

// Every lane of `mask` gets its result. One loop per kind of operation, so that the loop over
// the lanes does not dispatch on it (a shuffle is five per thread in a warp-shuffle reduction).
void Worker::issue_warp_op(uint32_t mask, Lane* L, uint64_t* result) {
  const WarpOp op = L[std::countr_zero(mask)].req().warp.op;
  switch (op) {
    case WarpOp::SyncWarp: return;  // nothing to compute: its lanes did not wait for a result
    case WarpOp::ActiveMask:
      for (uint32_t m = mask; m; m &= m - 1) result[std::countr_zero(m)] = mask;
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
    launch_.aborted = true;
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
  launch_.aborted = true;
}

void Worker::report_budget() {
  settle_all_converged();  // (so that each lane's oldest entry is where it is)
  std::map<uint32_t, std::vector<uint32_t>> at;
  for (const Lane& l : lanes_)
    if (l.state == LaneState::Ready || l.state == LaneState::AtBarrier) at[site_id(l.req())].push_back(l.linear);
  std::ostringstream msg;
  msg << "block " << block_ << " issued more than " << launch_.opt.step_budget
      << " warp instructions without finishing, so the emulator stopped it (a runaway loop, or a "
         "spin-wait on a value that another block must write: the emulator runs a block to its "
         "end before it starts the blocks that wait for a worker). Threads were at: ";
  bool first = true;
  for (const auto& [site, threads] : at) {
    if (!first) msg << "; ";
    first = false;
    msg << site_text(site) << " (threads " << format_ranges(threads) << ")";
  }
  add_diagnostic(Severity::Error, "step-budget", msg.str(),
                 at.empty() ? Diagnostic::kNoSite : at.begin()->first,
                 at.empty() ? 0 : at.begin()->second.front());
  failed_ = true;
  launch_.aborted = true;
}

std::string Worker::where(const Lane& lane) const {
  switch (lane.state) {
    case LaneState::Exited: return "the end of the kernel";
    case LaneState::Running: return "a point past its last issued instruction";
    case LaneState::AtBarrier: return "__syncthreads() at " + site_text(site_id(lane.req()));
    default: return site_text(site_id(lane.req()));
  }
}

void Worker::add_diagnostic(Severity sev, std::string code, std::string message, uint32_t site,
                            uint32_t thread) {
  Diagnostic d;
  d.severity = sev;
  d.code = std::move(code);
  d.message = std::move(message);
  d.site = site;
  d.block = block_;
  d.thread = thread;
  record_->diagnostics.push_back(std::move(d));
}

// --- lane side -------------------------------------------------------------------------------
// (Queueing an access or a store, the path of every lane access, is inline in worker_post.h.)

// The lane met an error after everything it had queued before was issued: now is when a
// lockstep machine would have met it. Several lanes may meet theirs at one step (the lanes an
// issue moves on, or the lanes of one run pass, which then runs to its end): the block reports
// the lowest of them (run_block), whatever the order they ran in.
void Worker::meet_failure(Lane& l) {
  l.state = LaneState::Failed;
  if (failing_lane_ == kNoLane || l.linear < failing_lane_) failing_lane_ = l.linear;
  failed_ = true;
  launch_.aborted = true;
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

uint32_t Worker::site_id(const Request& r) const { return site_of(r).id; }

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

void Worker::post_fence(const std::source_location& loc, bool block_scope) {
  Request& r = push(site_key(loc), ReqType::Fence, SubOp::Fence);
  r.block_scope = block_scope;
  posted(false);
}

void Worker::fail(const std::source_location* loc, std::string code, std::string message) {
  Lane& l = *current_;
  Diagnostic& d = pending_failures_[l.linear];
  d = Diagnostic{};
  d.severity = Severity::Error;
  d.code = std::move(code);
  d.message = std::move(message);
  d.site = loc ? SiteRegistry::lookup(*loc).id : Diagnostic::kNoSite;
  d.block = block_;
  d.thread = l.linear;
  // Reported when the scheduler reaches it (at once if the lane has nothing else queued). The
  // worker never resumes a failed lane; it unwinds the fiber when it is destroyed.
  push(nullptr, ReqType::Fail, SubOp::Load);
  posted(true);
  for (;;) yield_lane();
}

uint32_t Worker::shared_alloc(void* storage, uint64_t bytes, uint32_t elem_size, uint64_t extent,
                              const char* name, std::string_view type, uint64_t& epoch,
                              uint32_t& cached) {
  if (epoch == epoch_) return cached;
  std::string error;
  const uint32_t id = launch_.register_shared(name, type, elem_size, extent, bytes, false, error);
  if (!error.empty()) fail(nullptr, "shared-memory-limit", error);
  std::memset(storage, kPoison, bytes);
  epoch = epoch_;
  cached = id;
  return id;
}

uint32_t Worker::dynamic_shared_alloc(uint32_t elem_size, const char* name, std::string_view type,
                                      void*& storage, uint64_t& extent, uint64_t& epoch,
                                      uint32_t& cached) {
  if (epoch == epoch_) {
    storage = dynamic_shared_.data();
    extent = dynamic_shared_.size() / elem_size;
    return cached;
  }
  if (dynamic_shared_.empty())
    fail(nullptr, "no-dynamic-shared-memory",
         std::string("the kernel uses dynamic shared memory (`") + name +
             "`) but the launch asked for 0 bytes of it (the third <<<>>> argument)");
  extent = dynamic_shared_.size() / elem_size;
  // Every thread's view object is new, but the allocation is the same: remember it per worker.
  uint32_t id = Event::kNoAlloc;
  for (const DynamicView& v : dynamic_views_)
    if (v.name == name && v.elem_size == elem_size) id = v.alloc;
  if (id == Event::kNoAlloc) {
    std::string error;
    id = launch_.register_shared(name, type, elem_size, extent, dynamic_shared_.size(), true, error);
    if (!error.empty()) fail(nullptr, "shared-memory-limit", error);
    dynamic_views_.push_back({name, elem_size, id});
  }
  // The dynamic window is poisoned once per block, on the first touch of any view of it.
  if (dyn_epoch_ != epoch_) {
    std::memset(dynamic_shared_.data(), kPoison, dynamic_shared_.size());
    dyn_epoch_ = epoch_;
  }
  storage = dynamic_shared_.data();
  epoch = epoch_;
  cached = id;
  t_dynamic_view = {epoch_, name, elem_size, id, storage, extent};
  return id;
}

const std::string& Worker::allocation_name(uint32_t alloc) const {
  static const std::string& unknown = *new std::string("?");  // (never destroyed: see site_loop())
  if (alloc < launch_.global_allocs) return launch_.global_names[alloc];
  std::lock_guard lock(launch_.shared_mutex);
  const uint32_t i = alloc - launch_.global_allocs;
  return i < launch_.shared_allocs.size() ? launch_.shared_allocs[i].name : unknown;
}

}  // namespace ws::emu
