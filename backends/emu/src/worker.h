// One worker thread of the emulator: runs blocks, one at a time, each thread of the block on a
// fiber of its own from its start to its exit, and schedules their warps.
//
// The scheduling model, in plain words:
//   1. Every thread runs (in its fiber) and posts each instrumented operation it meets (an access
//      through an array wrapper, __syncthreads(), a warp-synchronous call, a fence) to its own
//      short queue, with where in the source it is. An operation whose result the thread needs
//      (a load, an atomic, a shuffle or vote) makes it stop and give control back; one that
//      returns nothing (a store, a barrier, a fence, __syncwarp) is queued and the thread runs
//      on. This is safe because a thread's own work between two operations depends only on its
//      registers: every value it reads from memory comes from a load that waits for its turn
//      (or from memory nothing in the launch writes: a read-only array, read at once).
//      A load whose value the thread never sees (`a[i] = b[j]`, `a[i] += b[j]`) is queued too,
//      with the store it feeds: the scheduler reads it into the lane's operand slot when it is
//      issued and computes the store's value from the slots (emu_hooks.h, deferred_load). And a
//      shuffle whose source lane has already run to it along the same operations takes that
//      lane's value at once (eager_shuffles.h): the issue could give no other. A thread that
//      exits hands its fiber to the next thread to start (fiber_pool.h): a run of threads that
//      do not stop costs no context switch.
//   2. Warps take turns (round robin). A warp issues ONE instruction per turn: it takes the lanes
//      whose oldest queued operation is at the earliest source position (smallest line, then
//      column: the "min-PC" policy, issue_policy.h), records them as one warp instruction with
//      their active mask, performs it (stores are written now, in issue order; a stopped lane
//      resumes and reads its load now), and moves those lanes on to their next queued operation.
//   3. So divergent paths are serialized (the `if` side first, then the `else`), and lanes meet
//      again at the first instruction after the if/else or after a loop, where they issue
//      together once more: the classic SIMT reconvergence stack, for structured code. Inside a
//      loop, lanes that went round it (jumped back to an earlier line) wait for the lanes still in
//      the previous round, if those wait inside that loop (its extent is read from the source
//      file): an if/else in a loop meets again at each iteration's end, as on a GPU. Memory sees
//      the operations in exactly this issue order, whatever the threads ran ahead to.
//   4. Lanes whose oldest operation is __syncthreads() are not issued; when every thread of the
//      block waits at the same barrier it releases (barriers.h). If some wait while others exited
//      or wait at another barrier, the block can never go on: that is reported as barrier
//      divergence. An
//      error a thread meets while it runs ahead (an out-of-bounds index) is reported when its
//      queue reaches it, as if the thread had stopped there. When several threads meet one at
//      the same step, the report names the lowest of them, whatever order they ran in.
// Known limits: source order stands in for the post-dominator of a branch, so code that jumps
// backwards across a divergent region (goto, a device function in another file or called from
// two places while lanes are split) may reconverge later than the hardware would; a loop with
// no instrumented operation in it cannot be interrupted by the step budget.
//
// The Worker class holds a block's state; its work is spread over files with one job each
// (worker.cpp's top comment shows who calls whom):
//   worker.cpp          the run loop: a block's passes and warp turns, one warp instruction
//   issue_policy.h      the issue rule (which lanes issue next), and what it remembers
//   issue_groups.h      the cache of each warp's next group, kept as lanes become ready
//   converged_issue.h   a warp whose next instructions are known issues them from the queues
//   eager_shuffles.h    a shuffle whose result is known is taken without waiting
//   issue_effects.h     what an issue does: its event, its recorded lanes, the queued stores
//   site_counting.h     the per-site counters of every block
//   warp_ops.cpp        warp-synchronous calls at issue: results, waits for named lanes
//   barriers.h          __syncthreads(): repeats, release lists, releases
//   fiber_pool.h        lanes on fibers: the pool, the switches
//   worker_post.h       the lane side: what a thread does at each instrumented operation
//   faults.cpp          errors lanes meet, the step budget, and their reports
//   shared_memory.cpp   shared arrays and each block's storage
#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "fiber_pool.h"
#include "fiber_switch.h"
#include "lane.h"
#include "request.h"
#include "ws/emu/hooks.h"
#include "issue_policy.h"
#include "site_counting.h"
#include "site_loop.h"
#include "site_registry.h"
#include "ws/emu/launch.h"

