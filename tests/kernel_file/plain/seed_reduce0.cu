// Seed 003's reduce0, pasted from the slides as it stands there; only the description is added.
/* warpscope
kernel = "reduce0"
n = 4096
block = 256
shared = "block.x * sizeof(int)"
args = ["in", "out"]

[arrays.in]
type = "int"
size = "n"
fill = "random"

[arrays.out]
type = "int"
size = "n / 256"
expect = "block_sum(in, i)"
*/
#include <vector>
long long block_sum(const std::vector<int>& in, size_t b) {
  long long s = 0;
  for (size_t k = 0; k < 256; ++k) s += in[b * 256 + k];
  return s;
}

__global__ void reduce0(int *g_idata, int *g_odata) {
    extern __shared__ int sdata[];
    // each thread loads one element from global to shared mem
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();

    // do reduction in shared mem
    for(unsigned int s=1; s < blockDim.x; s *= 2) {
        if (tid % (2*s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
