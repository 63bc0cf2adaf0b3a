// Seed 000's first dot product, before shared memory: z_i = x_i * y_i in parallel on the GPU,
// then z goes back to the CPU, which adds it up one element after another.
#include "ws/kernel.cuh"

__global__ void products(ws::global_array<const float> x, ws::global_array<const float> y, ws::global_array<float> z,
                         unsigned n) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) z[i] = x[i] * y[i];
}

/* warpscope
title = "Naive dot product: z to the CPU"
kernel = "products"
n = 1024
block = 256
grid = 1
args = ["x", "y", "z", "n"]

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
*/
