// Seed 001's last warp: the block's tree runs while more than 64 partial sums are left, then one
// warp finishes without __syncthreads(). The slides write its guard as `if (tid <= 32)`: thread 32,
// lane 0 of warp 1, joins the last warp's steps. Two finishes, each with the slide's guard and the
// right one (tid < 32):
//   shared  the last six steps in shared memory, each a read, __syncwarp(), a write, __syncwarp()
//           (safe on Volta and later, where a warp's lanes are not kept in lockstep)
//   shfl    the butterfly tmp += __shfl_xor_sync(mask, tmp, k), k = 16 .. 1: every lane ends with
//           the whole sum, no shared memory between the steps
#include "ws/kernel.cuh"

template <bool kOffByOne, bool kShuffle>
__global__ void last_warp(ws::global_array<const int> in, ws::global_array<int> out) {
  __shared__ ws::shared_array<int, 256, "sdata"> sdata;
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (kOffByOne ? tid <= 32 : tid < 32) {
    if (kShuffle) {
      int tmp = sdata[tid] + sdata[tid + 32];
      tmp += __shfl_xor_sync(0xffffffffu, tmp, 16);
      tmp += __shfl_xor_sync(0xffffffffu, tmp, 8);
      tmp += __shfl_xor_sync(0xffffffffu, tmp, 4);
      tmp += __shfl_xor_sync(0xffffffffu, tmp, 2);
      tmp += __shfl_xor_sync(0xffffffffu, tmp, 1);
      sdata[tid] = tmp;
    } else {
      // (each step reads, waits for the warp, then writes: lane 16 must not overwrite sdata[16]
      // before lane 0 has read it, which lockstep alone used to promise)
      for (unsigned s = 32; s > 0; s >>= 1) {
        const int v = sdata[tid] + sdata[tid + s];
        __syncwarp();
        sdata[tid] = v;
        __syncwarp();
      }
    }
  }
  __syncthreads();
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

int block_total(const std::vector<int>& in, uint64_t b) {
  int s = 0;
  for (uint64_t k = b * 256; k < (b + 1) * 256; ++k) s += in[k];
  return s;
}

/* warpscope
title = "The last warp: tid <= 32 and the butterfly"
n = 1024
block = 256
args = ["in", "out"]

[[variants]]
id = "shared"
kernel = "last_warp<false, false>"
summary = "if (tid < 32): the last six steps in shared memory, one warp"

[[variants]]
id = "shared-slide"
kernel = "last_warp<true, false>"
summary = "if (tid <= 32), as on the slide: thread 32 of warp 1 joins the last warp's steps"

[[variants]]
id = "shfl"
kernel = "last_warp<false, true>"
summary = "if (tid < 32): the __shfl_xor_sync butterfly"

[[variants]]
id = "shfl-slide"
kernel = "last_warp<true, true>"
summary = "if (tid <= 32), as on the slide: thread 32 shuffles with a warp of one lane"

[arrays.in]
type = "int"
size = "n"
fill = "random"
range = [0, 9]

[arrays.out]
type = "int"
size = "n / 256"
expect = "block_total(in, i)"
*/
