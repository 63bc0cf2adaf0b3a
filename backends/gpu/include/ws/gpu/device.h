// The CUDA device, seen from plain C++ (no CUDA headers): is there one, what is it, and turning
// CUDA errors into messages. Implemented in backends/gpu (built only with CUDA).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

namespace ws::gpu {

// Why GPU work cannot run on a machine without an NVIDIA GPU or driver (a laptop, CI).
inline constexpr const char* kNoGpu =
    "no NVIDIA GPU or driver found: timing and GPU recording need one; everything else runs on the CPU emulator";

struct DeviceInfo {
  bool present = false;
  std::string why_not;       // when !present: kNoGpu, or CUDA's words for an unusual error
  std::string name;          // "NVIDIA H100 80GB HBM3"
  int major = 0, minor = 0;  // compute capability
  int sm_count = 0;
  uint64_t l2_bytes = 0;
  uint64_t global_bytes = 0;
  int sm_clock_khz = 0, mem_clock_khz = 0, bus_width_bits = 0;
};

// Queried once and cached; never throws, never aborts without a driver.
const DeviceInfo& device();

// "cudaErrorIllegalAddress: an illegal memory access was encountered"
std::string error_text(int cuda_error);

// True for errors that leave the context unusable (an illegal address, a trap, a launch
// failure): after one, the device must be reset before anything else runs.
bool is_sticky(int cuda_error);

// Resets this process's CUDA context after a sticky error (every device pointer is invalid
// afterwards) and returns whether a new context could be made. When not (seen on the H200
// machine: cudaErrorDevicesUnavailable until the process ends), the GPU is marked unusable.
bool reset_device();
// In warpscope's run process (ws/isolation): after a sticky error, do not reset the context;
// reset_device() then marks the GPU unusable with "the run process ends with it ..." and the
// process ends after answering (a new process gets a fresh context, on every machine).
void end_process_on_sticky_errors();
// How many times reset_device() ran: device pointers kept from before a reset are invalid.
uint64_t reset_count();

// The GPU to one user at a time: every GPU run (its backend object holds this for its life) and
// every ceiling measurement, so that a timing never has another run's kernels beside it and a
// background run never waits inside another thread's cudaDeviceSynchronize.
std::unique_lock<std::mutex> lock_gpu();

// False once the GPU could not be recovered; GPU runs are then refused with this reason, and the
// emulator goes on.
bool usable();
std::string unusable_reason();

}  // namespace ws::gpu
