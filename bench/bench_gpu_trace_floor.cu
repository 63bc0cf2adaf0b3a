// Floors of exact per-site counting on the GPU: what each way of counting every block's accesses
// costs at the least, on the lecture's reduce 3 (sequential addressing), n = 2^24 ints, block 256.
// The target for gpu-trace's counters-only level is <= 3x of gpu-fast; this says which designs
// can get there. Each variant is written by hand, inside the kernel, with whatever it needs kept in
// registers (the kernel API cannot keep per-thread state between two accesses, nor knows the
// recording mode at compile time), so its time is a lower bound for any implementation of that
// design:
//   log          every active lane stores its address (4 B, coalesced) and the leader the warp's
//                mask, into a per-warp log that a later pass would count (that pass not included)
//   RED          the warp's leader adds popc(mask) to a counter row per access, nothing computed
//                (rows per SM, as gpu-trace shares them; or one row per block, no contention)
//   counts + RED the leader adds the access's real counts, computed as gpu-trace does for
//                lane-linear accesses (stride from the first and last lanes, checked by every lane;
//                shared: ways of the busiest bank; global: 32-byte sectors of the span), packed
//                into ONE 64-bit atomic (rows per block, or per SM warp slot)
// H100, median of 31 (2026-11-24): log 3.63x, RED per SM 2.85x, RED per block 2.07x, counts + RED
// per block 5.71x, per SM warp slot 6.47x. gpu-trace itself (bench_gpu_trace) counts at 13.8x.
//
//   build/bench/bench_gpu_trace_floor
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "bench_cuda.h"

namespace {


constexpr int kBlock = 256, kWarps = kBlock / 32, kSlots = 32, kSites = 8, kWarpSlotsPerSm = 64;

enum Variant { Plain, Log, RedPerSm, RedPerBlock, CountsPerBlock, CountsPerSmSlot };

struct Rec {
  unsigned* addr;            // Log: [warp][slot][lane]
  unsigned* mask;            // Log: [warp][slot]
  unsigned long long* rows;  // the atomics' rows
  unsigned sm_count;         // rows per SM: %smid % sm_count, as gpu-trace does
};

__device__ __forceinline__ unsigned lane_id() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}
__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
__device__ __forceinline__ unsigned sm_row(unsigned sm_count) {  // as gpu-trace's: no division when in range
  const unsigned s = sm_id();
  return s < sm_count ? s : s % sm_count;
}
__device__ __forceinline__ unsigned warp_slot() {
  unsigned w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  return w;
}

__device__ __forceinline__ unsigned group_max(unsigned mask, unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(mask, v);
#else
  for (int off = 16; off > 0; off /= 2) {  // (the PTX for older GPUs; measured on sm_90 only)
    const unsigned other = __shfl_xor_sync(mask, v, off);
    if ((mask >> (lane_id() ^ off)) & 1) v = max(v, other);
  }
  return v;
#endif
}

// The lane-linear counts of one warp access (global: `addr` is a byte address, 32-byte sectors;
// shared: a byte offset, the busiest bank's ways).
__device__ __forceinline__ unsigned lane_linear_counts(unsigned mask, unsigned lane, unsigned addr, bool global) {
  const int lo = __ffs(mask) - 1, hi = 31 - __clz(mask);
  const unsigned unit = global ? addr : addr / 4;
  const unsigned u_lo = __shfl_sync(mask, unit, lo), u_hi = __shfl_sync(mask, unit, hi);
  const int stride = hi == lo ? 0 : __float2int_rn(__fdividef(float(int(u_hi - u_lo)), float(hi - lo)));
  const bool linear = __all_sync(mask, unit == u_lo + unsigned(stride * (int(lane) - lo)));
  if (!linear) return 32;  // (reduce 3's accesses are all lane-linear)
  if (global) return u_hi / 32 - u_lo / 32 + 1;
  if (stride == 0) return 1;
  const unsigned q = 32u >> min(__ffs(stride) - 1, 5);
  const unsigned every = q >= 32 ? 1u : 0xffffffffu / ((1u << q) - 1u);
  return group_max(mask, __popc(mask & (every << (lane % q))));
}

