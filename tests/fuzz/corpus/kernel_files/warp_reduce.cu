// A sum with warp shuffles: each warp adds its 32 values with __shfl_down_sync (no shared
// memory, no barrier), then lane 0 adds the warp's sum to the total with one atomicAdd.
#include "ws/kernel.cuh"

__global__ void warp_sum(ws::global_array<const int> in, ws::global_array<int> total, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? int(in[i]) : 0;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(&total[0], v);
}

// The expected total, computed on the host.
long long host_sum(const std::vector<int>& v) {
  long long s = 0;
  for (int x : v) s += x;
  return s;
}

/* warpscope
kernel = "warp_sum"
n = 4096
block = 128                      # a multiple of 32: every warp is whole for the shuffles
args = ["in", "total", "n"]

[arrays.in]
type = "int"
size = "n"
fill = "random"
range = [0, 9]

[arrays.total]
type = "int"
size = "1"
expect = "host_sum(in)"
*/
