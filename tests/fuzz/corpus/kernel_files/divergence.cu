// Divergence with intrinsics: lanes whose value has an odd number of set bits (__popc) take a
// longer path; __ballot_sync tells each warp how many of its lanes did. The divergence timeline
// shows the two paths one after the other.
#include "ws/kernel.cuh"

__global__ void parity(ws::global_array<const unsigned> in, ws::global_array<unsigned> out, ws::global_array<unsigned> odd_lanes,
                       unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? unsigned(in[i]) : 0u;
  bool odd = __popc(v) & 1;
  unsigned votes = __ballot_sync(0xffffffffu, odd);
  unsigned r = v;
  if (odd) {
    for (int k = 0; k < 8; ++k) r = __brev(r) ^ (r >> 3);  // the long path
  } else {
    r = r + 1;
  }
  if (i < n) out[i] = r;
  if (threadIdx.x % 32 == 0 && i < n) odd_lanes[i / 32] = __popc(votes);
}

unsigned expected_out(unsigned v) {
  if (__builtin_popcount(v) & 1) {
    for (int k = 0; k < 8; ++k) {
      unsigned b = 0;
      for (int j = 0; j < 32; ++j) b |= ((v >> j) & 1u) << (31 - j);
      v = b ^ (v >> 3);
    }
    return v;
  }
  return v + 1;
}

unsigned odd_in_warp(const std::vector<unsigned>& in, uint64_t w) {
  unsigned c = 0;
  for (uint64_t k = w * 32; k < w * 32 + 32 && k < in.size(); ++k) c += __builtin_popcount(in[k]) & 1;
  return c;
}

/* warpscope
kernel = "parity"
n = 1024
block = 64
args = ["in", "out", "odd_lanes", "n"]

[arrays.in]
type = "unsigned"
size = "n"
fill = "i * 2654435761u"

[arrays.out]
type = "unsigned"
size = "n"
expect = "expected_out(in[i])"

[arrays.odd_lanes]
type = "unsigned"
size = "(n + 31) / 32"
expect = "odd_in_warp(in, i)"
*/
