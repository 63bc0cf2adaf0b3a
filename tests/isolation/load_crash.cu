// A kernel file whose static initialiser crashes (SIGSEGV, raised: a null pointer read in an
// initialiser is undefined and a compiler may drop it): the process that loads its build crashes
// the moment it is loaded, before any run. warpscope loads it only in its run process, so that
// crash costs that process and the build says so.
#include "ws/kernel.cuh"

#include <csignal>

static int crash_on_load() {
  std::raise(SIGSEGV);
  return 1;
}

static const int crashed = crash_on_load();

__global__ void load_crash(ws::global_array<float> y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * y[i];
}

/* warpscope
kernel = "load_crash"
n = 64
block = 64
args = ["y", "n"]

[arrays.y]
type = "float"
size = "n"
fill = "i"
expect = "2.0f * float(i)"
*/
