// One worker thread of the emulator: runs blocks, one at a time, with one fiber per thread of the
// block, and schedules their warps.
//
// The scheduling model, in plain words:
//   1. Every thread runs (in its fiber) until its next instrumented operation: an access through
//      an array wrapper, __syncthreads(), a warp-synchronous call, a fence. It posts what it
//      wants to do and where in the source it is, and gives control back.
//   2. Warps take turns (round robin). A warp issues ONE instruction per turn: it takes the lanes
//      that wait at the earliest source position (smallest line, then column: the "min-PC"
//      policy), records them as one warp instruction with their active mask, and lets each of
//      them perform its operation and run on to its next one.
//   3. So divergent paths are serialized (the `if` side first, then the `else`), and lanes meet
//      again at the first instruction after the if/else or after a loop, where they issue
//      together once more: the classic SIMT reconvergence stack, for structured code.
//   4. Lanes waiting at __syncthreads() are not issued; when every thread of the block waits at
//      the same barrier it releases. If some wait while others exited or wait at another
//      barrier, the block can never go on: that is reported as barrier divergence.
// Known limits: source order stands in for the post-dominator of a branch, so code that jumps
// backwards across a divergent region (goto, or a device function called from two places while
// lanes are split) may reconverge later than the hardware would; a loop with no instrumented
// operation in it cannot be interrupted by the step budget.
#pragma once

#include <boost/context/fiber.hpp>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "ws/detail/emu_hooks.h"
#include "ws/emu/launch.h"

namespace ws::emu {

// WaitWarp: at a warp-synchronous call (__shfl_*_sync, __syncwarp, votes) whose mask names lanes
// that have not arrived yet; as on Volta and later, the call waits for them.
enum class LaneState : uint8_t { Ready, AtBarrier, WaitWarp, Exited, Failed };
enum class ReqType : uint8_t { Access, Barrier, WarpOp, Fence };

struct Request {
  uint64_t pc = 0;     // site order | sub-operation: the issue-order key
  uint32_t site = 0;   // SiteRegistry id
  ReqType type = ReqType::Access;
  AccessRequest access{};
  WarpOp warp_op = WarpOp::SyncWarp;
  uint32_t member_mask = 0;
  uint64_t value = 0;
  int32_t arg = 0;
  int32_t width = 32;
  bool block_scope = false;
};

struct Lane {
  boost::context::fiber fiber;  // the lane, suspended (empty while it runs)
  uint3 tid{};
  uint32_t linear = 0;
  LaneState state = LaneState::Ready;
  Request req;
  uint64_t result = 0;  // result of a warp-synchronous operation
};

// What one block produced.
struct BlockRecord {
  bool recorded = false;
  std::vector<Event> events;        // site = SiteRegistry id until the merge remaps it
  std::vector<uint64_t> lanes;      // lane_begin indexes this vector until the merge
  std::vector<Diagnostic> diagnostics;  // site = SiteRegistry id until the merge
  uint64_t issued = 0;
  uint64_t lane_accesses = 0;
  bool done = false;
};

// State shared by the workers of one launch.
struct LaunchState {
  LaunchOptions opt;
  std::function<void()> body;
  uint32_t global_allocs = 0;            // trace allocation ids below this are global
  std::vector<std::string> global_names;
  std::atomic<bool> aborted{false};

  // Shared-memory allocations, registered on first touch (ids continue after the global ones).
  std::mutex shared_mutex;
  std::vector<Allocation> shared_allocs;
  uint64_t static_shared_bytes = 0;
  uint32_t register_shared(const char* name, std::string_view type, uint32_t elem_size,
                           uint64_t extent, uint64_t bytes, bool dynamic, std::string& error);
  static constexpr uint64_t kDynamicBase = 64 * 1024;  // dynamic shared window, 128-aligned
};

class Worker {
 public:
  explicit Worker(LaunchState& launch);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Runs one block to completion or to its first error. Returns false on error.
  bool run_block(uint32_t linear_block, BlockRecord& record);

  static Worker* current();

  // --- called from lane fibers (emu_hooks) ---
  Lane& lane() { return *current_; }
  void post_access(const std::source_location& loc, SubOp sub, const AccessRequest& req);
  void post_barrier(const std::source_location& loc);
  uint64_t post_warp_op(const std::source_location& loc, WarpOp op, uint32_t member_mask,
                        uint64_t value, int32_t arg, int32_t width);
  void post_fence(const std::source_location& loc, bool block_scope);
  [[noreturn]] void fail(const std::source_location* loc, std::string code, std::string message);
  uint32_t shared_alloc(void* storage, uint64_t bytes, uint32_t elem_size, uint64_t extent,
                        const char* name, std::string_view type, uint64_t& epoch, uint32_t& cached);
  uint32_t dynamic_shared_alloc(uint32_t elem_size, const char* name, std::string_view type,
                                void*& storage, uint64_t& extent, uint64_t& epoch, uint32_t& cached);
  uint64_t epoch() const { return epoch_; }
  const std::string& allocation_name(uint32_t alloc) const;

 private:
  void create_fibers();
  void enter(Lane& lane);
  void run_queue();
  void yield_lane();
  void take_continuation(boost::context::fiber&& from);
  bool issue_one(uint32_t warp);
  void issue_warp_op(uint32_t mask, Lane* lanes);
  uint32_t complete_warp_sync_group(Lane* lanes, int count) const;
  bool wait_or_fail_warp_sync(uint32_t warp, uint32_t mask, Lane* lanes, int count);
  void report_warp_sync_deadlock();
  bool release_barrier();
  void report_budget();
  void add_diagnostic(Severity sev, std::string code, std::string message, uint32_t site,
                      uint32_t thread);
  std::string where(const Lane& lane) const;

  LaunchState& launch_;
  std::vector<Lane> lanes_;
  uint32_t threads_ = 0;
  uint32_t warps_ = 0;
  std::vector<uint32_t> warp_steps_;
  std::vector<std::byte> dynamic_shared_;
  struct DynamicView {
    const char* name;  // the fixed_string of the view's type: one address per instantiation
    uint32_t elem_size;
    uint32_t alloc;
  };
  std::vector<DynamicView> dynamic_views_;
  Lane* current_ = nullptr;
  boost::context::fiber scheduler_;  // the scheduler, suspended while lanes run
  std::vector<Lane*> queue_;         // lanes to run, in order, before control returns
  size_t queue_pos_ = 0;
  static constexpr uint32_t kFromScheduler = 0xffffffffu;
  uint32_t switch_from_ = kFromScheduler;
  BlockRecord* record_ = nullptr;
  uint32_t block_ = 0;
  uint64_t epoch_ = 0;
  uint64_t dyn_epoch_ = 0;
  uint64_t clock_ = 0;
  uint32_t waiting_warp_sync_ = 0;  // lanes in WaitWarp state in this block
  bool failed_ = false;
  bool fibers_ready_ = false;
};

// Compact text for a set of thread indices: "0-15, 32-47".
std::string format_ranges(const std::vector<uint32_t>& sorted);

}  // namespace ws::emu
