// The CPU SIMT emulator: runs a kernel written with the ws kernel API on the CPU and records its
// warp instructions into a Trace.
//
// Example (what a catalog driver does):
//
//   ws::emu::Memory mem;
//   auto in  = mem.upload<int>("g_idata", host_input);      // global_array<int>
//   auto out = mem.alloc<int>("g_odata", blocks);
//   ws::emu::LaunchOptions opt;
//   opt.grid = {blocks, 1, 1}; opt.block = {256, 1, 1};
//   ws::emu::LaunchResult r = ws::emu::launch(mem, opt, info, [=] { reduce3<256>(in, out, n); });
//   if (!r.trace.has_errors()) std::vector<int> partial = mem.download(out);
//
// Scheduling model (see README, "The emulator's scheduling model"): every CUDA thread runs on a
// fiber of its own; warps of 32 lanes issue in lockstep; at each step a warp issues one
// instruction for the group of its lanes that wait at the earliest source position (the "min-PC"
// policy): divergent paths are serialized, and the lanes meet again at the first instruction
// after the if/else or the loop.
// Warps of a block take turns, one instruction each (round robin). __syncthreads() releases when
// every thread of the block waits at it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "ws/kernel.cuh"
#include "ws/trace/trace.h"

namespace ws::emu {

// Which blocks are recorded in full, and how much: the other blocks still run, and are counted.
struct RecordOptions {
  bool enabled = true;
  std::vector<uint32_t> blocks;          // linear block indices; empty = every block
  uint64_t max_events = 4'000'000;       // past this the trace is marked truncated
  uint64_t max_lane_accesses = 64'000'000;
  // Per-site counters of every block, recorded or not (Trace::site_counters: instructions, active
  // lanes, shared wavefronts and their ideal, global sectors and lines), as gpu-trace counts them
  // on the device: whole-grid numbers without a full trace of every block.
  bool count_every_block = false;
};

// The caps a run's record may have within `memory_limit` bytes: a quarter of it for events, a
// quarter for their lanes' offsets (the arrays have their own estimate), at most `asked`'s.
RecordOptions record_within(uint64_t memory_limit, RecordOptions asked);

struct LaunchOptions {
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  unsigned workers = 0;                  // worker threads running blocks; 0 = one per core
  uint64_t step_budget = 1u << 22;       // instructions one block may issue before it is stopped
  // What the launch's thread stacks may take at most, all together (EmuBackend gives a quarter of
  // the run's memory limit): plan_stacks shares it out. 0: no bound (kMaxStackBytes each).
  uint64_t stack_budget = 0;
  RecordOptions record;
  const std::atomic<bool>* cancel = nullptr;  // when it turns true the launch stops ("cancelled")
  // Per global allocation (by index): 1 when no argument of this launch can write it (every view
  // of it the kernel gets is a global_array<const T>). A lane reads such memory at once, without
  // waiting for its warp's turn: nothing can change it during the launch, so the value is the
  // same. Empty (the safe default): every load waits for its turn.
  std::vector<uint8_t> read_only;
  // `a[i] = b[j]` and `a[i] += b[j]` let the thread run on past the loads (their values only
  // feed the store: emu_hooks.h, deferred_load). The trace and the results are the same either
  // way; off is for the tests that hold the two to each other, and for benchmarks.
  bool defer_loads = true;
  // A lane takes a shuffle's result without stopping when the lane it reads has already run to
  // the same shuffle along the same operations (eager_shuffles.h explains why that is the issued
  // value).
  // The trace and the results are the same either way; off is only for tests and benchmarks.
  bool eager_shuffles = true;
  // A warp whose live lanes all ran in one pass issues the operations they queued alike without
  // touching each lane's queue per instruction (converged_issue.h). The trace and the
  // results are the same either way; off is only for tests and benchmarks.
  bool converged_issue = true;
};

// Hardware limits the emulator enforces before running anything (those of compute capability 9.0).
struct Limits {
  static constexpr uint32_t max_threads_per_block = 1024;
  static constexpr uint32_t max_block_x = 1024, max_block_y = 1024, max_block_z = 64;
  static constexpr uint64_t max_grid_x = 2147483647ull;
  static constexpr uint32_t max_grid_yz = 65535;
  static constexpr uint32_t max_shared_bytes_per_block = 48 * 1024;  // without opt-in
};

// Returns "" if the configuration can launch, otherwise a message naming the limit it breaks.
std::string validate(const LaunchOptions& opt);

// The emulated device's global memory for one run: allocations that kernels see as
// global_array<T>. Addresses in traces are synthetic (a fixed base, 256-byte aligned like
// cudaMalloc), so a trace is the same from run to run.
class Memory {
 public:
  Memory();
  ~Memory();
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  template <class T>
  global_array<T> alloc(const std::string& name, uint64_t count) {
    void* p = allocate(name, std::string(type_name<T>()), sizeof(T), count);
    return global_array<T>(static_cast<T*>(p), count, uint32_t(table_.size() - 1));
  }
  template <class T>
  global_array<T> upload(const std::string& name, std::span<const T> host) {
    global_array<T> a = alloc<T>(name, host.size());
    if (!host.empty()) std::memcpy(static_cast<void*>(a.data()), host.data(), host.size_bytes());
    return a;
  }
  template <class T>
  global_array<T> upload(const std::string& name, const std::vector<T>& host) {
    return upload<T>(name, std::span<const T>(host));
  }
  template <class T>
  std::vector<std::remove_cv_t<T>> download(const global_array<T>& a) const {
    std::vector<std::remove_cv_t<T>> out(a.size());
    if (!out.empty()) std::memcpy(out.data(), a.data(), a.size() * sizeof(T));
    return out;
  }
  template <class T>
  void fill(const global_array<T>& a, const T& v) {
    std::fill(a.data(), a.data() + a.size(), v);
  }

