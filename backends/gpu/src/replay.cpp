#include "ws/gpu/replay.h"

#include <algorithm>
#include <chrono>

#include "ws/gpu/device.h"

namespace ws::gpu {

size_t flush_bytes(const TimingOptions& o) { return o.flush_l2 ? std::max<size_t>(2 * device().l2_bytes, 8u << 20) : 0; }

StepError time_steps(const std::vector<ReplayStep>& steps, const TimingOptions& o, void* flush, size_t flush_size,
                     std::vector<double>& ms) {
  StepError e;
  auto ok = [&](const char* what, cudaError_t err) {
    if (err == cudaSuccess) return true;
    e = {what, err};
    return false;
  };
  auto replay = [&] {
    for (const ReplayStep& f : steps)
      if (const cudaError_t err = f(); err != cudaSuccess) return err;
    return cudaSuccess;
  };
  for (unsigned w = 0; w < o.warmup; ++w) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!ok("timing (warm-up replay)", replay()) || !ok("timing (warm-up replay)", cudaDeviceSynchronize())) return e;
    const double took = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (o.max_ms > 0 && took > o.max_ms / 10) break;  // a slow run: one warm-up is enough
  }
  cudaEvent_t start = nullptr, stop = nullptr;
  if (!ok("cudaEventCreate", cudaEventCreate(&start)) || !ok("cudaEventCreate", cudaEventCreate(&stop))) {
    if (start) cudaEventDestroy(start);
    return e;
  }
  double timed = 0;
  for (unsigned r = 0; r < o.reps && !(o.max_ms > 0 && r >= 3 && timed > o.max_ms); ++r) {
    if (flush && !ok("timing (L2 flush)", cudaMemsetAsync(flush, int(r & 0xff), flush_size))) break;
    if (!ok("timing", cudaEventRecord(start)) || !ok("timing (replay)", replay()) || !ok("timing", cudaEventRecord(stop)) ||
        !ok("timing", cudaEventSynchronize(stop)))
      break;
    float one = 0;
    if (!ok("timing", cudaEventElapsedTime(&one, start, stop))) break;
    ms.push_back(double(one));
    timed += double(one);
  }
  if (!e || !is_sticky(e.err)) {  // (after a sticky error the context is gone: nothing to destroy)
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  return e;
}

KeptReplay::KeptReplay(std::vector<ReplayStep> steps, std::vector<void*> allocations, void* flush, size_t flush_size,
                       unsigned launches, uint64_t bytes)
    : steps_(std::move(steps)), allocations_(std::move(allocations)), flush_(flush), flush_size_(flush ? flush_size : 0),
      launches_(launches), bytes_(bytes), made_at_reset_(reset_count()) {}

KeptReplay::~KeptReplay() {
  std::unique_lock<std::mutex> lock = lock_gpu();
  if (reset_count() != made_at_reset_) return;  // the reset freed them
  for (void* p : allocations_) cudaFree(p);
  if (flush_) cudaFree(flush_);
}

bool KeptReplay::time(const TimingOptions& o, RunTiming& out, std::string& error) {
  std::unique_lock<std::mutex> lock = lock_gpu();
  out = RunTiming{};
  out.launches = launches_;
  out.bytes = bytes_;
  if (reset_count() != made_at_reset_) {
    error = "the device was reset since this run was kept: run it again";
    return false;
  }
  if (!usable()) {
    error = unusable_reason();
    return false;
  }
  const size_t want = flush_bytes(o);
  if (want > flush_size_) {
    if (flush_) cudaFree(flush_);
    flush_ = nullptr;
    flush_size_ = 0;
    if (const cudaError_t e = cudaMalloc(&flush_, want); e != cudaSuccess) {
      flush_ = nullptr;
      error = "cudaMalloc (L2 flush buffer) failed: " + error_text(e);
      return false;
    }
    flush_size_ = want;
  }
  const StepError e = time_steps(steps_, o, want ? flush_ : nullptr, want, out.ms);
  if (!e) return true;
  error = e.what + " failed: " + error_text(e.err);
  if (is_sticky(e.err)) error += reset_device() ? ". warpscope reset the device; run again." : ". " + unusable_reason() + ".";
  return false;
}

}  // namespace ws::gpu