namespace ws::emu {

// What one block produced.
// One printf of one thread: its text, and what puts it in a GPU's order (merge, launch.cpp): the
// block's barriers first (every line before a __syncthreads() before any after it), then the
// warp, the call, and the lane: a warp's lines of one printf come out together, in lane order.
// A call is a printf (told by its format) and the how-many-th time the thread makes it since the
// barrier; calls are ranked in the order the warp first made them, which is the program's order
// (a warp's lanes run the same code one after another).
struct PrintedLine {
  uint32_t barriers = 0, warp = 0, call = 0, lane = 0;
  std::string text;
  auto key() const { return std::tie(barriers, warp, call, lane); }
};

struct BlockRecord {
  bool recorded = false;
  std::vector<Event> events;        // site = SiteRegistry id until the merge remaps it
  std::vector<uint64_t> lanes;      // lane_begin indexes this vector until the merge
  std::vector<Diagnostic> diagnostics;  // site = SiteRegistry id until the merge
  std::vector<SiteCounters> counters;   // RecordOptions::count_every_block; site = SiteRegistry id
  std::vector<PrintedLine> printed;     // the block's printf output, in the order it was made
  uint64_t printed_bytes = 0;
  bool printf_cut = false;              // it printed more than a launch may (kPrintfBytes)
  uint64_t issued = 0;
  uint64_t lane_accesses = 0;
  bool done = false;
  // The launch's record budget (LaunchState::events_left) taken a chunk at a time; `full`: the
  // budget ran out, and this block records nothing more (the trace is marked truncated).
  bool full = false;
  uint64_t event_room = 0, lane_room = 0;
};

// State shared by the workers of one launch.
struct LaunchState {
  LaunchOptions opt;
  std::function<void()> body;
  uint32_t stack_bytes = kMaxStackBytes;  // each thread's (plan_stacks)
  uint32_t global_allocs = 0;            // trace allocation ids below this are global
  std::vector<std::string> global_names;
  // A cancel or a worker without memory stops every block at once. A block that fails stops
  // only the blocks after it: the ones before it (all handed out already) run to their end, so
  // that the first error and what the trace holds are the same whatever the worker count and
  // whichever worker failed first.
  std::atomic<bool> aborted{false};
  std::atomic<uint32_t> first_failed{UINT32_MAX};
  void block_failed(uint32_t block) {
    uint32_t seen = first_failed.load(std::memory_order_relaxed);
    while (block < seen && !first_failed.compare_exchange_weak(seen, block, std::memory_order_relaxed)) {}
  }
  bool stops(uint32_t block) const {
    return aborted.load(std::memory_order_relaxed) || block > first_failed.load(std::memory_order_relaxed);
  }
  // What the recorded blocks may still keep, all together (RecordOptions::max_events and
  // max_lane_accesses): a runaway loop's record stops growing here instead of filling memory.
  std::atomic<uint64_t> events_left{0}, lanes_left{0};
  // printf's output: CUDA's default buffer (cudaLimitPrintfFifoSize, 1 MB) a launch, printed in
  // block order at its end (merge), the rest dropped as on the GPU; the run says so. A block keeps
  // at most that much (its lines' text and their records: CUDA's buffer also holds a record per
  // printf), and the blocks together at most kPrintfKept (memory): up to there which lines are
  // printed does not depend on which worker ran what.
  static constexpr uint64_t kPrintfBytes = 1 << 20, kPrintfKept = 64ull << 20;
  std::atomic<uint64_t> printf_kept{0};
  std::atomic<bool> printf_dropped{false};

