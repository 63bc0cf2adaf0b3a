#include "device_probe.h"

#if WS_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace ws::app {

std::string probe_backend() {
#if WS_HAVE_CUDA
  // cudaGetDeviceCount returns an error (not a crash) without a driver or a device; CI has neither.
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
      return std::string(prop.name) + " (CUDA)";
  }
  cudaGetLastError();  // clear the sticky "no device" error for whoever uses CUDA next
#endif
  return "CPU emulator";
}

bool cuda_device_present() {
  static const bool present = probe_backend() != "CPU emulator";
  return present;
}

}  // namespace ws::app
