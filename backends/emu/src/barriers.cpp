// Barriers (barriers.h): a barrier's first meeting queued, its release, and the report of a block
// whose threads can never all meet.
#include "barriers.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "issue_groups.h"
#include "worker_post.h"

namespace ws::emu {

void Worker::queue_barrier(const void* key, int count_predicate) {
  // The release this arrival waits for: the one after the lane's last queued barrier, or the
  // block's next one when it has none queued (it has passed every release so far).
  Lane& l = *current_;
  const uint32_t release =
      l.last_barrier == Lane::kNoBarrier ? releases_ + 1 : l.queue[l.last_barrier].barrier.last + 1;
  l.last_barrier = l.size;  // (the running lane's entries are queue[0, size): see Lane::head)
  Request& r = push(key, ReqType::Barrier, SubOp::Barrier);
  r.barrier = {release, release, count_predicate >= 0, count_predicate > 0};
  // (Before posted: if the full queue makes the lane stop, the next lane to run clears it.) A
  // counting barrier has no repeats: each meeting has its own count.
  t_barrier_repeat = {key, &r.barrier.last, count_predicate >= 0 ? 0u : kMaxBarrierRepeat - 1};
  posted(false);
}

uint32_t Worker::post_barrier_count(const std::source_location& loc, bool predicate) {
  Lane& l = *current_;
  queue_barrier(site_key(loc), predicate);
  // A lane that stopped in posted() (full queue) resumed with its queue empty: the barrier has
  // released and its count is in results_.
  if (l.size) yield_lane();
  return uint32_t(results_[l.linear]);
}

void Worker::file_for_release_cold(Lane& l) { file_for_release(l); }

// Whether every thread waits at one barrier, checked the slow way (two records of one
// file:line:column, from two instantiations of a template, are the same barrier). Also counts
// the lanes at the first lane's barrier afresh, so that the next release can take the fast way.
bool Worker::barrier_sites_agree() {
  const Request& head0 = lanes_.front().req();
  const uint32_t first_site = lanes_.front().state == LaneState::AtBarrier ? site_id(head0) : Diagnostic::kNoSite;
  const bool all_same = std::all_of(lanes_.begin(), lanes_.end(), [&](const Lane& l) {
    return l.state == LaneState::AtBarrier && (l.req().loc == head0.loc || site_id(l.req()) == first_site);
  });
  barrier_key_ = at_barrier_ ? head0.loc : nullptr;
  at_barrier_key_ = 0;
  for (const Lane& l : lanes_)
    if (l.state == LaneState::AtBarrier && l.req().loc == barrier_key_) ++at_barrier_key_;
  return all_same;
}

bool Worker::release_barrier() {
  // No lane is Ready: every thread either waits at a barrier or has exited. The counts tell at
  // once when all wait at the same call; anything else takes the careful look.
  if (at_barrier_key_ != threads_ && !barrier_sites_agree()) return report_barrier_divergence();
  BlockRecord& rec = *record_;
  const uint32_t site = site_id(lanes_.front().req());
  const uint64_t t = clock_++;
  for (uint32_t w = 0; w < warps_; ++w) {
    const int count = int(lanes_in(w));
    Event e;
    e.type = EventType::Barrier;
    e.block = block_;
    e.warp = uint16_t(w);
    e.site = site;
    e.mask = count == 32 ? 0xffffffffu : ((1u << count) - 1);
    e.step = warp_steps_[w]++;
    e.time = t;
    ++rec.issued;
    keep_event(rec, launch_, e);
  }
  // Only the lanes whose queued barrier entry ends with this release move on; the others (a
  // thread that sits out the rest of a loop) keep waiting and are not touched. Counted out
  // first, so that a lane that meets its next barrier at once is counted at that one.
  ++releases_;
  LaneList& leaving = leaving_[releases_ % kReleaseRing];
  // __syncthreads_count: every thread of the block is at this one barrier (the sites agree), and
  // each learns how many of them passed a non-zero predicate.
  if (!leaving.empty() && (*leaving.begin())->req().barrier.counts) {
    uint32_t count = 0;
    for (const Lane* l : leaving) count += l->req().barrier.predicate;
    for (const Lane* l : leaving) results_[l->linear] = count;
  }
  if (at_barrier_key_ == at_barrier_) {
    // Every waiting lane is at barrier_key_ (the usual case), the leaving ones too.
    at_barrier_ -= uint32_t(leaving.size());
    at_barrier_key_ -= uint32_t(leaving.size());
  } else {
    for (const Lane* l : leaving) {
      --at_barrier_;
      if (l->req().loc == barrier_key_) --at_barrier_key_;
    }
  }
  if (at_barrier_ == 0) barrier_key_ = nullptr;
  // The release is the last issue of every lane that waits (no lane of the block is ready): the
  // warps have met again, so loop rounds start afresh, and a lane that sat out a loop's last
  // iteration does not look a round behind the others when they go on (IssueHistory::release).
  if (!leaving.empty()) {
    const uint64_t key = (*leaving.begin())->req().order();
    for (uint32_t w = 0; w < warps_; ++w) {
      history_.release(w, key);
      groups_[w] = IssueGroup{};
    }
  }
  for (Lane* l : leaving) {
    if (l->head == l->last_barrier) l->last_barrier = Lane::kNoBarrier;
    if (--l->size == 0) {  // (a lane whose queue was full of barriers)
      l->head = 0;
      l->state = LaneState::Running;
      schedule(*l);
    } else {
      l->head = uint8_t((l->head + 1) % Lane::kQueue);
      refresh(*l);
      if (l->state == LaneState::AtBarrier) file_for_release(*l);
    }
  }
  leaving.clear();
  run_queue();
  return !failed_;
}

bool Worker::report_barrier_divergence() {
  settle_all_converged();  // (as in report_warp_sync_deadlock)
  // Barrier divergence: name each barrier with who waits there, and who never will arrive.
  std::map<uint32_t, std::vector<uint32_t>> waiting;  // barrier site -> threads
  std::vector<uint32_t> exited;
  for (const Lane& l : lanes_) {
    if (l.state == LaneState::AtBarrier) waiting[site_id(l.req())].push_back(l.linear);
    else exited.push_back(l.linear);
  }
  std::ostringstream msg;
  msg << "barrier divergence in block " << block_ << ": ";
  bool first = true;
  uint32_t report_site = Diagnostic::kNoSite, first_thread = 0;
  for (const auto& [site, threads] : waiting) {
    if (!first) msg << "; ";
    first = false;
    if (report_site == Diagnostic::kNoSite) report_site = site, first_thread = threads.front();
    const SiteInfo s = SiteRegistry::instance().info(site);
    msg << threads.size() << " thread" << (threads.size() == 1 ? "" : "s") << " (" << format_ranges(threads)
        << ") wait at __syncthreads() at " << s.file << ":" << s.line;
  }
  if (!exited.empty())
    msg << "; " << exited.size() << " thread" << (exited.size() == 1 ? "" : "s") << " ("
        << format_ranges(exited) << ") exited without reaching it";
  msg << ". Every thread of a block must reach the same __syncthreads(): a barrier inside a "
         "condition that not all threads take never releases (on a GPU the kernel hangs or "
         "behaves unpredictably).";
  add_diagnostic(Severity::Error, "barrier-divergence", msg.str(), report_site, first_thread);
  failed_ = true;
  launch_.block_failed(block_);
  return false;
}

}  // namespace ws::emu
