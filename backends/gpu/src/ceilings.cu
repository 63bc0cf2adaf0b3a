#include <cuda_runtime.h>

#include <algorithm>

#include "ws/gpu/ceilings.h"
#include "ws/gpu/device.h"

namespace ws::gpu {

namespace {

// Reads every 16-byte word once: four independent loads in flight per thread per iteration, a
// grid-stride loop, and an XOR of everything so the compiler cannot drop the loads (the store
// happens only if the XOR equals a value the host never passes).
__global__ void read_stream(const int4* __restrict__ p, size_t count, int* out, int never) {
  int acc = 0;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < count; i += 4 * stride) {
    const int4 a = p[i], b = p[i + stride], c = p[i + 2 * stride], d = p[i + 3 * stride];
    acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
  }
  for (; i < count; i += stride) {
    const int4 a = p[i];
    acc ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  if (acc == never) out[0] = acc;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

struct Failure {
  std::string what;
};

void ok_or_throw(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Failure{std::string(what) + ": " + error_text(e)};
}

}  // namespace

Ceilings measure_ceilings(uint64_t bytes, unsigned reps) {
  Ceilings c;
  const DeviceInfo& d = device();
  if (!d.present) {
    c.error = d.why_not;
    return c;
  }
  std::unique_lock<std::mutex> lock = lock_gpu();
  if (!usable()) {
    c.error = unusable_reason();
    return c;
  }
  bytes = std::min<uint64_t>(bytes, d.global_bytes / 4) / 16 * 16;
  c.bytes = bytes;
  reps = std::max(reps, 3u);
  void *src = nullptr, *dst = nullptr, *flush = nullptr;
  size_t flush_bytes = 0;
  int* sink = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  try {
    ok_or_throw(cudaMalloc(&src, bytes), "cudaMalloc (ceiling buffers)");
    ok_or_throw(cudaMalloc(&dst, bytes), "cudaMalloc (ceiling buffers)");
    ok_or_throw(cudaMalloc(&sink, sizeof(int)), "cudaMalloc");
    ok_or_throw(cudaMemset(src, 0x5a, bytes), "cudaMemset");  // not zeros: never time on zeros
    ok_or_throw(cudaEventCreate(&start), "cudaEventCreate");
    ok_or_throw(cudaEventCreate(&stop), "cudaEventCreate");
    // As for every timed run (RunConfig::timing): the L2 is flushed before each repeat, so a
    // buffer not much larger than the L2 is read from memory, not partly from the cache.
    flush_bytes = std::max<size_t>(2 * d.l2_bytes, 8u << 20);
    ok_or_throw(cudaMalloc(&flush, flush_bytes), "cudaMalloc (L2 flush buffer)");
    unsigned rep = 0;
    auto time = [&](auto&& work) {
      ok_or_throw(cudaMemsetAsync(flush, int(++rep & 0xff), flush_bytes), "cudaMemsetAsync (L2 flush)");
      ok_or_throw(cudaEventRecord(start), "cudaEventRecord");
      work();
      ok_or_throw(cudaGetLastError(), "ceiling kernel");
      ok_or_throw(cudaEventRecord(stop), "cudaEventRecord");
      ok_or_throw(cudaEventSynchronize(stop), "ceiling measurement");
      float ms = 0;
      ok_or_throw(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      return double(ms);
    };
    // Copy: warm-up, then the repeats.
    auto copy = [&] { ok_or_throw(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync"); };
    time(copy);
    for (unsigned r = 0; r < reps; ++r) c.copy_ms.push_back(time(copy));
    c.copy_gbps = 2.0 * double(bytes) / (median(c.copy_ms) * 1e6);
    // Read: the best of a few grids (blocks per SM x 256 threads).
    const size_t count = bytes / 16;
    for (unsigned per_sm : {4u, 8u, 16u}) {
      const unsigned blocks = per_sm * unsigned(std::max(1, d.sm_count)), threads = 256;
      auto read = [&] { read_stream<<<blocks, threads>>>(static_cast<const int4*>(src), count, sink, 0x13572468); };
      time(read);
      std::vector<double> ms;
      for (unsigned r = 0; r < reps; ++r) ms.push_back(time(read));
      const double gbps = double(bytes) / (median(ms) * 1e6);
      if (gbps > c.read_gbps) {
        c.read_gbps = gbps;
        c.read_ms = ms;
        c.read_blocks = blocks;
        c.read_threads = threads;
      }
    }
    c.ok = true;
  } catch (const Failure& f) {
    c.error = f.what;
    cudaGetLastError();
  }
  if (start) cudaEventDestroy(start);
  if (stop) cudaEventDestroy(stop);
  cudaFree(src);
  cudaFree(dst);
  cudaFree(sink);
  cudaFree(flush);
  return c;
}

}  // namespace ws::gpu
