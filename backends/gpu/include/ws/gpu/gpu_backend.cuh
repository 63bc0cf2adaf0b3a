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

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "ws/gpu/device.h"
#include "ws/gpu/replay.h"
#include "ws/kernel.cuh"
#include "ws/kernel/device_variable.h"
#include "ws/run/config.h"
#include "ws/run/recorded_blocks.h"
#include "ws/run/result.h"
#if defined(WS_GPU_TRACE)
#include "ws/gpu/decode.h"
#endif

namespace ws {
// gpu-fast and gpu-trace backends are different classes (the trace one owns recording buffers):
// one inline namespace each, so the two builds never share a symbol. The trace backend is also
// private to its translation unit: it drives that module's own control variable and kernels, and
// a shared (linker-merged) copy would drive the first module's instead.
#if defined(WS_GPU_TRACE)
inline namespace gpu_trace_backend {
namespace {
#else
inline namespace gpu_fast_backend {
#endif

#if defined(WS_GPU_TRACE)
// Copies a NUL-terminated string from device memory (a source file name that
// std::source_location gave the device code) into `dst`.
static __global__ void copy_device_string(const char* src, char* dst, int cap) {
  int i = 0;
  for (; i + 1 < cap && src[i]; ++i) dst[i] = src[i];
  dst[i] = 0;
}
#endif

#if !defined(WS_GPU_TRACE)
// fill()'s replay: every element set to v (a grid-stride loop of at most 1024 blocks).
template <class T>
__global__ void gpu_fill(T* p, uint64_t n, T v) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(blockDim.x) * gridDim.x) p[i] = v;
}
#endif

class GpuBackend {
 public:
#if defined(WS_GPU_TRACE)
  static constexpr BackendKind kind = BackendKind::GpuTrace;
#else
  static constexpr BackendKind kind = BackendKind::GpuFast;
#endif

  // Why this backend cannot run on this machine ("" when it can): a run is then refused, not
  // faulted (register_runner).
  static std::string unavailable() {
    const gpu::DeviceInfo& d = gpu::device();
    if (!d.present) return d.why_not;
    return gpu::usable() ? std::string() : gpu::unusable_reason();
  }

  GpuBackend(const std::string& kernel, const RunConfig& cfg, RunResult& out)
      : kernel_(kernel), cfg_(cfg), out_(out) {
    const gpu::DeviceInfo& d = gpu::device();
    if (!d.present) fail("no-cuda-device", d.why_not);
    else if (!gpu::usable()) fail("gpu-unavailable", gpu::unusable_reason());
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
    Allocation a;
    a.name = name;
    a.type_name = std::string(type_name<T>());
    a.space = MemSpace::Global;
    a.elem_size = sizeof(T);
    a.extent = p ? count : 0;
    a.base = reinterpret_cast<uintptr_t>(p);
    globals_.push_back(std::move(a));
    return global_array<T>(static_cast<T*>(p), p ? count : 0, uint32_t(globals_.size() - 1));
  }
  // Working space of a library call (CUB's temp storage): an allocation like any other, but not
  // counted in the bytes a run must move (RunTiming::bytes).
  template <class T>
  global_array<T> scratch(const std::string& name, uint64_t count) {
    scratch_.push_back(globals_.size());
    return alloc<T>(name, count);
  }
  template <class T>
  global_array<T> upload(const std::string& name, const std::vector<T>& host) {
    global_array<T> a = alloc<T>(name, host.size());
    if (!failed_ && !host.empty())
      check("cudaMemcpy to " + name, cudaMemcpy(a.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    return a;
  }
  // Sets every element to `v`: state the kernel consumes (an atomic accumulator, a queue
  // counter), so a timed replay sets it again before the launches that follow, as a program that
  // runs the kernel twice must (the fill is timed with them: it is part of the work).
  template <class T>
  void fill(const global_array<T>& a, const T& v) {
    fill_once(a, v);
#if !defined(WS_GPU_TRACE)
    if (cfg_.timing.reps > 0 && !failed_ && a.size()) {
      T* p = a.data();
      const uint64_t n = a.size();
      replay_.push_back([=] {
        gpu_fill<<<unsigned(std::min<uint64_t>((n + 255) / 256, 1024)), 256>>>(p, n, v);
        return cudaGetLastError();
      });
    }
#endif
  }
  // The same for state the kernel restores itself (a ticket the last block resets to 0): not
  // replayed.
  template <class T>
  void fill_once(const global_array<T>& a, const T& v) {
    upload_into(a, std::vector<T>(a.size(), v));
  }
  template <class T>
  std::vector<std::remove_cv_t<T>> download(const global_array<T>& a) {
    std::vector<std::remove_cv_t<T>> out(a.size());
    if (!failed_ && !out.empty())
      check("cudaMemcpy from device", cudaMemcpy(out.data(), a.data(), out.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  }

  // `a` is a matrix stored row after row, `row_length` elements a row: the views draw it so.
  template <class T>
  void shape(const global_array<T>& a, uint32_t row_length) {
    if (a.alloc_id() < globals_.size()) globals_[a.alloc_id()].row_length = row_length <= a.size() ? row_length : 0;
  }

  // A `__device__` variable of the file (ws/kernel/device_variable.h): its first value taken at
  // the first run and set again at each later one, its elements named in the allocation table,
  // its id written into it.
  void adopt(DeviceVariable& v) {
    void* object = nullptr;
    if (failed_ || !check(std::string("cudaGetSymbolAddress of ") + v.name, cudaGetSymbolAddress(&object, v.symbol))) return;
    char* value = static_cast<char*>(object) + v.value_offset;
    const size_t bytes = size_t(v.elem_size) * v.count;
    if (v.initial.empty()) {
      v.initial.resize(bytes);
      if (!check(std::string("reading ") + v.name, cudaMemcpy(v.initial.data(), value, bytes, cudaMemcpyDeviceToHost))) return;
    } else if (!check(std::string("setting ") + v.name, cudaMemcpy(value, v.initial.data(), bytes, cudaMemcpyHostToDevice))) {
      return;
    }
    Allocation a;
    a.name = v.name;
    a.type_name = std::string(v.type);
    a.space = MemSpace::Global;
    a.elem_size = v.elem_size;
    a.extent = v.count;
    a.base = reinterpret_cast<uintptr_t>(value);
    globals_.push_back(std::move(a));
    scratch_.push_back(globals_.size() - 1);  // not bytes a timed run moves
    const uint32_t id = uint32_t(globals_.size() - 1);
    check(std::string("setting ") + v.name, cudaMemcpy(static_cast<char*>(object) + v.alloc_offset, &id, sizeof id, cudaMemcpyHostToDevice));
  }

  template <class Kernel, class... Args>
  bool launch(const std::string& entry, Dim3 grid, Dim3 block, uint32_t dynamic_shared, Kernel kernel,
              Args... args) {
    if (failed_) return false;
    record_launch(entry, grid, block, dynamic_shared);
#if defined(WS_GPU_TRACE)
    if (!begin_recording(grid)) return false;
#endif
    kernel<<<dim3(grid.x, grid.y, grid.z), dim3(block.x, block.y, block.z), dynamic_shared>>>(args...);
    if (!check("launching " + entry, cudaGetLastError())) return false;
#if !defined(WS_GPU_TRACE)
    if (cfg_.timing.reps > 0)
      replay_.push_back([=] {
        kernel<<<dim3(grid.x, grid.y, grid.z), dim3(block.x, block.y, block.z), dynamic_shared>>>(args...);
        return cudaGetLastError();
      });
#endif
    if (!check(entry, cudaDeviceSynchronize())) return false;
#if defined(WS_GPU_TRACE)
    return end_recording();
#else
    return true;
#endif
  }

  // For library calls that launch their own kernels (CUB): `f` returns a cudaError_t.
  template <class F>
  bool call(const std::string& what, F f) {
    if (failed_) return false;
    record_launch(what, {0, 0, 0}, {0, 0, 0}, 0);
    if (!check(what, f())) return false;
#if !defined(WS_GPU_TRACE)
    if (cfg_.timing.reps > 0) replay_.push_back([f]() mutable { return f(); });  // (f captures by value)
#endif
    return check(what, cudaDeviceSynchronize());
  }

#if !defined(WS_GPU_TRACE)
  // [timing] Replays the run's GPU work (every launch and library call, in order, on the default
  // stream) `warmup` times, then `reps` times between two CUDA events, flushing the L2 before
  // each timed replay. Called after the driver returned and its result was checked, so the
  // replays may overwrite the outputs. Fills RunResult::timing; a CUDA error becomes a
  // diagnostic like any other.
  void time_replays() {
    RunTiming& t = out_.timing;
    t = RunTiming{};
    t.launches = unsigned(replay_.size());
    for (size_t i = 0; i < globals_.size(); ++i)
      if (std::find(scratch_.begin(), scratch_.end(), i) == scratch_.end())
        t.bytes += globals_[i].extent * globals_[i].elem_size;
    if (failed_ || replay_.empty()) return;
    const TimingOptions& o = cfg_.timing;
    const size_t flush_size = gpu::flush_bytes(o);
    void* flush = nullptr;
    if (flush_size && !check("cudaMalloc (L2 flush buffer)", cudaMalloc(&flush, flush_size))) return;
    const gpu::StepError e = gpu::time_steps(replay_, o, flush, flush_size, t.ms);
    if (e || !o.keep) {
      if (flush) allocations_.push_back(flush);  // freed with the run's
      if (e) check(e.what, e.err), t.ms.clear();
      return;
    }
    // The allocations (and the flush buffer) now belong to the kept replay.
    t.replay = std::make_shared<gpu::KeptReplay>(std::move(replay_), std::move(allocations_), flush, flush_size, t.launches,
                                                 t.bytes);
    allocations_.clear();
    replay_.clear();
  }
#endif

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
    t.launch = launch_info(kernel_, cfg_, entry);
    t.launch.backend = to_string(kind);
    t.launch.device = gpu::device().name;
    t.launch.grid = grid;
    t.launch.block = block;
    t.launch.dynamic_shared_bytes = smem;
    t.total_blocks = grid.count();
    out_.launches.push_back(std::move(t));
  }

  bool check(const std::string& what, cudaError_t err) {
    if (err == cudaSuccess) return true;
    std::string msg = what + " failed: " + gpu::error_text(err);
    if (gpu::is_sticky(err)) {
      reset_ = true;
      msg += gpu::reset_device()
                 ? ". This error leaves the GPU context unusable, so warpscope reset the device; run again."
                 : ". This error leaves the GPU context unusable; " + gpu::unusable_reason() + ".";
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

#if defined(WS_GPU_TRACE)
  // [gpu-trace] Device buffers for one launch: the control block, the records, the bitmap of
  // blocks recorded in full, the per-SM site counters.
  struct Recording {
    gpu_trace::Control host{};
    gpu_trace::Control* control = nullptr;
    std::vector<uint32_t> full_blocks;
  } rec_;

  template <class T>
  T* device_alloc(size_t count) {
    void* p = nullptr;
    if (!check("cudaMalloc (gpu-trace buffers)", cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T)))) return nullptr;
    allocations_.push_back(p);
    return static_cast<T*>(p);
  }

  bool begin_recording(Dim3 grid) {
    const uint64_t blocks = grid.count();
    rec_ = Recording{};
    std::vector<uint32_t> bitmap((blocks + 31) / 32, 0);
    if (cfg_.record.blocks.empty()) {
      for (uint64_t b = 0; b < blocks; ++b) rec_.full_blocks.push_back(uint32_t(b));
    } else {
      // The asked blocks this grid has (recorded_blocks.h); the first launch says which it lacks.
      RecordedBlocks asked = recorded_blocks(cfg_.record.blocks, blocks, out_.launches.empty());
      if (!asked.note.empty()) out_.notes.push_back(asked.note);
      rec_.full_blocks = std::move(asked.blocks);
    }
    for (uint32_t b : rec_.full_blocks) bitmap[b / 32] |= 1u << (b % 32);
    gpu_trace::Control& h = rec_.host;
    h.sm_count = uint32_t(std::max(1, gpu::device().sm_count));
    h.counters_enabled = cfg_.record.count_every_block ? 1 : 0;  // before counter_count(): off, no tables
    h.chunks = std::max<unsigned long long>(1, std::min<unsigned long long>(cfg_.record.max_events, 1ull << 20) /
                                                   gpu_trace::kChunk);
    h.capacity = h.chunks * gpu_trace::kChunk;
    h.records = device_alloc<gpu_trace::Record>(h.capacity);
    h.sm_reserved = device_alloc<unsigned long long>(h.sm_count);
    h.next_chunk = device_alloc<unsigned long long>(1);
    h.sm_chunk = device_alloc<unsigned long long>(h.sm_count * h.chunks);
    uint32_t* bits = device_alloc<uint32_t>(bitmap.size());
    h.counters = device_alloc<gpu_trace::SiteCounter>(counter_count());
    h.counter_keys = device_alloc<unsigned long long>(counter_count());
    rec_.control = device_alloc<gpu_trace::Control>(1);
    if (failed_) return false;
    h.full_blocks = bits;
    h.full_block_words = uint32_t(bitmap.size());
    h.counter_overflow = 0;
    return check("gpu-trace setup", cudaMemcpy(bits, bitmap.data(), bitmap.size() * 4, cudaMemcpyHostToDevice)) &&
           check("gpu-trace setup", cudaMemset(h.sm_reserved, 0, h.sm_count * sizeof(unsigned long long))) &&
           check("gpu-trace setup", cudaMemset(h.next_chunk, 0, sizeof(unsigned long long))) &&
           check("gpu-trace setup", cudaMemset(h.sm_chunk, 0, h.sm_count * h.chunks * sizeof(unsigned long long))) &&
           check("gpu-trace setup", cudaMemset(h.counters, 0, counter_count() * sizeof(gpu_trace::SiteCounter))) &&
           check("gpu-trace setup", cudaMemset(h.counter_keys, 0, counter_count() * sizeof(unsigned long long))) &&
           check("gpu-trace setup", cudaMemcpy(rec_.control, &h, sizeof h, cudaMemcpyHostToDevice)) &&
           set_control(rec_.control, h);
  }

  // Points this module's control variable at the recording `c` (host copy `host`), or at none.
  bool set_control(gpu_trace::Control* c, const gpu_trace::Control& host = {}) {
    return check("gpu-trace setup", trace_rt::set_control(c, host)) && check("gpu-trace setup", cudaDeviceSynchronize());
  }

  // Rows of the per-warp-slot site tables; none when the launch does not count every block (no
  // 20 MB of tables to clear and read back for nothing).
  size_t counter_count() const {
    if (!rec_.host.counters_enabled) return 0;
    return size_t(rec_.host.sm_count) * gpu_trace::kWarpSlotsPerSm * gpu_trace::kCounterSlots;
  }

  bool end_recording() {
    gpu_trace::Control done{};
    if (!check("gpu-trace readback", cudaMemcpy(&done, rec_.control, sizeof done, cudaMemcpyDeviceToHost))) return false;
    std::vector<unsigned long long> reserved(done.sm_count);
    if (!check("gpu-trace readback", cudaMemcpy(reserved.data(), done.sm_reserved, reserved.size() * sizeof(unsigned long long),
                                                cudaMemcpyDeviceToHost)))
      return false;
    gpu::DecodeInput in;
    in.launch = out_.launches.back().launch;
    in.globals = globals_;
    in.full_blocks = rec_.full_blocks;
    in.total_blocks = out_.launches.back().total_blocks;
    in.counters.resize(counter_count());
    in.counter_overflow = done.counter_overflow != 0;
    // The chunks handed out (the first `used` of the buffer: they are taken in order), in one copy.
    unsigned long long used = 0;
    std::vector<unsigned long long> chunks(size_t(done.sm_count) * done.chunks);
    if (!check("gpu-trace readback", cudaMemcpy(&used, done.next_chunk, sizeof used, cudaMemcpyDeviceToHost)) ||
        !check("gpu-trace readback", cudaMemcpy(chunks.data(), done.sm_chunk, chunks.size() * sizeof(unsigned long long),
                                                cudaMemcpyDeviceToHost)))
      return false;
    used = std::min(used, done.chunks);
    std::vector<gpu_trace::Record> taken(used * gpu_trace::kChunk);
    if (!check("gpu-trace readback", cudaMemcpy(taken.data(), done.records, taken.size() * sizeof(gpu_trace::Record),
                                                cudaMemcpyDeviceToHost)))
      return false;
    // Each SM's chunks, in SM order and in the order it took them: a warp's records stay in its
    // issue order.
    unsigned long long dropped = 0;
    for (uint32_t sm = 0; sm < done.sm_count; ++sm) {
      unsigned long long kept = 0;
      for (unsigned long long i = 0; i < done.chunks && kept < reserved[sm]; ++i) {
        const unsigned long long e = chunks[size_t(sm) * done.chunks + i];
        if (e == 0 || e == ~0ull || e > used) break;
        const unsigned long long n = std::min(gpu_trace::kChunk, reserved[sm] - kept);
        const auto first = taken.begin() + std::ptrdiff_t((e - 1) * gpu_trace::kChunk);
        in.records.insert(in.records.end(), first, first + std::ptrdiff_t(n));
        kept += n;
      }
      dropped += reserved[sm] - kept;
    }
    in.capacity = in.records.size();
    in.reserved = in.records.size() + dropped;
    if (!check("gpu-trace readback", cudaMemcpy(in.counters.data(), done.counters,
                                                in.counters.size() * sizeof(gpu_trace::SiteCounter), cudaMemcpyDeviceToHost)))
      return false;
    in.read_string = [this](uint64_t address) { return read_device_string(address); };
    out_.launches.back() = gpu::decode(in);
    // Stop recording for anything launched later without a recording session.
    return set_control(nullptr);
  }

  std::string read_device_string(uint64_t address) {
    char* buf = device_alloc<char>(512);
    if (!buf) return {};
    copy_device_string<<<1, 1>>>(reinterpret_cast<const char*>(address), buf, 512);
    char host[512] = {};
    if (cudaMemcpy(host, buf, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess) return {};
    host[511] = 0;
    return host;
  }
#endif

  // The GPU to this run alone (see gpu::lock_gpu): first member, so it is taken before anything
  // touches the device and released after the destructor freed everything.
  std::unique_lock<std::mutex> gpu_lock_ = gpu::lock_gpu();
  std::string kernel_;
  const RunConfig& cfg_;
  RunResult& out_;
  std::vector<size_t> scratch_;  // indices into globals_ of scratch allocations
#if !defined(WS_GPU_TRACE)
  std::vector<std::function<cudaError_t()>> replay_;  // [timing] the run's GPU work, in order
#endif
  std::vector<void*> allocations_;
  std::vector<Allocation> globals_;
  bool failed_ = false;
  bool reset_ = false;
};

#if defined(WS_GPU_TRACE)
}  // namespace
#endif
}  // inline namespace
}  // namespace ws
