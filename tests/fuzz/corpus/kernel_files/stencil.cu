// A 1D three-point stencil with a shared-memory halo: every thread loads its element, and the
// first and last thread of the block also load one neighbour each (a conditional store: two
// lanes of one warp). out[i] = in[i-1] + in[i] + in[i+1], with zeros outside the array.
#include "ws/kernel.cuh"

constexpr unsigned BLOCK = 128;

__global__ void stencil(ws::global_array<const float> in, ws::global_array<float> out, unsigned n) {
  __shared__ ws::shared_array<float, BLOCK + 2, "halo"> s;
  unsigned i = blockIdx.x * BLOCK + threadIdx.x;
  unsigned t = threadIdx.x + 1;
  s[t] = i < n ? float(in[i]) : 0.0f;
  if (threadIdx.x == 0) s[0] = i > 0 && i - 1 < n ? float(in[i - 1]) : 0.0f;
  if (threadIdx.x == BLOCK - 1) s[BLOCK + 1] = i + 1 < n ? float(in[i + 1]) : 0.0f;
  __syncthreads();
  if (i < n) out[i] = s[t - 1] + s[t] + s[t + 1];
}

float at(const std::vector<float>& v, uint64_t i, int d) {
  const int64_t k = int64_t(i) + d;
  return k < 0 || k >= int64_t(v.size()) ? 0.0f : v[size_t(k)];
}

/* warpscope
kernel = "stencil"
n = 1000
block = 128                      # BLOCK: the halo is sized for it
args = ["in", "out", "n"]

[arrays.in]
type = "float"
size = "n"
fill = "random"

[arrays.out]
type = "float"
size = "n"
expect = "at(in, i, -1) + at(in, i, 0) + at(in, i, 1)"
*/
