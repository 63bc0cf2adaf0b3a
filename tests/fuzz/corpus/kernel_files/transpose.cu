// Matrix transpose three ways (seed 001): a naive one whose stores stride through memory, a
// shared-memory tile whose column reads put a warp on one bank (32-way conflicts), and the same
// tile padded to 33 columns (conflict-free). Switch the variant in the lab and watch the bank
// heatmap and the access map.
#include "ws/kernel.cuh"

constexpr unsigned TILE = 32;

__global__ void transpose_naive(ws::global_array<const float> in, ws::global_array<float> out, unsigned rows, unsigned cols) {
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}

template <unsigned PAD>
__global__ void transpose_tiled(ws::global_array<const float> in, ws::global_array<float> out, unsigned rows, unsigned cols) {
  __shared__ ws::shared_array<float, TILE * (TILE + PAD), "tile"> tile;  // float tile[TILE][TILE + PAD]
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y * (TILE + PAD) + threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x * (TILE + PAD) + threadIdx.y];
}

/* warpscope
title = "Transpose: naive, tiled, padded"
n = 64                             # the matrix is n x n
block = [32, 32]
grid = ["(n + 31) / 32", "(n + 31) / 32"]
args = ["in", "out", "n", "n"]

[[variants]]
id = "naive"
kernel = "transpose_naive"
summary = "reads rows, writes columns: 32 lines per store"

[[variants]]
id = "tiled"
kernel = "transpose_tiled<0>"
summary = "a shared tile: the column read is a 32-way bank conflict"

[[variants]]
id = "padded"
kernel = "transpose_tiled<1>"
summary = "tile[32][33]: the column read hits 32 banks"

[arrays.in]
type = "float"
size = "n * n"
fill = "iota"
row_length = "n"

[arrays.out]
type = "float"
size = "n * n"
row_length = "n"
expect = "in[(i % n) * n + i / n]"
*/
