// Reference solution of exercises/last-warp.cu: the last warp reads through a volatile pointer (every
// access goes to shared memory, none is kept in a register) and each step reads, waits for the whole
// warp with __syncwarp(), then writes, then waits again: lane 16 cannot overwrite sdata[16] before
// lane 0 has read it, whatever order the lanes run in.
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

    // the last warp: volatile, and __syncwarp() between each step's reads and its writes
    if (tid < 32) {
        volatile int *vs = sdata;
        int v = vs[tid];
        v += vs[tid + 32]; __syncwarp(); vs[tid] = v; __syncwarp();
        v += vs[tid + 16]; __syncwarp(); vs[tid] = v; __syncwarp();
        v += vs[tid + 8];  __syncwarp(); vs[tid] = v; __syncwarp();
        v += vs[tid + 4];  __syncwarp(); vs[tid] = v; __syncwarp();
        v += vs[tid + 2];  __syncwarp(); vs[tid] = v; __syncwarp();
        v += vs[tid + 1];  __syncwarp(); vs[tid] = v;
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
