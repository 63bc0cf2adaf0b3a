// A histogram privatised in shared memory: each block counts into its own bins with shared
// atomics, then adds them to the global bins. The input's `skew` parameter puts most values in
// one bin: watch the atomics' contention in the memory heatmap (color = contention).
#include "ws/kernel.cuh"

constexpr unsigned BINS = 64;

__global__ void histogram(ws::global_array<const unsigned> in, ws::global_array<unsigned> bins, unsigned n) {
  __shared__ ws::shared_array<unsigned, BINS, "local"> local;
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[in[i] % BINS], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], unsigned(local[b]));
}

// Input value k: with skew s (0..100), s percent of the values are 0.
unsigned skewed_value(uint64_t k, int64_t skew) { return (k * 2654435761u) % 100 < uint64_t(skew) ? 0 : unsigned(k * 40503u % 1000); }

unsigned count_of(const std::vector<unsigned>& in, uint64_t bin) {
  unsigned c = 0;
  for (unsigned v : in) c += v % BINS == bin;
  return c;
}

/* warpscope
kernel = "histogram"
n = 8192
block = 256
grid = 8                         # a grid-stride loop: any grid covers n
args = ["in", "bins", "n"]

[params.skew]
description = "percent of the values that fall in bin 0"
default = 0
min = 0
max = 100

[arrays.in]
type = "unsigned"
size = "n"
fill = "skewed_value(i, skew)"

[arrays.bins]
type = "unsigned"
size = "64"
expect = "count_of(in, i)"
*/