  // Shared-memory allocations, registered on first touch (ids continue after the global ones;
  // the trace numbers them again by first issued access: number_shared_allocations, launch.cpp).
  std::mutex shared_mutex;
  std::vector<Allocation> shared_allocs;
  std::vector<std::string> shared_errors;  // per shared allocation: why it does not fit, or ""
  uint64_t static_shared_bytes = 0;
  uint32_t register_shared(const char* name, std::string_view type, uint32_t elem_size,
                           uint64_t extent, uint64_t bytes, bool dynamic, std::string& error);
  static constexpr uint64_t kDynamicBase = 64 * 1024;  // dynamic shared window, 128-aligned
};

// Takes `n` from a launch-wide budget into a block's `room`, in chunks (one atomic per chunk, not
// per event). False when the budget cannot give `n`.
inline bool refill_room(uint64_t& room, std::atomic<uint64_t>& left, uint64_t n) {
  constexpr uint64_t kChunk = 4096;
  const uint64_t want = std::max(n, kChunk);
  uint64_t have = left.load(std::memory_order_relaxed);
  for (;;) {
    if (have < n) return false;
    const uint64_t take = std::min(want, have);
    if (left.compare_exchange_weak(have, have - take, std::memory_order_relaxed)) {
      room += take;
      return true;
    }
  }
}

// Whether a recorded block keeps one more event of `lanes` lane accesses; once it cannot, it keeps
// nothing more (so no event points at lanes that were not kept).
inline bool keeps(BlockRecord& rec, LaunchState& launch, uint64_t lanes) {
  if (!rec.recorded || rec.full) return false;
  if ((rec.event_room < 1 && !refill_room(rec.event_room, launch.events_left, 1)) ||
      (rec.lane_room < lanes && !refill_room(rec.lane_room, launch.lanes_left, lanes - rec.lane_room))) {
    rec.full = true;
    return false;
  }
  return true;
}

// Appends a recorded block's event, when the budget has room for it.
inline void keep_event(BlockRecord& rec, LaunchState& launch, const Event& e) {
  if (!keeps(rec, launch, 0)) return;
  rec.events.push_back(e);
  --rec.event_room;
}

struct IssueGroup;  // issue_groups.h
struct Converged;   // converged_issue.h

class Worker;
// The worker whose fibers run on this thread (set while it runs a block). Inline, so that the
// kernel API's calls (hooks.cpp) read it without a call.
inline thread_local Worker* t_worker = nullptr;

class Worker {
 public:
  static constexpr uint32_t kMaxBarrierRepeat = 64;
  explicit Worker(LaunchState& launch);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Runs one block to completion or to its first error. Returns false on error.
  bool run_block(uint32_t linear_block, BlockRecord& record);

  static Worker* current() { return t_worker; }

  // --- called from lane fibers (emu_hooks) ---
  Lane& lane() { return *current_; }
  // `tag` is the kernel's access_tag word (emu_hooks.h). A store of up to 8 bytes is queued with
  // its value; a wider one is posted as an access, and the lane writes it when it resumes.
  void post_access(const void* key, uint64_t tag, uint64_t byte_offset);
  void post_store(const void* key, uint64_t tag, uint64_t byte_offset, void* target, uint64_t value);
  void post_deferred_load(const void* key, uint64_t tag, uint64_t byte_offset, const void* from, uint32_t slot);
  void post_deferred_store(const void* key, uint64_t tag, uint64_t byte_offset, void* target, Combine combine);
  // __syncthreads(): queued, or counted as a repeat of the lane's newest entry (barriers.h).
  void post_barrier(const std::source_location& loc);
  static void offer_barrier_repeats(Request& tail);
  // `count_predicate` >= 0: a __syncthreads_count whose lane's predicate it is (0 or 1).
  [[gnu::noinline]] void queue_barrier(const void* key, int count_predicate = -1);
  // __syncthreads_count(predicate): queued like a barrier; the lane waits for its release.
  uint32_t post_barrier_count(const std::source_location& loc, bool predicate);
  uint64_t post_warp_op(const std::source_location& loc, WarpOp op, uint32_t member_mask,
                        uint64_t value, int32_t arg, int32_t width);
  [[gnu::noinline]] uint64_t post_warp_op_rest(Lane& l, Request& r, bool eager_tried);
  void post_fence(const std::source_location& loc, bool block_scope);
  // printf's text of the running thread, kept with its block (PrintedLine); `format` tells the
  // call apart from the thread's others.
  void post_print(std::string_view text, const char* format);
  [[noreturn]] void fail(const std::source_location* loc, std::string code, std::string message);
  uint32_t shared_alloc(void* storage, uint64_t bytes, uint32_t elem_size, uint64_t extent,
                        const char* name, std::string_view type, uint64_t& epoch, uint32_t& cached);
  uint32_t dynamic_shared_alloc(uint32_t elem_size, const char* name, std::string_view type,
                                void*& storage, uint64_t& extent, uint64_t& epoch, uint32_t& cached);
  const std::string& allocation_name(uint32_t alloc) const;
  // The running lane, for a crash handler (ws/emu/crash_report.h).
  std::size_t describe_crash(const void* fault_address, const char* signal_name, char* out,
                             std::size_t room) const noexcept;

