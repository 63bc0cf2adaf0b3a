// Host code that never returns while the input is made.
// expect: did not finish in
int input(unsigned i) {
  for (volatile bool spin = true; spin;) {
  }
  return int(i);
}

__global__ void host_forever(int* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * y[i];
}

/* warpscope
kernel = "host_forever"
n = 256
block = 128
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n"
fill = "input(i)"
expect = "2 * int(i)"
*/
