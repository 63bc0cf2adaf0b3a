// saxpy: y = a * x + y, one thread per element. The simplest coalesced kernel: a warp's 32 loads
// of x are 32 consecutive floats, 128 bytes, four 32-byte sectors per request.
//
//   warpscope run --file examples/saxpy.cu
//   warpscope open examples/saxpy.cu          (the viewer; saving the file rebuilds and reruns)
#include "ws/kernel.cuh"

__global__ void saxpy(ws::global_array<const float> x, ws::global_array<float> y, float a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

/* warpscope
kernel = "saxpy"
title = "SAXPY: y = a x + y"
n = 5000                      # not a multiple of the block: the last block's tail is idle
block = 256
args = ["x", "y", "2.0f", "n"]

[arrays.x]
type = "float"
size = "n"
fill = "random"

[arrays.y]
type = "float"
size = "n"
fill = "i % 7"
expect = "2.0f * x[i] + y[i]"
*/
