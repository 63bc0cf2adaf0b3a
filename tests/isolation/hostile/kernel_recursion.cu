// A device function that recurses far past any thread's stack.
// expect: ran past the end of its
__device__ int down(int* a, int depth) {
  volatile int local[256];
  local[depth % 256] = depth;
  return depth == 0 ? a[0] : down(a, depth - 1) + local[(depth * 7) % 256];
}

__global__ void kernel_recursion(int* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = down(y, 1000000);
}

/* warpscope
kernel = "kernel_recursion"
n = 256
block = 128
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n"
fill = "int(i)"
expect = "0"
*/