 private:
  // --- the run loop (worker.cpp) ---
  bool run_block_steps(uint32_t linear_block, BlockRecord& record);
  void run_queue();
  bool issue_one(uint32_t warp);
  // After its warp issued the oldest operation of lane i: the lane moves on to its next one.
  // `ready`/`group` are issue_one's copies of ready_[w] and groups_[w], written back after its
  // loop over the lanes (kept in registers meanwhile). `may_wait`: the lane may be at WaitWarp.
  void retire_head(Lane& lane, int i, uint32_t& ready, IssueGroup& group, bool may_wait);

  // --- lanes on fibers (fiber_pool.h) ---
  static void lane_main(void* worker);
  void enter(Lane& lane);
  void run_pass();
  void yield_lane();
  void exit_lane();
  FiberContext fiber_for(Lane& lane);
  void unwind_fibers();

  // --- the lane side (worker_post.h) ---
  Request& push(const void* loc, ReqType type, SubOp sub, uint32_t alloc_field = 0);
  Request& push_access(const void* key, uint64_t tag, uint64_t byte_offset);
  void posted(bool must_stop);
  void posted_access(Request& r, bool must_stop);
  [[gnu::noinline]] void first_posted_access(Lane& l, Request& r, bool must_stop);
  void refresh(Lane& lane);
  void set_ready(Lane& l, const Request& h);

  // --- the issue group cache (issue_groups.h) ---
  void join_group(IssueGroup& g, uint32_t bit, const Request& h);
  [[gnu::noinline]] void place_in_group(IssueGroup& g, uint32_t bit, const Request& h);
  IssueGroup scan_group(uint32_t w, uint32_t ready);
  void forget_group(uint32_t w);
  void check_cached_group(uint32_t w, uint32_t ready, const IssueGroup& g);  // (Debug builds)

  // --- eager shuffles (eager_shuffles.h) ---
  struct ShuffleArgs {
    uint64_t value;
    uint32_t member_mask;
    int32_t arg, width;
    WarpOp op;
  };
  bool try_eager_shuffle(Lane& l, ShuffleArgs s, uint64_t& result);
  static bool agrees(Lane& x, const Lane& ref, uint32_t t);
  void make_reference(uint32_t w, Lane& l);
  void note_eager_result(const Lane& l, uint64_t result);  // (Debug builds)
  template <class Entry>
  void check_eager_shuffles(uint32_t mask, const Lane* L, Entry entry) const;  // (Debug builds)

  // --- converged issue (converged_issue.h) ---
  void form_converged(uint32_t w, uint32_t pass);  // after `pass` ran lanes of warp w
  bool issue_converged(uint32_t w);
  void settle_converged(uint32_t w);
  void settle_all_converged();  // before a report that says where lanes are
  void check_converged_issue(uint32_t w);  // (Debug builds)

  // --- what an issue does (issue_effects.h) ---
  SiteRegistry::Key site_of(const Request& r) const;  // the site's registry id and issue key
  Event issued_event(uint32_t w, uint32_t mask, SiteRegistry::Key site);
  void record_access(Event& e, const Request& lr, uint32_t mask, const uint64_t* offsets, uint32_t lanes);
  [[gnu::always_inline]] inline void perform_posted(const Request& r, uint32_t linear);  // (issue loops)
  [[gnu::always_inline]] inline void perform_store(const Request& r, uint64_t value) const;

