// A block sum with one __syncthreads() missing: a thread reads its neighbour's partial sum before
// the neighbour wrote it. `warpscope run --file examples/race.cu` says RACE and names the two
// lines; --param fixed=1 puts the barrier back.
#include "ws/kernel.cuh"

__global__ void block_sum(ws::global_array<const int> in, ws::global_array<int> out, int fixed) {
  __shared__ ws::shared_array<int, 256, "partial"> partial;
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  if (fixed) __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

int block_total(const std::vector<int>& in, uint64_t b) {
  int s = 0;
  for (uint64_t k = b * 256; k < (b + 1) * 256; ++k) s += in[k];
  return s;
}

/* warpscope
kernel = "block_sum"
n = 1024
block = 256
args = ["in", "out", "fixed"]

[params.fixed]
description = "1: the barrier after the first store is there"
default = 0
max = 1

[arrays.in]
type = "int"
size = "n"
fill = "random"

[arrays.out]
type = "int"
size = "n / 256"
expect = "block_total(in, i)"
*/
