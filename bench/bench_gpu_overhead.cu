// gpu-fast is zero overhead: the catalog's reduction kernels (written with ws::global_array /
// ws::dynamic_shared / ws::shared_array) against hand-written plain-CUDA twins of the same
// algorithm, same launch, same data, timed alternately with CUDA events (median of many runs).
// scripts/sass_compare.sh compares their SASS instruction counts (cuobjdump -sass).
//
//   build/bench/bench_gpu_overhead [n]        (default n = 2^24 ints)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_cuda.h"
#include <cub/device/device_reduce.cuh>  // reduce.cuh calls CUB: before the kernel API
#include "preamble.h"

namespace fast {
#include "reduction/reduce.cuh"
}  // namespace fast
using namespace fast;

// ---- the twins: the lecture's code with raw pointers ------------------------------------------

__global__ void twin_reduce3(const int* g_idata, int* g_odata, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__device__ void twin_warp_reduce(volatile int* vs, unsigned tid) {
  int v = vs[tid];
  v += vs[tid + 32]; __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 16]; __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 8];  __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 4];  __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 2];  __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 1];  __syncwarp(); vs[tid] = v;
}

template <unsigned BLOCK>
__global__ void twin_reduce6(const int* g_idata, int* g_odata, unsigned n) {
  __shared__ int sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + threadIdx.x;
  int sum = i < n ? g_idata[i] : 0;
  if (i + BLOCK < n) sum += g_idata[i + BLOCK];
  sdata[tid] = sum;
  __syncthreads();
  if (BLOCK >= 1024) { if (tid < 512) { sdata[tid] += sdata[tid + 512]; } __syncthreads(); }
  if (BLOCK >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
  if (BLOCK >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
  if (BLOCK >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }
  if (tid < 32) twin_warp_reduce(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__device__ int twin_warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void twin_reduce8(const int* g_idata, int* g_odata, unsigned n) {
  __shared__ int warp_sums[32];
  // Step 7's grid-stride loop (two loads per iteration), as reduce8 has it since step 8 changes
  // only the tree.
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  const unsigned gridSize = blockDim.x * 2 * gridDim.x;
  int sum = 0;
  while (i < n) {
    sum += g_idata[i];
    if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
    i += gridSize;
  }
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  sum = twin_warp_sum(sum);
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
    sum = twin_warp_sum(sum);
  }
  // (After the branch, as reduce8's block_sum has it: the same source, so the same SASS.)
  if (threadIdx.x == 0) g_odata[blockIdx.x] = sum;
}

// ---- timing ------------------------------------------------------------------------------------


struct Pair {
  const char* name;
  unsigned blocks, threads, smem;
  void (*launch_ws)(unsigned, unsigned, unsigned, const int*, int*, unsigned);
  void (*launch_twin)(unsigned, unsigned, unsigned, const int*, int*, unsigned);
};

template <class K>
float time_once(cudaEvent_t a, cudaEvent_t b, K launch) {
  CHECK(cudaEventRecord(a));
  launch();
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

int main(int argc, char** argv) {
  const unsigned n = argc > 1 ? unsigned(std::strtoul(argv[1], nullptr, 0)) : (1u << 24);
  std::vector<int> host(n);
  for (unsigned i = 0; i < n; ++i) host[i] = int((i * 2654435761u) >> 28);  // 0..15, not constant
  int *in = nullptr, *out_ws = nullptr, *out_twin = nullptr;
  CHECK(cudaMalloc(&in, size_t(n) * sizeof(int)));
  CHECK(cudaMalloc(&out_ws, size_t(n) * sizeof(int)));
  CHECK(cudaMalloc(&out_twin, size_t(n) * sizeof(int)));
  CHECK(cudaMemcpy(in, host.data(), size_t(n) * sizeof(int), cudaMemcpyHostToDevice));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));

  const unsigned T = 256;
  Pair pairs[] = {
      {"reduce3 (sequential)", (n + T - 1) / T, T, T * 4,
       [](unsigned b, unsigned t, unsigned s, const int* i, int* o, unsigned m) {
         reduce3<int><<<b, t, s>>>(ws::global_array<const int>(i, m), ws::global_array<int>(o, m), m);
       },
       [](unsigned b, unsigned t, unsigned s, const int* i, int* o, unsigned m) { twin_reduce3<<<b, t, s>>>(i, o, m); }},
      {"reduce6<256> (unrolled)", (n + 2 * T - 1) / (2 * T), T, 0,
       [](unsigned b, unsigned t, unsigned, const int* i, int* o, unsigned m) {
         reduce6<256, int><<<b, t>>>(ws::global_array<const int>(i, m), ws::global_array<int>(o, m), m);
       },
       [](unsigned b, unsigned t, unsigned, const int* i, int* o, unsigned m) { twin_reduce6<256><<<b, t>>>(i, o, m); }},
      {"reduce8 (shuffles)", unsigned(prop.multiProcessorCount) * 8, T, 0,
       [](unsigned b, unsigned t, unsigned, const int* i, int* o, unsigned m) {
         reduce8<int><<<b, t>>>(ws::global_array<const int>(i, m), ws::global_array<int>(o, m), m);
       },
       [](unsigned b, unsigned t, unsigned, const int* i, int* o, unsigned m) { twin_reduce8<<<b, t>>>(i, o, m); }},
  };

  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::printf("gpu-fast vs hand-written twin on %s, n = %u ints (%.1f MB), median of 101 alternating runs\n",
              prop.name, n, n * 4.0 / 1e6);
  std::printf("%-26s %10s %10s %9s %9s %8s\n", "kernel", "ws ms", "twin ms", "ws GB/s", "twin GB/s", "ws/twin");
  bool all_equal = true;
  for (const Pair& p : pairs) {
    // Same output from both, first.
    p.launch_ws(p.blocks, p.threads, p.smem, in, out_ws, n);
    p.launch_twin(p.blocks, p.threads, p.smem, in, out_twin, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<int> r1(p.blocks), r2(p.blocks);
    CHECK(cudaMemcpy(r1.data(), out_ws, p.blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r2.data(), out_twin, p.blocks * sizeof(int), cudaMemcpyDeviceToHost));
    const bool same = r1 == r2;
    all_equal &= same;
    for (int w = 0; w < 20; ++w) {
      p.launch_ws(p.blocks, p.threads, p.smem, in, out_ws, n);
      p.launch_twin(p.blocks, p.threads, p.smem, in, out_twin, n);
    }
    std::vector<float> tw, tt;
    for (int r = 0; r < 101; ++r) {
      tw.push_back(time_once(a, b, [&] { p.launch_ws(p.blocks, p.threads, p.smem, in, out_ws, n); }));
      tt.push_back(time_once(a, b, [&] { p.launch_twin(p.blocks, p.threads, p.smem, in, out_twin, n); }));
    }
    std::sort(tw.begin(), tw.end());
    std::sort(tt.begin(), tt.end());
    const double mw = tw[50], mt = tt[50];
    std::printf("%-26s %10.4f %10.4f %9.1f %9.1f %8.3f%s\n", p.name, mw, mt, n * 4.0 / mw / 1e6, n * 4.0 / mt / 1e6,
                mw / mt, same ? "" : "  RESULTS DIFFER");
  }
  return all_equal ? 0 : 1;
}
