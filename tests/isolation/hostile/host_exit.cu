// Host code that ends the process with exit(3) while the input is made.
// expect: by exit status 3: code in it called exit()
#include <cstdlib>

int input(unsigned i) {
  if (i == 5) std::exit(3);
  return int(i);
}

__global__ void host_exit(int* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * y[i];
}

/* warpscope
kernel = "host_exit"
n = 256
block = 128
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n"
fill = "input(i)"
expect = "2 * int(i)"
*/
