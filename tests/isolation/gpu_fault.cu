// A kernel that writes far outside its array on the GPU (with `--param fault=1`): an illegal
// address, a sticky error that ends the CUDA context. It costs warpscope's run process only.
#include "ws/kernel.cuh"

__global__ void gpu_fault(ws::global_array<float> y, unsigned n, int fault) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  // (gpu-fast's array is a plain pointer: 4 TiB past it the GPU itself faults; the emulator
  // stops it as out of bounds.)
  if (fault) y[(size_t(1) << 40) + i] = 1.0f;
  else if (i < n) y[i] = 2.0f * y[i];
}

/* warpscope
kernel = "gpu_fault"
n = 4096
block = 128
args = ["y", "n", "fault"]

[params.fault]
max = 1
default = 0

[arrays.y]
type = "float"
size = "n"
fill = "i % 5"
expect = "2.0f * float(i % 5)"
*/