  // --- warp-synchronous calls (warp_ops.cpp) ---
  void issue_warp_op(uint32_t mask, Lane* lanes, uint64_t* results);
  // (Out of line: issue_one asks it only while lanes of the warp wait.)
  [[gnu::noinline]] uint32_t complete_warp_sync_group(Lane* lanes, int count) const;
  bool wait_or_fail_warp_sync(uint32_t warp, uint32_t mask, Lane* lanes, int count);
  void report_warp_sync_deadlock();

  // --- barriers (barriers.h) ---
  void file_for_release(Lane& lane);
  [[gnu::noinline]] void file_for_release_cold(Lane& lane);
  bool barrier_sites_agree();
  bool release_barrier();
  bool report_barrier_divergence();

  // --- faults and reports (faults.cpp) ---
  void meet_failure(Lane& lane);
  uint32_t site_id(const Request& r) const;
  void report_budget();
  void add_diagnostic(Severity sev, std::string code, std::string message, uint32_t site,
                      uint32_t thread);
  std::string where(const Lane& lane) const;

  LaunchState& launch_;
  LaneArray lanes_;
  std::vector<uint3> tids_;                     // threadIdx of each lane
  std::vector<Diagnostic> pending_failures_;    // the error behind a lane's queued Fail
  uint32_t threads_ = 0;
  uint32_t warps_ = 0;
  uint32_t lanes_in(uint32_t w) const { return std::min<uint32_t>(kWarpSize, threads_ - w * kWarpSize); }
  std::vector<uint32_t> warp_steps_;
  // Per lane, the two operand slots of its deferred loads (emu_hooks.h): a lane's deferred
  // loads and the store they feed are issued in its queue's order, so two slots are enough.
  struct Operands {
    uint64_t slot[2];
  };
  std::vector<Operands> operands_;
  // Whether nothing in this launch can write a global allocation (LaunchOptions::read_only), as
  // bits for the first 64 (every load of a global array asks).
  uint64_t read_only_bits_ = 0;
  bool read_only(uint32_t alloc) const {
    if (alloc < 64) return read_only_bits_ >> alloc & 1;
    const std::vector<uint8_t>& ro = launch_.opt.read_only;
    return alloc < ro.size() && ro[alloc];
  }
  // Which lanes of each warp can issue (state Ready): the scheduler skips a warp with none.
  std::vector<uint32_t> ready_;
  // Per warp, the instruction it issues next, kept as its lanes become ready (issue_groups.h).
  std::vector<IssueGroup> groups_;

  // What the issue rule remembers (loop rounds, last keys: issue_policy.h), and the loops it asks
  // about, each looked up once.
  IssueHistory history_;
  SiteLoops loops_;
  // The lane whose queue holds `r` (one of lanes_), by address: join_group passes no more.
  uint32_t lane_of(const Request& r) const {
    return uint32_t((reinterpret_cast<const char*>(&r) - reinterpret_cast<const char*>(lanes_.data())) /
                    ptrdiff_t(sizeof(Lane)));
  }
  std::vector<std::byte> dynamic_shared_;
  struct DynamicView {
    const char* name;  // the fixed_string of the view's type: one address per instantiation
    uint32_t elem_size;
    uint32_t alloc;
  };
  std::vector<DynamicView> dynamic_views_;
  std::vector<uint64_t> results_;   // per lane, the result of its last warp-synchronous operation
  // Lanes on fibers (fiber_pool.h): the lane that runs now, the pool, and the scheduler's own
  // context while lanes run.
  Lane* current_ = nullptr;
  FiberPool fibers_;
  Lane* needs_fiber_ = nullptr;  // a lane to start on a new fiber: yield_lane asks run_pass
  FiberContext scheduler_;  // the scheduler, suspended while lanes run
  // The run pass: lanes to run, in order, before control returns: queue_[0, queue_size_). A lane
  // is in it at most once, so it has room for every lane of the block and never grows.
  std::vector<Lane*> queue_;
  uint32_t queue_size_ = 0;
  uint32_t queue_pos_ = 0;
  void schedule(Lane& l) {
    l.pass = pass_;
    l.agree = 0;
    queue_[queue_size_++] = &l;
  }

