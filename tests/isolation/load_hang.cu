// A kernel file whose static initialiser never ends: loading its build hangs the process that
// loads it. The run process tells warpscope when loading starts, so that stage gets a run's time
// limit rather than the build's minutes of compiling.
#include "ws/kernel.cuh"

static int never_returns() {
  volatile int spin = 0;
  while (spin == 0) {
  }
  return spin;
}

static const int loaded = never_returns();

__global__ void load_hang(ws::global_array<float> y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = float(loaded);
}

/* warpscope
kernel = "load_hang"
n = 64
block = 64
args = ["y", "n"]

[arrays.y]
type = "float"
size = "n"
*/
