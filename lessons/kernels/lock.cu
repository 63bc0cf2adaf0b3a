// A spin lock made of atomicCAS, as the atomics lecture warns: every thread takes the lock, adds
// its value to a total, gives the lock back. Lanes of one warp that spin on a lock another lane of
// the same warp holds wait for a lane that cannot go on: under the classic SIMT model (one path of
// a split warp at a time, the looping lanes first) the warp never leaves the loop. Variants:
//   every  while (atomicCAS(&lock, 0, 1) != 0) {} in every thread: a deadlock inside the warp
//   leader the warp adds its 32 values with shuffles first; one lane per warp takes the lock
#include "ws/kernel.cuh"

template <bool kLeader>
__global__ void locked_sum(ws::global_array<const int> in, ws::global_array<int> total, ws::global_array<int> lock) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  if (kLeader) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 != 0) return;
  }
  while (atomicCAS(&lock[0], 0, 1) != 0) {
  }
  total[0] += v;
  __threadfence();
  atomicExch(&lock[0], 0);
}

long long host_sum(const std::vector<int>& v) {
  long long s = 0;
  for (int x : v) s += x;
  return s;
}

/* warpscope
title = "A lock inside a warp"
n = 256
block = 64
args = ["in", "total", "lock"]

[[variants]]
id = "every"
kernel = "locked_sum<false>"
summary = "every thread spins on the lock: lanes of one warp wait for each other"

[[variants]]
id = "leader"
kernel = "locked_sum<true>"
summary = "shuffles first, then one lane per warp takes the lock"

[arrays.in]
type = "int"
size = "n"
fill = "random"
range = [0, 9]

[arrays.total]
type = "int"
size = "1"
expect = "host_sum(in)"

[arrays.lock]
type = "int"
size = "1"
*/
