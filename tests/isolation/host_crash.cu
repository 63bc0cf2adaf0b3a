// A kernel file whose host code dereferences a null pointer when its input is made (with
// `--param crash=1`): run in warpscope's run process, it costs that process, not warpscope.
#include "ws/kernel.cuh"

__global__ void host_crash(ws::global_array<float> y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * y[i];
}

float input(unsigned i, long crash) {
  if (crash) {
    volatile float* nowhere = nullptr;
    return *nowhere;
  }
  return float(i % 5);
}

/* warpscope
kernel = "host_crash"
n = 256
block = 64
args = ["y", "n"]

[params.crash]
min = 0
max = 1
default = 0

[arrays.y]
type = "float"
size = "n"
fill = "input(i, crash)"
expect = "2.0f * float(i % 5)"
*/
