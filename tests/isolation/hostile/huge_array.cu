// An array of 2^40 ints (4 TiB): refused by the run's memory estimate before anything is allocated.
// expect: elements is over | a run may take
__global__ void huge_array(int* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * y[i];
}

/* warpscope
kernel = "huge_array"
n = 256
block = 128
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n << 30"
fill = "int(i)"
expect = "2 * int(i)"
*/
