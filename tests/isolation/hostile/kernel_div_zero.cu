// An integer division by zero in a kernel (undefined in CUDA; a trap on the CPU).
// expect: crashed with SIGFPE
__global__ void kernel_div_zero(int* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  volatile int zero = 0;
  if (i < n) y[i] = y[i] / zero;
}

/* warpscope
kernel = "kernel_div_zero"
n = 256
block = 128
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n"
fill = "int(i)"
expect = "0"
*/
