// Branching or predication: out[i] = i odd ? a[i] : b[i].
//   branch  if (i % 2) out[i] = a[i]; else out[i] = b[i];  the warp splits: the odd lanes' load
//           and store, then the even lanes', one half-empty instruction after another
//   select  both loads for every lane, then one select and one store: no split, every
//           instruction full, but twice the loads ("all predicated instructions take cycles")
#include "ws/kernel.cuh"

__global__ void pick_branch(ws::global_array<const float> a, ws::global_array<const float> b, ws::global_array<float> out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % 2) {
    out[i] = a[i];
  } else {
    out[i] = b[i];
  }
}

__global__ void pick_select(ws::global_array<const float> a, ws::global_array<const float> b, ws::global_array<float> out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float va = a[i];
  const float vb = b[i];
  out[i] = (i % 2) ? va : vb;
}

/* warpscope
title = "Branching or predication"
n = 1024
block = 256
args = ["a", "b", "out"]

[[variants]]
id = "branch"
kernel = "pick_branch"
summary = "if/else: the odd lanes, then the even ones"

[[variants]]
id = "select"
kernel = "pick_select"
summary = "both loads, one select: no split"

[arrays.a]
type = "float"
size = "n"
fill = "random"

[arrays.b]
type = "float"
size = "n"
fill = "random"

[arrays.out]
type = "float"
size = "n"
expect = "i % 2 ? a[i] : b[i]"
*/
