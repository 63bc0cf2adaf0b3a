// The Backend a catalog driver sees on a real GPU (compiled by nvcc, in the generated
// kernels/.../gpu_<Entry>.cu translation units). Same interface as ws::EmuBackend:
//
//   auto in = be.upload("g_idata", host);                 // cudaMalloc + cudaMemcpy
//   if (!be.launch("reduce3", grid, block, smem, reduce3<int>, in, out, n)) return;
//   std::vector<int> partial = be.download(out);
//
// Every launch is checked (cudaGetLastError, then the synchronisation's error). A fault becomes a
// Diagnostic in the RunResult with CUDA's own words; a sticky error (illegal address, trap)
// resets the device so the viewer can go on, and the rest of the run is skipped.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "ws/catalog/catalog.h"
#include "ws/gpu/device.h"
#include "ws/kernel.cuh"

namespace ws {

class GpuBackend {
 public:
#if defined(WS_GPU_TRACE)
  static constexpr BackendKind kind = BackendKind::GpuTrace;
#else
  static constexpr BackendKind kind = BackendKind::GpuFast;
#endif

  GpuBackend(const std::string& kernel, const RunConfig& cfg, RunResult& out)
      : kernel_(kernel), cfg_(cfg), out_(out) {
    const gpu::DeviceInfo& d = gpu::device();
    if (!d.present) fail("no-cuda-device", d.why_not);
  }
  ~GpuBackend() {
    if (!reset_)
      for (void* p : allocations_) cudaFree(p);
  }
  GpuBackend(const GpuBackend&) = delete;
  GpuBackend& operator=(const GpuBackend&) = delete;

  template <class T>
  global_array<T> alloc(const std::string& name, uint64_t count) {
    void* p = nullptr;
    if (!failed_) {
      const cudaError_t err = cudaMalloc(&p, std::max<uint64_t>(count, 1) * sizeof(T));
      if (err != cudaSuccess) {
        fail("cuda-error", "cudaMalloc of " + name + " (" + std::to_string(count * sizeof(T)) +
                               " bytes): " + gpu::error_text(err));
        p = nullptr;
      } else {
        allocations_.push_back(p);
      }
    }
    names_.push_back(name);
    return global_array<T>(static_cast<T*>(p), p ? count : 0, uint32_t(names_.size() - 1));
  }
  template <class T>
  global_array<T> upload(const std::string& name, const std::vector<T>& host) {
    global_array<T> a = alloc<T>(name, host.size());
    if (!failed_ && !host.empty())
      check("cudaMemcpy to " + name, cudaMemcpy(a.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    return a;
  }
  template <class T>
  void fill(const global_array<T>& a, const T& v) {
    upload_into(a, std::vector<T>(a.size(), v));
  }
  template <class T>
  std::vector<std::remove_cv_t<T>> download(const global_array<T>& a) {
    std::vector<std::remove_cv_t<T>> out(a.size());
    if (!failed_ && !out.empty())
      check("cudaMemcpy from device", cudaMemcpy(out.data(), a.data(), out.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  }

  template <class Kernel, class... Args>
  bool launch(const std::string& entry, Dim3 grid, Dim3 block, uint32_t dynamic_shared, Kernel kernel,
              Args... args) {
    if (failed_) return false;
    record_launch(entry, grid, block, dynamic_shared);
    kernel<<<dim3(grid.x, grid.y, grid.z), dim3(block.x, block.y, block.z), dynamic_shared>>>(args...);
    if (!check("launching " + entry, cudaGetLastError())) return false;
    return check(entry, cudaDeviceSynchronize());
  }

  // For library calls that launch their own kernels (CUB): `f` returns a cudaError_t.
  template <class F>
  bool call(const std::string& what, F f) {
    if (failed_) return false;
    record_launch(what, {0, 0, 0}, {0, 0, 0}, 0);
    if (!check(what, f())) return false;
    return check(what, cudaDeviceSynchronize());
  }

  const RunConfig& config() const { return cfg_; }
  RunResult& result() { return out_; }
  bool failed() const { return failed_; }

 private:
  template <class T>
  void upload_into(const global_array<T>& a, const std::vector<T>& host) {
    if (!failed_ && !host.empty())
      check("cudaMemcpy", cudaMemcpy(a.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }

  void record_launch(const std::string& entry, Dim3 grid, Dim3 block, uint32_t smem) {
    Trace t;
    t.launch.kernel = kernel_;
    t.launch.variant = cfg_.variant;
    t.launch.backend = to_string(kind);
    t.launch.device = gpu::device().name;
    t.launch.entry = entry;
    t.launch.grid = grid;
    t.launch.block = block;
    t.launch.dynamic_shared_bytes = smem;
    t.launch.n = cfg_.n;
    t.total_blocks = grid.count();
    out_.launches.push_back(std::move(t));
  }

  bool check(const std::string& what, cudaError_t err) {
    if (err == cudaSuccess) return true;
    std::string msg = what + " failed: " + gpu::error_text(err);
    if (gpu::is_sticky(err)) {
      gpu::reset_device();
      reset_ = true;
      msg += ". This error leaves the GPU context unusable, so warpscope reset the device; run again.";
    }
    fail("cuda-error", msg);
    return false;
  }

  void fail(const std::string& code, const std::string& message) {
    failed_ = true;
    Diagnostic d;
    d.code = code;
    d.message = message;
    out_.errors.push_back(std::move(d));
  }

  std::string kernel_;
  const RunConfig& cfg_;
  RunResult& out_;
  std::vector<void*> allocations_;
  std::vector<std::string> names_;
  bool failed_ = false;
  bool reset_ = false;
};

}  // namespace ws
