// Seed 000's second dot product: z_i = x_i * y_i in parallel, then thread 0 of the one block
// adds all of z on the GPU while the other 255 threads wait.
#include "ws/kernel.cuh"

__global__ void sum_in_thread0(ws::global_array<const float> x, ws::global_array<const float> y,
                               ws::global_array<float> z, ws::global_array<float> d, unsigned n) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) z[i] = x[i] * y[i];
  __syncthreads();  // (one block: every product is written before thread 0 reads it)
  if (threadIdx.x == 0) {
    float sum = 0;
    for (unsigned i = 0; i < n; ++i) sum += z[i];
    d[0] = sum;
  }
}

// The dot product as the CPU adds it, in the same order.
float dot(const std::vector<float>& x, const std::vector<float>& y, uint64_t n) {
  float sum = 0;
  for (uint64_t i = 0; i < n; ++i) sum += x[i] * y[i];
  return sum;
}

/* warpscope
title = "Naive dot product: a sum in thread 0"
kernel = "sum_in_thread0"
n = 1024
block = 256
grid = 1
args = ["x", "y", "z", "d", "n"]

[arrays.x]
type = "float"
size = "n"
fill = "random"

[arrays.y]
type = "float"
size = "n"
fill = "random"

[arrays.z]
type = "float"
size = "n"
expect = "x[i] * y[i]"

[arrays.d]
type = "float"
size = "1"
expect = "dot(x, y, n)"
tolerance = 1e-4
*/
