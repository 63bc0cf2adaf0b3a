// Exercise: a conflict-free tree. This is reduction step 2 (interleaved addressing): no divergent
// branch any more, but `index = 2 * s * tid` makes the lanes of a warp hit the same banks of sdata.
// Change the addressing so that the tree reads and writes sdata without bank conflicts.
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
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        int index = 2 * s * tid;
        if (index < blockDim.x) {
            sdata[index] += sdata[index + s];
        }
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
