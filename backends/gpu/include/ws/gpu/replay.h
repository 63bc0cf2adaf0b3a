// Timing a run's GPU work on gpu-fast: its launches and library calls replayed between CUDA
// events (time_steps), and the same work kept on the device to be timed again later
// (KeptReplay, RunTiming::replay) without making, uploading and checking the inputs again.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ws/run/config.h"
#include "ws/run/result.h"

namespace ws::gpu {

// One launch or library call of a run, replayable (its arguments captured by value).
using ReplayStep = std::function<cudaError_t()>;

struct StepError {
  std::string what;  // "timing (replay)", ...
  cudaError_t err = cudaSuccess;
  explicit operator bool() const { return err != cudaSuccess; }
};

// The L2 flush buffer's size for `o`: twice the L2 (at least 8 MiB), 0 without flushing.
size_t flush_bytes(const TimingOptions& o);

// Replays `steps` in order `o.warmup` times untimed (fewer for a slow run: TimingOptions::max_ms),
// then up to `o.reps` times between two CUDA events, writing `flush` (when not null) before each
// timed replay so that it starts from device memory. Appends one sample per replay to `ms`.
// The caller holds the GPU (lock_gpu). Stops at the first CUDA error and returns it.
StepError time_steps(const std::vector<ReplayStep>& steps, const TimingOptions& o, void* flush, size_t flush_size,
                     std::vector<double>& ms);

// A run's GPU work kept for timing again: owns the run's device allocations (freed when the last
// copy goes, unless the device was reset since) and its steps.
class KeptReplay final : public Replay {
 public:
  // `flush` (may be null): the L2 flush buffer the run was timed with, kept for the next timings.
  KeptReplay(std::vector<ReplayStep> steps, std::vector<void*> allocations, void* flush, size_t flush_size,
             unsigned launches, uint64_t bytes);
  ~KeptReplay() override;
  KeptReplay(const KeptReplay&) = delete;
  KeptReplay& operator=(const KeptReplay&) = delete;
  bool time(const TimingOptions& o, RunTiming& out, std::string& error) override;

 private:
  std::vector<ReplayStep> steps_;
  std::vector<void*> allocations_;
  void* flush_ = nullptr;
  size_t flush_size_ = 0;
  unsigned launches_ = 0;
  uint64_t bytes_ = 0;
  uint64_t made_at_reset_;  // reset_count() when made: pointers from before a reset are invalid
};

}  // namespace ws::gpu
