// A kernel file whose device function recurses `depth` times (with `--param depth=...`), with a
// kilobyte of locals a call: deep enough, it runs past the end of its thread's stack, and the
// run process says which thread did before it ends.
__device__ int down(int* a, int depth) {
  volatile int local[256];
  local[depth % 256] = depth;
  return depth == 0 ? a[0] : down(a, depth - 1) + local[(depth * 7) % 256];
}

__global__ void deep_recursion(int* y, unsigned n, int depth) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = i == 37 ? down(y, depth) : 1;
}

/* warpscope
kernel = "deep_recursion"
n = 64
block = 64
args = ["y", "n", "depth"]

[params.depth]
min = 0
max = 100000
default = 4

[arrays.y]
type = "int"
size = "n"
fill = "0"
*/
