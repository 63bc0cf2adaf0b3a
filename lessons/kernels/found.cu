// A write-after-write race: every thread whose element is the one looked for writes its index to
// one shared word. Several do, with nothing ordering their writes: which index is left there is
// undefined (the last writer wins, and no one says which is last). The remedy, atomicMin, keeps
// the smallest index whatever the order.
#include "ws/kernel.cuh"

template <bool kAtomic>
__global__ void find_first(ws::global_array<const int> in, ws::global_array<int> first, int target) {
  __shared__ ws::shared_array<int, 1, "found"> found;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) found[0] = 1 << 30;
  __syncthreads();
  if (in[i] == target) {
    if (kAtomic) atomicMin(&found[0], int(i));
    else found[0] = int(i);
  }
  __syncthreads();
  if (threadIdx.x == 0) first[blockIdx.x] = found[0];
}

// The smallest index of `target` in block b's part of `in`.
int first_of(const std::vector<int>& in, uint64_t b, int target) {
  for (uint64_t k = b * 256; k < (b + 1) * 256; ++k)
    if (in[k] == target) return int(k);
  return 1 << 30;
}

/* warpscope
title = "Found it: a write-after-write race"
n = 1024
block = 256
args = ["in", "first", "target"]

[params.target]
description = "the value looked for"
default = 7
max = 9

[[variants]]
id = "store"
kernel = "find_first<false>"
summary = "found = i from every thread that found it: the last writer wins"

[[variants]]
id = "atomic"
kernel = "find_first<true>"
summary = "atomicMin(&found, i): the smallest index, whatever the order"

[arrays.in]
type = "int"
size = "n"
fill = "random"
range = [0, 9]

[arrays.first]
type = "int"
size = "n / 256"
expect = "first_of(in, i, int(target))"
*/
