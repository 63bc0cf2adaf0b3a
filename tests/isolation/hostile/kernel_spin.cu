// A kernel that never ends: the emulator stops the block at its step budget.
// expect: without finishing | did not finish in
__global__ void kernel_spin(int* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  while (y[i % n] >= 0) y[i % n] += 1;
}

/* warpscope
kernel = "kernel_spin"
n = 32
block = 32
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n"
fill = "int(i)"
expect = "0"
*/
