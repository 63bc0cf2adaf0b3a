// A shared array of 4 GiB, far over any GPU's 228 KB a block.
// expect: shared
__global__ void kernel_huge_shared(int* y, unsigned n) {
  __shared__ int s[1u << 30];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = int(i);
  __syncthreads();
  if (i < n) y[i] = s[threadIdx.x ^ 1];
}

/* warpscope
kernel = "kernel_huge_shared"
n = 256
block = 128
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n"
fill = "0"
expect = "int(i ^ 1)"
*/
