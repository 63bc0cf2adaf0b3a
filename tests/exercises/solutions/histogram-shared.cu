// Reference solution of exercises/histogram-shared.cu: each block counts its pixels into a histogram
// in shared memory (shared atomics), then adds its NUM_BINS counts to the global buckets: one global
// atomic per bin per block instead of one per pixel.
/* warpscope
kernel = "histogram"
n = 16384                                    # pixels: one thread each
block = 256
accepts = ["n % block.x == 0"]
args = ["color", "buckets"]

[arrays.color]
type = "int"
size = "n"
fill = "random"
range = [0, 63]                              # NUM_BINS colours

[arrays.buckets]
type = "int"
size = "64"
expect = "int(std::count(color.begin(), color.end(), int(i)))"
*/

#define NUM_BINS 64

__global__ void histogram(int *color, int *buckets) {
    __shared__ int local[NUM_BINS];
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    int i = threadIdx.x + blockDim.x * blockIdx.x;
    int c = color[i];
    atomicAdd(&local[c], 1);
    __syncthreads();

    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
        atomicAdd(&buckets[b], local[b]);
}
