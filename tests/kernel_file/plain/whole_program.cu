// A whole program as a code base or a homework has it (its own main() that allocates with the CUDA
// runtime, launches with <<<>>> and checks errors), with only a launch description added: warpscope
// runs the kernel from the description; main() is compiled, not run.
#include <cstdio>
#include <cuda_runtime.h>
/* warpscope
kernel = "add"
n = 1024
block = 256
args = ["a", "b", "c", "n"]
[arrays.a]
type = "float"
size = "n"
fill = "iota"
[arrays.b]
type = "float"
size = "n"
fill = "ones"
[arrays.c]
type = "float"
size = "n"
expect = "i + 1"
*/
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); return 1; } } while (0)

__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int n = 1 << 20;
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * sizeof(float)));
    add<<<(n + 255) / 256, 256>>>(a, b, c, n);
    CHECK(cudaDeviceSynchronize());
    cudaFree(a); cudaFree(b); cudaFree(c);
    return 0;
}
