// Cooperative groups as code bases write them, beside the same kernel with the plain intrinsics
// they stand for: each group call is recorded as its intrinsic, at its own line.
//   groups    a tile of 32 (shfl_down), a tile of 8 (reduce), the block's sync, and a
//             coalesced group's leader adding the count of its lanes (warp-aggregated atomic)
//   plain     the same with __shfl_down_sync, __shfl_xor_sync of width 8, __syncthreads and
//             __activemask/__popc
/* warpscope
n = 1024
block = 128
args = ["in", "warp_sums", "tile8_sums", "counter"]

[[variants]]
id = "groups"
kernel = "with_groups"

[[variants]]
id = "plain"
kernel = "with_intrinsics"

[arrays.in]
type = "int"
size = "n"
fill = "random"

[arrays.warp_sums]
type = "int"
size = "n / 32"
expect = "span_sum(in, i, 32)"

[arrays.tile8_sums]
type = "int"
size = "n / 8"
expect = "span_sum(in, i, 8)"

[arrays.counter]
type = "int"
size = "1"
expect = "odd_count(in)"
*/
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>
namespace cg = cooperative_groups;

long long span_sum(const std::vector<int>& in, size_t k, size_t width) {
  long long s = 0;
  for (size_t j = k * width; j < (k + 1) * width; ++j) s += in[j];
  return s;
}
long long odd_count(const std::vector<int>& in) {
  long long c = 0;
  for (int v : in) c += v % 2 != 0;
  return c;
}

__global__ void with_groups(const int* in, int* warp_sums, int* tile8_sums, int* counter) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const unsigned i = block.group_index().x * block.size() + block.thread_rank();
  int v = in[i];
  int sum = v;
  for (int k = 16; k > 0; k /= 2) sum += warp.shfl_down(sum, k);
  if (warp.thread_rank() == 0) warp_sums[i / 32] = sum;
  cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
  const int s8 = cg::reduce(tile8, v, cg::plus<int>());
  if (tile8.thread_rank() == 0) tile8_sums[i / 8] = s8;
  block.sync();
  if (v % 2 != 0) {
    cg::coalesced_group odd = cg::coalesced_threads();
    if (odd.thread_rank() == 0) atomicAdd(counter, int(odd.size()));
  }
}

__global__ void with_intrinsics(const int* in, int* warp_sums, int* tile8_sums, int* counter) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int sum = v;
  for (int k = 16; k > 0; k /= 2) sum += __shfl_down_sync(0xffffffffu, sum, k);
  if (threadIdx.x % 32 == 0) warp_sums[i / 32] = sum;
  const unsigned lane = threadIdx.x % 32, m8 = 0xffu << (lane & ~7u);
  int s8 = v;
  for (int k = 4; k > 0; k /= 2) s8 += __shfl_xor_sync(m8, s8, k, 8);
  if (threadIdx.x % 8 == 0) tile8_sums[i / 8] = s8;
  __syncthreads();
  if (v % 2 != 0) {
    const unsigned odd = __activemask();
    if ((odd & ((1u << lane) - 1u)) == 0) atomicAdd(counter, __popc(odd));
  }
}
