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

#include "common/checks.h"
#include "common/variant_table.h"
#include "matrix/matadd_reference.h"
#include "matrix/matrix_check.h"
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
  template <class T>
  struct Pass {
    ws::Dim3 grid, block;
    ws::global_array<const T> A, B;
    ws::global_array<T> C;
    unsigned rows, cols;
  };

  template <class T>
  static auto rows() {
    using P = Pass<T>;
    return std::make_tuple(
        ws::row({.id = "row", .name = "threadIdx.x along a row",
                 .summary = "col = blockIdx.x*blockDim.x + threadIdx.x: a warp reads contiguous row pieces"},
                [](auto& be, const P& p) { return be.launch("matadd", p.grid, p.block, 0, matadd<T>, p.A, p.B, p.C, p.rows, p.cols); }),
        ws::row({.id = "col", .name = "threadIdx.x down a column",
                 .summary = "row from threadIdx.x: each lane of a warp in another row (stride cols): uncoalesced",
                 .grid = {.transposed = true}},
                [](auto& be, const P& p) {
                  return be.launch("matadd_swapped", p.grid, p.block, 0, matadd_swapped<T>, p.A, p.B, p.C, p.rows, p.cols);
                }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "matadd";
    s.title = "Matrix add with any 2D block shape";
    s.description =
        "C = A + B for a row-major rows x cols matrix (rows = n, cols param) with the block shape you type: "
        "compare --block 16,16 with --block 128,2 (seed 000). Variant col maps threadIdx.x to rows: uncoalesced.";
    s.source = "matrix/matadd.cuh";
    s.lecture = "seed 000 (measuring performance: dim3(16,16) vs dim3(128,2))";
    s.variants = ws::variant_specs(rows<float>());
    s.params = {
        {"cols", "columns (0 = n: square)", 0, 1 << 16, 0, {}},
    };
    s.default_n = 256;
    s.default_block = 256;
    s.block_2d = true;
    s.dtypes = {"float", "int"};
    s.arrays = 7;  // A, B, C on the host and the device, and the reference
    ws::matrix::rows_by_cols_spec(s, cols);
    return s;
  }

  static uint64_t cols(const ws::RunConfig& c) {
    const int64_t v = c.param("cols", 0);
    return v > 0 ? uint64_t(v) : c.n;
  }

  // The variant's grid over the rows x cols matrix.
  static ws::Dim3 grid(const ws::RunConfig& c) {
    return ws::find_variant(rows<float>(), c.variant)->grid.blocks_2d({c.block.x, c.block.y, 1}, c.n, cols(c));
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.z != 1) return "matrix add uses 2D blocks: block z must be 1";
    if (c.n * cols(c) >= (1ull << 32))
      return "the matrix has " + std::to_string(c.n * cols(c)) + " elements: the kernels index with 32-bit unsigned integers (rows * cols < 4294967296)";
    const uint64_t gy = grid(c).y;
    if (gy > 65535) return "the grid's y dimension would be " + std::to_string(gy) + " blocks, over the limit of 65535: use a taller block";
    return ws::check_variant(rows<float>(), c);
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint64_t nrows = c.n, ncols = cols(c);
    const ws::reference::matadd::Inputs<T> host = ws::reference::matadd::inputs<T>(nrows, ncols, c.seed);
    ws::global_array<T> A = be.upload("A", host.a), Bm = be.upload("B", host.b);
    ws::global_array<T> C = be.template alloc<T>("C", nrows * ncols);
    for (const auto& a : {A, Bm, C}) be.shape(a, uint32_t(ncols));
    const Pass<T> p{grid(c), {c.block.x, c.block.y, 1}, A, Bm, C, unsigned(nrows), unsigned(ncols)};
    if (!ws::launch_variant(rows<T>(), c.variant, be, p)) return;
    ws::matrix::check_exact(out, "C", be.download(C), ws::reference::matadd::sum(host.a, host.b), ncols);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "int") run_typed<int>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
