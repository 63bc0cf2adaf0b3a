// Exercise: the last warp on Volta. Reduction step 5 unrolls the last six tree steps for one warp and
// drops __syncthreads() there, trusting the warp to run in lockstep. Since Volta the lanes of a warp
// may run independently: make the last warp safe (volatile and __syncwarp(), or warp shuffles).
/* warpscope
kernel = "reduce5"
n = 16384
block = 256
grid = "n / (2 * block.x)"                   # each thread adds two elements while it loads
shared = "block.x * sizeof(int)"
accepts = ["block.x >= 64 && (block.x & (block.x - 1)) == 0", "n % (2 * block.x) == 0"]
args = ["in", "out"]

[arrays.in]
type = "int"
size = "n"
fill = "random"

[arrays.out]                                 # one sum per block of 2 * block.x elements
type = "int"
size = "n / (2 * block.x)"
expect = "std::accumulate(in.begin() + i * 2 * block.x, in.begin() + (i + 1) * 2 * block.x, 0)"
*/

__global__ void reduce5(int *g_idata, int *g_odata) {
    extern __shared__ int sdata[];
    // each thread adds two elements from global memory and stores the sum in shared mem
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
    __syncthreads();

    // do reduction in shared mem while more than one warp has work
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    // the last warp: no __syncthreads() needed, the warp is in lockstep (before Volta)
    if (tid < 32) {
        sdata[tid] += sdata[tid + 32]; sdata[tid] += sdata[tid + 16];
        sdata[tid] += sdata[tid + 8];  sdata[tid] += sdata[tid + 4];
        sdata[tid] += sdata[tid + 2];  sdata[tid] += sdata[tid + 1];
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