// What variant V does at one access of `site` (byte address or offset `addr`); `k` counts the
// thread's accesses (the log's slot).
template <Variant V>
__device__ __forceinline__ void count(const Rec& r, unsigned site, unsigned addr, bool global, unsigned& k) {
  if constexpr (V == Plain) return;
  const unsigned mask = __activemask();
  const unsigned lane = lane_id();
  const bool leader = lane == unsigned(__ffs(mask) - 1);
  const size_t warp = size_t(blockIdx.x) * kWarps + threadIdx.x / 32;
  if constexpr (V == Log) {
    const size_t slot = warp * kSlots + k++;
    r.addr[slot * 32 + lane] = addr;
    if (leader) r.mask[slot] = mask;
  } else if constexpr (V == RedPerSm || V == RedPerBlock) {
    const size_t row = V == RedPerSm ? sm_row(r.sm_count) * kSites + site : size_t(blockIdx.x) * kSites + site;
    if (leader) atomicAdd(&r.rows[row], (unsigned long long)__popc(mask));
  } else {
    const unsigned c = lane_linear_counts(mask, lane, addr, global);
    const unsigned long long packed = (1ull << 48) | (unsigned long long)__popc(mask) << 24 | c;
    const size_t row = V == CountsPerBlock ? size_t(blockIdx.x) * kSites + site
                                           : (sm_row(r.sm_count) * kWarpSlotsPerSm + warp_slot() % kWarpSlotsPerSm) * kSites + site;
    if (leader) atomicAdd(&r.rows[row], packed);
  }
}

template <Variant V>
__global__ void __launch_bounds__(kBlock) reduce3(const int* __restrict__ g, int* out, unsigned n, Rec r) {
  __shared__ int sdata[kBlock];
  unsigned k = 0;
  const unsigned tid = threadIdx.x, i = blockIdx.x * kBlock + tid;
  count<V>(r, 0, i * 4u, true, k);
  const int v = i < n ? g[i] : 0;
  count<V>(r, 1, tid * 4u, false, k);
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = kBlock / 2; s > 0; s >>= 1) {
    if (tid < s) {
      count<V>(r, 2, (tid + s) * 4u, false, k);
      const int b = sdata[tid + s];
      count<V>(r, 3, tid * 4u, false, k);
      const int a = sdata[tid];
      count<V>(r, 4, tid * 4u, false, k);
      sdata[tid] = a + b;
    }
    __syncthreads();
  }
  if (tid == 0) {
    count<V>(r, 5, blockIdx.x * 4u, true, k);
    out[blockIdx.x] = sdata[0];
  }
}

}  // namespace

int main() {
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::printf("bench_gpu_trace_floor: no CUDA device, nothing to measure\n");
    return 0;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const unsigned n = 1u << 24, blocks = n / kBlock;
  int *g = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&g, n * sizeof(int)));
  CHECK(cudaMalloc(&out, blocks * sizeof(int)));
  const std::vector<int> ones(n, 1);
  CHECK(cudaMemcpy(g, ones.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  const size_t slots = size_t(blocks) * kWarps * kSlots;
  Rec r{};
  r.sm_count = unsigned(prop.multiProcessorCount);
  const size_t rows = std::max<size_t>(size_t(blocks), size_t(r.sm_count) * kWarpSlotsPerSm) * kSites;
  CHECK(cudaMalloc(&r.addr, slots * 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&r.mask, slots * sizeof(unsigned)));
  CHECK(cudaMalloc(&r.rows, rows * sizeof(unsigned long long)));
  CHECK(cudaMemset(r.rows, 0, rows * sizeof(unsigned long long)));
  using Kernel = void (*)(const int*, int*, unsigned, Rec);
  auto time_kernel = [&](Kernel kernel) { return median_ms([&] { kernel<<<blocks, kBlock>>>(g, out, n, r); }); };
  const float plain = time_kernel(reduce3<Plain>);
  int sum0 = 0;
  CHECK(cudaMemcpy(&sum0, out, sizeof sum0, cudaMemcpyDeviceToHost));
  std::printf("floors of exact per-site counting, reduce 3, n = 2^24 ints, block 256, on %s, median of 31\n",
              prop.name);
  std::printf("plain reduce 3: %.4f ms (block 0 sums %d ones: %s)\n", plain, sum0, sum0 == kBlock ? "right" : "WRONG");
  const struct {
    const char* what;
    Kernel kernel;
  } rows_to_time[] = {
      {"log: every lane stores its address (count later)", reduce3<Log>},
      {"RED of popc(mask) per access, rows per SM", reduce3<RedPerSm>},
      {"RED of popc(mask) per access, rows per block", reduce3<RedPerBlock>},
      {"counts + 1 packed RED per access, rows per block", reduce3<CountsPerBlock>},
      {"counts + 1 packed RED per access, rows per SM warp slot", reduce3<CountsPerSmSlot>},
  };
  std::printf("%-58s %8s\n", "what every counted access does", "x plain");
  for (const auto& row : rows_to_time) std::printf("%-58s %8.2f\n", row.what, time_kernel(row.kernel) / plain);
  std::printf("(the target for counters only: <= 3x; gpu-trace's own counters: see bench_gpu_trace)\n");
  return 0;
}
