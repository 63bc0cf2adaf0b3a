// A static initialiser that crashes the process that loads the build.
// expect: signal 11 (Segmentation fault)
#include <csignal>

static const int crashed = [] {
  std::raise(SIGSEGV);
  return 1;
}();

__global__ void load_segv(int* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * y[i] + crashed - 1;
}

/* warpscope
kernel = "load_segv"
n = 256
block = 128
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n"
fill = "int(i)"
expect = "2 * int(i)"
*/
