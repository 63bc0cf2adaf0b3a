// A kernel file whose static initialiser asks for more memory than any address space holds
// (2^60 bytes): loading it throws std::bad_alloc in the process that loads it. warpscope loads it
// only in its run process, which answers that the request ran out of its memory.
#include <cstddef>

#include "ws/kernel.cuh"

static char* allocate_on_load() {
  volatile size_t huge = size_t(1) << 60;
  return new char[huge];
}

char* hog = allocate_on_load();

__global__ void load_hog(ws::global_array<float> y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * y[i];
}

/* warpscope
kernel = "load_hog"
n = 256
block = 64
args = ["y", "n"]

[arrays.y]
type = "float"
size = "n"
fill = "float(i % 5)"
expect = "2.0f * float(i % 5)"
*/