  // Names memory the program already holds (a `__device__` variable's elements) as the next
  // allocation, at the next synthetic address; the storage stays the caller's. Returns its id.
  uint32_t adopt(const std::string& name, const std::string& type, uint32_t elem_size, uint64_t count);

  const std::vector<Allocation>& table() const { return table_; }
  // Names `a` a matrix of rows of `row_length` elements (the views draw it so).
  template <class T>
  void set_row_length(const global_array<T>& a, uint32_t row_length) {
    if (a.alloc_id() < table_.size()) table_[a.alloc_id()].row_length = row_length <= a.size() ? row_length : 0;
  }

 private:
  void* allocate(const std::string& name, const std::string& type, uint32_t elem_size, uint64_t count);
  std::vector<Allocation> table_;
  // 16-byte aligned host storage (so that float4 views are aligned as on the device), given back
  // with the aligned delete that matches its new.
  static constexpr std::align_val_t kStorageAlign{16};
  struct AlignedDelete {
    void operator()(std::byte* p) const { ::operator delete[](p, kStorageAlign); }
  };
  std::vector<std::unique_ptr<std::byte[], AlignedDelete>> storage_;
  uint64_t next_address_;
};

struct LaunchResult {
  Trace trace;                 // diagnostics are in trace.diagnostics
  bool ok() const { return !trace.has_errors(); }
  uint64_t issued_instructions = 0;  // all blocks, recorded or not
  uint64_t lane_accesses = 0;        // all blocks, recorded or not
  double seconds = 0;                // wall time of the launch
};

// How many worker threads a launch runs on: `requested` (0: one per hardware thread), no more
// than there are blocks, and no more than keep every worker's thread stacks within 16384 in all
// (each is two memory mappings, the stack and its guard page; Linux allows 65530 per process by
// default, and 64 workers of 1024 threads would need 131072).
unsigned launch_workers(unsigned requested, uint32_t blocks, uint32_t threads_per_block);

// Each emulated thread runs on a stack of its own (fiber_stack.h), reserved whole but touched only
// as deep as the kernel's calls go: a thread that recurses without end touches all of it before it
// meets the guard page below. What stacks can take is bounded by their number times their size.
inline constexpr uint32_t kMaxStackBytes = 256 * 1024;  // a thread's stack when memory allows
inline constexpr uint32_t kMinStackBytes = 32 * 1024;   // the least given: a kernel's frames fit
struct StackPlan {
  unsigned workers = 1;
  uint32_t stack_bytes = kMaxStackBytes;  // per thread, a multiple of 4 KiB
  std::string refused;                    // why no worker's stacks fit the budget, or ""
};
// Shares `budget` bytes (0: unbounded) among `workers` x `threads_per_block` stacks: each gets an
// equal share up to kMaxStackBytes; when a share would fall under kMinStackBytes, fewer workers
// run; when not even one worker's stacks fit at kMinStackBytes, the launch is refused.
//   plan_stacks(2, 256, 8 << 20)  -> {1 worker, 32 KiB}: 2 x 256 x 32 KiB would take 16 MiB
//   plan_stacks(2, 256, 1 << 30)  -> {2 workers, 256 KiB}
StackPlan plan_stacks(unsigned workers, uint32_t threads_per_block, uint64_t budget);

// Runs `body` (which calls the kernel function with its arguments) once per CUDA thread of the
// grid. Never throws for kernel faults: they become error diagnostics in the trace.
LaunchResult launch(Memory& mem, const LaunchOptions& opt, const LaunchInfo& info,
                    std::function<void()> body);

}  // namespace ws::emu
