// A static initialiser that never returns.
// expect: did not finish in
static const int never = [] {
  for (volatile bool spin = true; spin;) {
  }
  return 1;
}();

__global__ void load_forever(int* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * y[i] + never - 1;
}

/* warpscope
kernel = "load_forever"
n = 256
block = 128
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n"
fill = "int(i)"
expect = "2 * int(i)"
*/
