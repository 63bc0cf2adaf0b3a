// The one include of a warpscope kernel. The same kernel source compiles three ways:
//   - host C++ compiler           -> the CPU SIMT emulator (records every warp instruction);
//   - nvcc                        -> gpu-fast: wrappers are plain pointer accesses;
//   - nvcc with WS_GPU_TRACE      -> gpu-trace: wrappers record warp instructions on the device.
//
// What a kernel looks like (kernels/reduction/reduce.cuh has the lecture's seven steps):
//
//   #include "ws/kernel.cuh"
//   template <unsigned BLOCK>
//   __global__ void reduce3(ws::global_array<const int> g_idata, ws::global_array<int> g_odata,
//                           unsigned n) {
//     __shared__ ws::shared_array<int, BLOCK, "sdata"> sdata;
//     unsigned tid = threadIdx.x;
//     unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
//     sdata[tid] = i < n ? int(g_idata[i]) : 0;
//     __syncthreads();
//     for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
//       if (tid < s) sdata[tid] += sdata[tid + s];
//       __syncthreads();
//     }
//     if (tid == 0) g_odata[blockIdx.x] = sdata[0];
//   }
//
// Every `a[i]` through a wrapper is a recorded access whose source site (file, line, column) is
// captured by a default argument (std::source_location), not by a macro.
#pragma once

#if defined(__CUDACC__)
#if defined(WS_GPU_TRACE)
#include "ws/gpu/trace_api.cuh"
#else
#include "ws/gpu/fast_api.cuh"
#endif
#else
#include "ws/emu/kernel_api.h"
#endif
