// Host code that reads through a null pointer while the input is made.
// expect: signal 11 (Segmentation fault)
#include <cstdint>

int input(unsigned i) {
  volatile std::uintptr_t address = 0;
  return *reinterpret_cast<volatile int*>(address) + int(i);
}

__global__ void host_null(int* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * y[i];
}

/* warpscope
kernel = "host_null"
n = 256
block = 128
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n"
fill = "input(i)"
expect = "0"
*/
