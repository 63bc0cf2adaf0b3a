// Matrix add with any 2D block shape (seed 000, "Measuring performance on the GPU": "experiment
// with a few different block layouts, e.g., dim3 threads(16,16) and dim3 threads(128,2); then
// compare performance"). C = A + B, rows x cols, row-major.
//
// A warp is 32 consecutive threads of the block in x-major order (threadIdx.x fastest). With
// threadIdx.x walking along a row, a warp of a (16,16) block covers two half rows (two 64-byte
// pieces), a warp of a (128,2) block one 128-byte piece of one row: the block-layout view shows
// each warp's footprint. The "col" variant maps threadIdx.x to rows instead: every lane of a warp
// lands in a different row (stride cols), the uncoalesced mistake.
#pragma once

#include <string>
#include <vector>

#include "matrix/matrix_check.h"
#include "common/checks.h"
#include "ws/run/entry.h"
#include "ws/kernel.cuh"

template <class T>
__global__ void matadd(ws::global_array<const T> A, ws::global_array<const T> B, ws::global_array<T> C,
                       unsigned rows, unsigned cols) {
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;  // threadIdx.x walks along a row
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols)
    C[row * cols + col] = A[row * cols + col] + B[row * cols + col];
}

template <class T>
__global__ void matadd_swapped(ws::global_array<const T> A, ws::global_array<const T> B, ws::global_array<T> C,
                               unsigned rows, unsigned cols) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;  // threadIdx.x walks down a column
  unsigned col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols)
    C[row * cols + col] = A[row * cols + col] + B[row * cols + col];
}

// ---------------------------------------------------------------------------------------------
struct MataddEntry {
  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "matadd";
    s.title = "Matrix add with any 2D block shape";
    s.description =
        "C = A + B for a row-major rows x cols matrix (rows = n, cols param) with the block shape you type: "
        "compare --block 16,16 with --block 128,2 (seed 000). Variant col maps threadIdx.x to rows: uncoalesced.";
    s.source = "matrix/matadd.cuh";
    s.lecture = "seed 000 (measuring performance: dim3(16,16) vs dim3(128,2))";
    s.variants = {
        {"row", "threadIdx.x along a row", "col = blockIdx.x*blockDim.x + threadIdx.x: a warp reads contiguous row pieces"},
        {"col", "threadIdx.x down a column", "row from threadIdx.x: each lane of a warp in another row (stride cols): uncoalesced"},
    };
    s.params = {
        {"cols", "columns (0 = n: square)", 0, 1 << 16, 0, {}},
    };
    s.default_n = 256;
    s.default_block = 256;
    s.block_2d = true;
    s.dtypes = {"float", "int"};
    return s;
  }

  static uint64_t cols(const ws::RunConfig& c) {
    const int64_t v = c.param("cols", 0);
    return v > 0 ? uint64_t(v) : c.n;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.z != 1) return "matrix add uses 2D blocks: block z must be 1";
    if (c.n * cols(c) > (1u << 24)) return "the matrix has over 16M elements: too large for the emulator demo (rows * cols <= 16777216)";
    const uint64_t gy = c.variant == "row" ? (c.n + c.block.y - 1) / c.block.y : (cols(c) + c.block.y - 1) / c.block.y;
    if (gy > 65535) return "the grid's y dimension would be " + std::to_string(gy) + " blocks, over the limit of 65535: use a taller block";
    return {};
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint64_t rows = c.n, ncols = cols(c);
    const bool is_int = std::is_integral_v<T>;
    const std::vector<T> ha = ws::random_input<T>(rows * ncols, c.seed, is_int ? 0 : -1, 9);
    const std::vector<T> hb = ws::random_input<T>(rows * ncols, c.seed + 77, is_int ? 0 : -1, 9);
    ws::global_array<T> A = be.upload("A", ha), Bm = be.upload("B", hb);
    ws::global_array<T> C = be.template alloc<T>("C", rows * ncols);
    const ws::Dim3 blk{c.block.x, c.block.y, 1};
    bool ok;
    if (c.variant == "row") {
      const ws::Dim3 grid{ws::matrix::div_up(ncols, blk.x), ws::matrix::div_up(rows, blk.y), 1};
      ok = be.launch("matadd", grid, blk, 0, matadd<T>, A, Bm, C, unsigned(rows), unsigned(ncols));
    } else {
      const ws::Dim3 grid{ws::matrix::div_up(rows, blk.x), ws::matrix::div_up(ncols, blk.y), 1};
      ok = be.launch("matadd_swapped", grid, blk, 0, matadd_swapped<T>, A, Bm, C, unsigned(rows), unsigned(ncols));
    }
    if (!ok) return;
    std::vector<T> want(rows * ncols);
    for (uint64_t i = 0; i < want.size(); ++i) want[i] = T(ha[i] + hb[i]);
    ws::matrix::check_exact(out, "C", be.download(C), want, ncols);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "int") run_typed<int>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
