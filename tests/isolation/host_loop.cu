// A kernel file whose host code never ends when its input is made (with `--param loop=1`): run in
// warpscope's run process, the time limit stops that process and warpscope goes on.
#include "ws/kernel.cuh"

__global__ void host_loop(ws::global_array<float> y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * y[i];
}

float input(unsigned i, long loop) {
  volatile long spin = loop;
  while (spin) {
  }
  return float(i % 5);
}

/* warpscope
kernel = "host_loop"
n = 256
block = 64
args = ["y", "n"]

[params.loop]
min = 0
max = 1
default = 0

[arrays.y]
type = "float"
size = "n"
fill = "input(i, loop)"
expect = "2.0f * float(i % 5)"
*/
