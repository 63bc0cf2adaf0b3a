// The Timing panel's background worker: one host thread that measures the device's ceilings,
// times the reduction variants, sweeps a launch parameter, keeps a rolling series of the selected
// variant ("live"), or, without a GPU, counts what the emulator sees per variant. It never blocks
// a frame: requests return at once; snapshot() hands the UI an immutable copy of the results.
//
// The GPU is shared with the session's gpu-trace runs through ws::gpu::lock_gpu(): a timing never
// runs beside another kernel.
//
//   TimingRunner& t = timing_runner();
//   t.request_table(1 << 24, "int", 256);
//   ... each frame: auto snap = t.snapshot(); if (snap->table) draw(*snap->table);
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ws/timing/timing.h"

namespace ws::app {

// One point of the live series.
struct LivePoint {
  double t = 0;        // seconds since the runner started
  std::string series;  // "reduce 9, n = 2^24"
  double ms = 0, gbps = 0, p10 = 0, p90 = 0;
  double gflops = 0;  // kernels that compute (TimingSpec::flops)
};

struct TimingSnapshot {
  uint64_t generation = 0;
  std::optional<timing::Ceilings> ceilings;
  std::optional<timing::ReductionTable> table;
  std::optional<timing::KernelTable> kernel_table;  // the lab's kernel when it is not the reduction
  // The last sweep: kernel, variant and axis, and its points.
  std::string sweep_title, sweep_axis, sweep_kernel;
  std::vector<timing::SweepPoint> sweep;
  // The live series (at most kMaxLivePoints, oldest dropped).
  std::vector<LivePoint> live;
  std::string live_series;  // what live mode times now ("" = off)
  bool live_paused = false;
  // Without a GPU: the emulator's counts per variant, and the run they were counted for.
  std::string counts_kernel;
  RunConfig counts_config;
  std::vector<timing::VariantCounts> counts;
  std::string status;  // what the worker is doing ("" = idle)
  std::string error;   // the last job's failure, readable
};

class TimingRunner {
 public:
  static constexpr size_t kMaxLivePoints = 600;

  TimingRunner();
  ~TimingRunner();
  TimingRunner(const TimingRunner&) = delete;
  TimingRunner& operator=(const TimingRunner&) = delete;

  void request_ceilings();
  void request_table(uint64_t n, const std::string& dtype, uint32_t block);
  void request_sweep(const std::string& kernel, const RunConfig& base, const std::string& axis,
                     std::vector<int64_t> values);
  void request_counts(const std::string& kernel, const RunConfig& base);
  // Every variant of `kernel` at the timing launch of `lab` (n = 0: the kernel's timing size).
  void request_kernel_table(const std::string& kernel, const RunConfig& lab, uint64_t n = 0);
  // `base` with each of `blocks` (seed 000's 16x16 vs 128x2).
  void request_block_sweep(const std::string& kernel, const RunConfig& base, std::vector<Dim3> blocks);
  // Live mode: times `cfg` again and again (short runs) whenever no other job waits.
  void set_live(const std::string& kernel, const RunConfig& cfg, const std::string& series_name);
  void stop_live();
  void set_paused(bool paused);
  // Drops queued jobs and stops the one going between two measurements.
  void cancel();
  // cancel(), then joins the worker thread; nothing runs after it. For the end of the program
  // (stop_timing_thread()).
  void stop();

  std::shared_ptr<const TimingSnapshot> snapshot() const;
  // Replaces the results (tests and headless renders with samples in hand).
  void set_snapshot(TimingSnapshot s);
  // Waits until no job is queued or going (live mode aside). False on timeout.
  bool wait_idle(std::chrono::milliseconds timeout = std::chrono::seconds(120));
  bool busy() const;

 private:
  struct Job;
  void worker(std::stop_token st);
  void worker_loop(std::stop_token st);
  void run_job(const Job& job);
  void publish(const std::function<void(TimingSnapshot&)>& change);
  void push(Job job);

  mutable std::mutex mu_;
  std::condition_variable_any cv_;
  std::deque<std::shared_ptr<Job>> queue_;
  bool running_ = false;
  // Set to stop the job going; also handed to emulator runs (RunConfig::cancel) so they stop within
  // one scheduling round.
  std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
  // Live mode (under mu_).
  std::string live_kernel_;
  RunConfig live_config_;
  std::string live_name_;
  bool paused_ = false;
  // The live series' run kept on the device (worker thread only): its points after the first
  // only replay it.
  timing::Measurement live_kept_;
  std::string live_kept_name_;
  std::shared_ptr<const TimingSnapshot> snap_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::jthread thread_;  // last member: joined first
};

// The viewer's one runner (started on first use).
TimingRunner& timing_runner();
// Stops timing_runner()'s thread if it was ever started; does not start one. The program calls it
// before main() returns, for the reason stop_session_thread() gives (session.h): a count still
// going at exit would use the emulator's tables after they are destroyed.
void stop_timing_thread();

}  // namespace ws::app
