// Exercise: a tree without divergence. This is reduction step 1: `tid % (2 * s) == 0` keeps one lane
// in 2, 4, 8 ... of every warp busy, and each warp still issues the add. Rewrite the tree step so that
// the threads that add are packed into as few warps as possible.
/* warpscope
kernel = "reduce1"
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

__global__ void reduce1(int *g_idata, int *g_odata) {
    extern __shared__ int sdata[];
    // each thread loads one element from global to shared mem
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();

    // do reduction in shared mem
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
