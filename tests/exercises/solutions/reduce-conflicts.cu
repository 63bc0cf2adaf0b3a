// Reference solution of exercises/reduce-conflicts.cu: sequential addressing (reduction step 3).
// Lane k of a warp touches sdata[tid] and sdata[tid + s], 32 consecutive words: 32 banks, one pass.
/* warpscope
kernel = "reduce2"
n = 16384
block = 256
shared = "block.x * sizeof(int)"
accepts = ["block.x >= 32 && (block.x & (block.x - 1)) == 0", "n % block.x == 0"]
args = ["in", "out"]

[arrays.in]
type = "int"
size = "n"
fill = "random"

[arrays.out]
type = "int"
size = "n / block.x"
expect = "std::accumulate(in.begin() + i * block.x, in.begin() + (i + 1) * block.x, 0)"
*/

__global__ void reduce2(int *g_idata, int *g_odata) {
    extern __shared__ int sdata[];
    // each thread loads one element from global to shared mem
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();

    // do reduction in shared mem
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
