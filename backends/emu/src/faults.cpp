// Faults and their reports: an error a lane meets while it runs ahead (reported when its queue
// reaches it, as if the thread had stopped there), a block that runs past its step budget, and
// the text that names where lanes are.
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "converged_issue.h"
#include "issue_effects.h"
#include "worker_post.h"

namespace ws::emu {

std::string hex_mask(uint32_t m) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", m);
  return buf;
}

std::string site_text(uint32_t site) {
  const SiteInfo s = SiteRegistry::instance().info(site);
  return s.file + ":" + std::to_string(s.line);
}

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

uint32_t Worker::site_id(const Request& r) const { return site_of(r).id; }


// The lane met an error after everything it had queued before was issued: now is when a
// lockstep machine would have met it. Several lanes may meet theirs at one step (the lanes an
// issue moves on, or the lanes of one run pass, which then runs to its end): the block reports
// the lowest of them (run_block), whatever the order they ran in.
void Worker::meet_failure(Lane& l) {
  l.state = LaneState::Failed;
  if (failing_lane_ == kNoLane || l.linear < failing_lane_) failing_lane_ = l.linear;
  failed_ = true;
  launch_.block_failed(block_);
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
  launch_.block_failed(block_);
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

}  // namespace ws::emu