  // Eager shuffles (eager_shuffles.h): a lane takes a shuffle's result without waiting for its
  // warp's issue when the issue can give no other.
  bool eager_ = true;     // LaunchOptions::eager_shuffles
  uint32_t pass_ = 1;     // the run pass being scheduled (Lane::pass)
  std::vector<uint32_t> warp_pass_;  // per warp: the pass whose reference lane warp_ref_ names
  std::vector<Lane*> warp_ref_;
  std::vector<uint8_t> descend_;     // per warp: its lanes run highest first in its next pass
  // Per warp, its lanes' queued shuffles that did not take their result at once: while there are
  // none, an issued shuffle has nothing to compute (issue_warp_op).
  std::vector<uint32_t> waiting_shuffles_;
  // Debug builds: the result each queued shuffle took at once, per lane and queue entry, checked
  // when the warp issues it (check_eager_shuffles).
#ifndef NDEBUG
  std::vector<uint64_t> eager_results_;
#endif
  static constexpr uint32_t kMaxWarps = Limits::max_threads_per_block / kWarpSize;
  // Converged issue (converged_issue.h): a warp whose live lanes all ran in one pass and queued
  // the same operations issues them straight from the queues.
  std::vector<Converged> converged_;
  bool converged_on_ = true;  // LaunchOptions::converged_issue

  void next_pass() {
    if (++pass_ == 0) {  // (after 2^32 passes: no lane may look scheduled in the new ones)
      for (Lane& l : lanes_) l.pass = 0;
      pass_ = 1;
    }
  }
  BlockRecord* record_ = nullptr;
  // printf in this block (PrintedLine): each thread's count of each call since a barrier, and
  // each warp's calls in the order it made them first.
  std::map<std::tuple<uint32_t, uint32_t, uintptr_t>, uint32_t> print_made_;  // (thread, barriers, format)
  std::map<std::tuple<uint32_t, uint32_t, uintptr_t, uint32_t>, uint32_t> print_rank_;  // (barriers, warp, format, nth)
  uint32_t block_ = 0;
  uint64_t epoch_ = 0;
  uint64_t dyn_epoch_ = 0;
  uint64_t clock_ = 0;
  uint32_t waiting_warp_sync_ = 0;  // lanes in WaitWarp state in this block
  std::vector<uint32_t> warp_waiting_;  // the same per warp (a warp with none and no ready lane is skipped)
  SiteCounting counting_;  // RecordOptions::count_every_block (site_counting.h)
  // Barrier bookkeeping (barriers.h): counts kept as lanes change state, and the lanes at a
  // barrier filed by the release that lets them go.
  uint32_t exited_ = 0;
  uint32_t releases_ = 0;                 // barriers released in this block so far
  uint32_t at_barrier_ = 0;               // lanes whose oldest operation is a barrier
  const void* barrier_key_ = nullptr;     // the site that the lanes counted below wait at
  uint32_t at_barrier_key_ = 0;           // lanes at a barrier whose site is barrier_key_
  static constexpr uint32_t kReleaseRing = 2 * kMaxBarrierRepeat;  // > any pending release's distance
  std::unique_ptr<Lane*[]> leaving_slots_;  // kReleaseRing lists of threads_ slots (LaneList)
  LaneList leaving_[kReleaseRing];  // [release % ring]: the lanes that release lets go
  bool leaving_empty_ = true;  // every leaving_ list is empty (the last block finished)
  bool failed_ = false;
  static constexpr uint32_t kNoLane = ~0u;
  uint32_t failing_lane_ = kNoLane;  // the lowest lane that met an error in this block
  bool quitting_ = false;  // the destructor resumes every fiber once, to unwind its stack
};

// Compact text for a set of thread indices: "0-15, 32-47".
std::string format_ranges(const std::vector<uint32_t>& sorted);
// "file:line" of a SiteRegistry site; a lane mask as 8 hex digits (faults.cpp).
std::string site_text(uint32_t site);
std::string hex_mask(uint32_t mask);

}  // namespace ws::emu
