// Exercise: a privatised histogram. Every thread adds its pixel's colour to the global buckets with
// atomicAdd, so the whole grid queues on 64 words. Count into a per-block histogram in shared memory
// first, then add each of its bins to the global buckets once per block.
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

// Determine frequency of colors in a picture; colors have already been converted into ints.
// Each thread looks at one pixel and increments a counter atomically.
__global__ void histogram(int *color, int *buckets) {
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    int c = color[i];
    atomicAdd(&buckets[c], 1);
}
