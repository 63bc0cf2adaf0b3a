// Reference solution of exercises/barrier-in-if.cu: the barrier leaves the if, so that all threads of
// the block reach it at every step (the ones with nothing to add wait too).
/* warpscope
kernel = "dotprod"
n = 4096
block = 256
accepts = ["block.x == 256", "n % 256 == 0"]
args = ["a", "b", "p", "n"]

[arrays.a]
type = "float"
size = "n"
fill = "float(int(i * 7 % 11) - 5)"          # small whole numbers: every sum is exact in float

[arrays.b]
type = "float"
size = "n"
fill = "float(int(i * 13 % 7) - 3)"

[arrays.p]                                   # one partial sum per block
type = "float"
size = "n / block.x"
expect = "std::inner_product(a.begin() + i * block.x, a.begin() + (i + 1) * block.x, b.begin() + i * block.x, 0.0f)"
*/

#define THREADS_PER_BLOCK 256

__global__ void dotprod(float *a, float *b, float *p, int N) {
    __shared__ float cache[THREADS_PER_BLOCK];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid < N)
        cache[threadIdx.x] = a[tid] * b[tid];
    // Here, for easy reduction,
    // blockDim.x must be a power of 2!
    __syncthreads();
    int stride = blockDim.x / 2;
    while (stride != 0) {
        if (threadIdx.x < stride)
            cache[threadIdx.x] += cache[threadIdx.x + stride];
        __syncthreads();
        stride /= 2;
    }
    // last thread copies partial sum to global memory
    if (threadIdx.x == 0)
        p[blockIdx.x] = cache[0];
}
