#include <atomic>
#include <cuda_runtime.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "ws/gpu/device.h"

namespace ws::gpu {

const DeviceInfo& device() {
  static DeviceInfo info;
  static std::once_flag once;
  std::call_once(once, [] {
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
      // No device, or no driver (CUDA says "insufficient driver" then): the usual laptop or CI
      // machine, said in words a student reads; any other error keeps CUDA's own words.
      const bool none = err == cudaSuccess || err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver;
      info.why_not = none ? std::string(kNoGpu) : std::string(kNoGpu) + " (" + error_text(err) + ")";
      cudaGetLastError();  // clear it: the emulator goes on without a GPU
      return;
    }
    cudaDeviceProp p{};
    if ((err = cudaGetDeviceProperties(&p, 0)) != cudaSuccess) {
      info.why_not = "cannot query the CUDA device: " + error_text(err);
      return;
    }
    info.present = true;
    info.name = p.name;
    info.major = p.major;
    info.minor = p.minor;
    info.sm_count = p.multiProcessorCount;
    info.l2_bytes = uint64_t(p.l2CacheSize);
    info.global_bytes = uint64_t(p.totalGlobalMem);
    int v = 0;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0) == cudaSuccess) info.sm_clock_khz = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0) == cudaSuccess) info.mem_clock_khz = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, 0) == cudaSuccess) info.bus_width_bits = v;
  });
  return info;
}

std::string error_text(int e) {
  const cudaError_t err = static_cast<cudaError_t>(e);
  return std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
}

bool is_sticky(int e) {
  switch (static_cast<cudaError_t>(e)) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
      return true;
    default:
      return false;
  }
}

namespace {
std::mutex g_usable_mutex;
std::string g_unusable;  // "" = usable
}  // namespace

std::atomic<uint64_t> g_resets{0};

uint64_t reset_count() { return g_resets.load(); }

std::atomic<bool> g_end_process{false};

void end_process_on_sticky_errors() { g_end_process = true; }

bool reset_device() {
  // Destroys this process's context (not a GPU reset: other processes are untouched) and tries
  // to make a fresh one, for a short while.
  g_resets.fetch_add(1);
  if (g_end_process) {
    std::lock_guard lock(g_usable_mutex);
    g_unusable = "warpscope's run process ends with it, and the next GPU run starts a new one";
    return false;
  }
  cudaDeviceReset();
  cudaGetLastError();
  cudaError_t err = cudaSuccess;
  for (int attempt = 0; attempt < 10; ++attempt) {
    if ((err = cudaFree(nullptr)) == cudaSuccess) return true;
    cudaGetLastError();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::lock_guard lock(g_usable_mutex);
  g_unusable = "after a fault warpscope reset its CUDA context, but the device does not accept a new one (" +
               error_text(err) + "): GPU runs stay off until warpscope is restarted; the emulator goes on";
  return false;
}

std::unique_lock<std::mutex> lock_gpu() {
  static std::mutex gpu;
  return std::unique_lock<std::mutex>(gpu);
}

bool usable() {
  std::lock_guard lock(g_usable_mutex);
  return g_unusable.empty();
}

std::string unusable_reason() {
  std::lock_guard lock(g_usable_mutex);
  return g_unusable;
}

}  // namespace ws::gpu
