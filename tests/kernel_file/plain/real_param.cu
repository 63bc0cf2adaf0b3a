// A real parameter: `alpha` is written with a real number in the description (default = 2.5), so
// it reaches the kernel's `float alpha` and the expectation as a double; `steps` stays whole.
/* warpscope
kernel = "saxpy"
n = 256
block = 128
args = ["y", "x", "alpha", "n"]

[params.alpha]
min = -4.0
max = 4
default = 2.5

[params.steps]
min = 1
max = 8
default = 2

[arrays.x]
type = "float"
size = "n"
fill = "i % 7"

[arrays.y]
type = "float"
size = "n"
fill = "1"
expect = "float(alpha) * float(i % 7) + 1.0f"
*/
__global__ void saxpy(float* y, const float* x, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}
