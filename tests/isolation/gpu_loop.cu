// A kernel that never ends on the GPU (with `--param loop=1`): warpscope's run process is stopped
// at the time limit, and the GPU takes the next run.
#include "ws/kernel.cuh"

__global__ void gpu_loop(ws::global_array<float> y, unsigned n, int loop) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (loop) {
    volatile int spin = 1;
    while (spin) __nanosleep(1000);  // (a side effect in the loop: nvcc cannot drop it)
  }
  if (i < n) y[i] = 2.0f * y[i];
}

/* warpscope
kernel = "gpu_loop"
n = 4096
block = 128
args = ["y", "n", "loop"]

[params.loop]
max = 1
default = 0

[arrays.y]
type = "float"
size = "n"
fill = "i % 5"
expect = "2.0f * float(i % 5)"
*/
