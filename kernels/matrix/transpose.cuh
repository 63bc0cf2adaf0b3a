// Matrix transpose (seed 001: memory coalescing, "Common bank conflict patterns (2D)": "pad the
// rows: add one float to the end of each row, stride becomes odd"). out = in^T for a rows x cols
// row-major matrix (any size: square, non-square, not multiples of the tile).
//
//   naive   : a warp reads a row of `in` (coalesced) but writes a column of `out`: 32 lanes,
//             32 different 128-byte lines per store.
//   tile    : the block stages a TILE x TILE tile in shared memory; reads and writes of global
//             memory are both row-wise (coalesced), but reading the tile by columns puts a warp's
//             32 lanes on ONE bank: tile[threadIdx.x][...] has stride TILE words -> 32-way
//             conflicts for TILE = 32.
//   padded  : tile[TILE][TILE + 1]: the column stride becomes 33 words (odd): conflict-free.
//             (With TILE 16 a warp holds two tile rows, and stride 17 puts lanes (0, y) and
//             (15, y+1) on one bank: still 2-way. The padding recipe assumes a warp = a tile row.)
//   rows    : the padded tile with TILE x TILE/4 threads (32 x 8 for TILE 32): each thread copies
//             4 elements, so a block moves the same tile with a quarter of the threads.
//   wide    : a padded tile twice as wide (64 x 64) moved by 32 x 16 threads: each thread copies
//             two columns of 4 rows, all its loads in flight at once, and every warp row is 256
//             contiguous bytes of `in` and of `out` instead of 128. A tile wholly inside the
//             matrix skips the per-element bounds tests. A transpose does no arithmetic: its speed
//             is how well it keeps DRAM streaming. 8192^2 floats on an H100, % of a device-to-
//             device cudaMemcpy: rows 93.6; the 64-wide tile by 32x8 threads 94.8, by 32x16
//             threads 94.6 with a test per element and 96.1 without; a float4 copy kernel 95.4.
//
// TILE is the block's x size (8, 16 or 32). The shared tile is a 1D array indexed
// [row * (TILE + PAD) + col], the slide's tile[row][col].
#pragma once

#include <string>

#include "common/checks.h"
#include "common/variant_table.h"
#include "matrix/matrix_check.h"
#include "matrix/transpose_reference.h"
#include "ws/kernel.cuh"

template <class T>
__global__ void transpose_naive(ws::global_array<const T> in, ws::global_array<T> out, unsigned rows, unsigned cols) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;  // column of in
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;  // row of in
  if (x < cols && y < rows)
    out[x * rows + y] = in[y * cols + x];  // read a row (coalesced), write a column (stride rows)
}

// Shared-memory tile; PAD = 0 (bank conflicts on the column read) or 1 (padded). Each thread
// copies TILE / ROWS elements (one for a TILE x TILE block, four for TILE x TILE/4). ROWS is the
// block's y size known when compiling (BLOCK_ROWS in NVIDIA's transpose sample): the loops then
// unroll and a thread's loads are all in flight at once. With blockDim.y at run time the loop
// stays a loop, and each load is waited for before the next is issued (the 32 x 8 block at
// 8192^2 on an H100: 74% of a device-to-device copy as a loop, 94% unrolled).
template <class T, unsigned TILE, unsigned PAD, unsigned ROWS = TILE>
__global__ void transpose_tile(ws::global_array<const T> in, ws::global_array<T> out, unsigned rows, unsigned cols) {
  __shared__ ws::shared_array<T, TILE * (TILE + PAD), "tile"> tile;  // T tile[TILE][TILE + PAD]
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows)
      tile[(threadIdx.y + j) * (TILE + PAD) + threadIdx.x] = in[(y + j) * cols + x];  // row-wise in, row-wise tile
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;  // the transposed block
  y = blockIdx.x * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols)
      out[(y + j) * rows + x] = tile[threadIdx.x * (TILE + PAD) + threadIdx.y + j];  // column of the tile
}

// A TILE x TILE padded tile moved by TILE/2 x ROWS threads: thread (tx, ty) copies columns tx and
// tx + TILE/2 of rows ty, ty + ROWS, ... Both loops unroll (TILE and ROWS are compile-time), so
// every load of a thread is issued before the first is waited for. `whole`: the tile lies inside
// the matrix (every tile but the right and bottom edges), so no element needs its own test.
template <class T, unsigned TILE, unsigned ROWS>
__global__ void transpose_wide(ws::global_array<const T> in, ws::global_array<T> out, unsigned rows, unsigned cols) {
  constexpr unsigned HALF = TILE / 2;  // blockDim.x
  __shared__ ws::shared_array<T, TILE * (TILE + 1), "tile"> tile;  // T tile[TILE][TILE + 1]
  const bool whole = (blockIdx.x + 1) * TILE <= cols && (blockIdx.y + 1) * TILE <= rows;
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    for (unsigned c = 0; c < TILE; c += HALF)
      if (whole || (x + c < cols && y + j < rows))
        tile[(threadIdx.y + j) * (TILE + 1) + threadIdx.x + c] = in[(y + j) * cols + x + c];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;  // the transposed block
  y = blockIdx.x * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    for (unsigned c = 0; c < TILE; c += HALF)
      if (whole || (x + c < rows && y + j < cols))
        out[(y + j) * rows + x + c] = tile[(threadIdx.x + c) * (TILE + 1) + threadIdx.y + j];
}

// ---------------------------------------------------------------------------------------------
struct TransposeEntry {
  template <class T>
  struct Pass {
    ws::Dim3 grid, block;
    ws::global_array<const T> in;
    ws::global_array<T> out;
    unsigned rows, cols;
  };

  // What a 1D --block T means for the tile variants: (T, T), or (T, T/4) for rows.
  static ws::Dim3 square(ws::Dim3 b) { return b.y == 1 ? ws::Dim3{b.x, b.x, b.z} : b; }
  static ws::Dim3 quarter(ws::Dim3 b) { return b.y == 1 ? ws::Dim3{b.x, std::max(1u, b.x / 4), b.z} : b; }

  // The tile is block.x wide: 8, 16 or 32.
  static std::string tile_width(const ws::Dim3& b) {
    if (b.x == 8 || b.x == 16 || b.x == 32) return {};
    return "the tile is block.x wide: block x must be 8, 16 or 32 (got " + std::to_string(b.x) + ")";
  }
  static std::string one_per_element(const ws::RunConfig& c) {
    const ws::Dim3 b = c.block;
    if (std::string why = tile_width(b); !why.empty()) return why;
    if (b.y == b.x) return {};
    return "variant " + c.variant + " uses one thread per tile element: block must be (" + std::to_string(b.x) + "," +
           std::to_string(b.x) + "), got " + ws::matrix::shape_text(b) + " (variant rows does 4 per thread)";
  }
  static std::string four_per_thread(const ws::RunConfig& c) {
    const ws::Dim3 b = c.block;
    if (std::string why = tile_width(b); !why.empty()) return why;
    if (b.y == b.x / 4) return {};
    return "variant rows uses TILE x TILE/4 threads (e.g. 32x8): block must be (" + std::to_string(b.x) + "," +
           std::to_string(b.x / 4) + "), got " + ws::matrix::shape_text(b);
  }
  static std::string eight_per_thread(const ws::RunConfig& c) {
    const ws::Dim3 b = c.block;
    if (std::string why = tile_width(b); !why.empty()) return why;
    if (b.y == b.x / 2) return {};
    return "variant wide moves a 2x by 2x tile with x by x/2 threads (e.g. 32x16 for 64x64): block must be (" +
           std::to_string(b.x) + "," + std::to_string(b.x / 2) + "), got " + ws::matrix::shape_text(b);
  }
  static ws::Dim3 half(ws::Dim3 b) { return b.y == 1 ? ws::Dim3{b.x, std::max(1u, b.x / 2), b.z} : b; }

  // transpose_tile<T, TILE, PAD, TILE / PER_THREAD> with TILE = the block's x (the block is
  // TILE x TILE / PER_THREAD: the variants' accepts() hold it to that).
  template <unsigned PAD, unsigned PER_THREAD, class T, class B>
  static bool launch_tile(B& be, const Pass<T>& p) {
    return ws::with_constant<8, 16, 32>(p.block.x, [&](auto tile) {
      constexpr unsigned TILE = decltype(tile)::value;
      return be.launch("transpose_tile<" + std::to_string(TILE) + (PAD ? ",padded>" : ">"), p.grid, p.block, 0,
                       transpose_tile<T, TILE, PAD, TILE / PER_THREAD>, p.in, p.out, p.rows, p.cols);
    });
  }

  // transpose_wide<T, 2 * block.x, block.y>: a tile twice the block's width (the block is x by x/2).
  template <class T, class B>
  static bool launch_wide(B& be, const Pass<T>& p) {
    return ws::with_constant<8, 16, 32>(p.block.x, [&](auto width) {
      constexpr unsigned TILE = 2 * decltype(width)::value;
      return be.launch("transpose_wide<" + std::to_string(TILE) + ">", p.grid, p.block, 0,
                       transpose_wide<T, TILE, TILE / 4>, p.in, p.out, p.rows, p.cols);
    });
  }

  template <class T>
  static auto rows() {
    using P = Pass<T>;
    return std::make_tuple(
        ws::row({.id = "naive", .name = "naive", .summary = "out[x*rows + y] = in[y*cols + x]: reads coalesced, writes stride rows"},
                [](auto& be, const P& p) {
                  return be.launch("transpose_naive", p.grid, p.block, 0, transpose_naive<T>, p.in, p.out, p.rows, p.cols);
                }),
        ws::row({.id = "tile", .name = "shared-memory tile",
                 .summary = "coalesced both ways; the tile's column read is TILE-way bank conflicted",
                 .accepts = one_per_element, .shape = square, .grid = {.square_tile = true}},
                [](auto& be, const P& p) { return launch_tile<0, 1>(be, p); }),
        ws::row({.id = "padded", .name = "padded tile [TILE][TILE+1]", .summary = "one extra word per tile row: odd stride, conflict-free",
                 .accepts = one_per_element, .shape = square, .grid = {.square_tile = true}},
                [](auto& be, const P& p) { return launch_tile<1, 1>(be, p); }),
        ws::row({.id = "rows", .name = "padded tile, TILE x TILE/4 threads",
                 .summary = "32x8 threads for a 32x32 tile: each thread copies 4 elements",
                 .accepts = four_per_thread, .shape = quarter, .grid = {.square_tile = true}},
                [](auto& be, const P& p) { return launch_tile<1, 4>(be, p); }),
        ws::row({.id = "wide", .name = "64x64 padded tile, 32x16 threads",
                 .summary = "256-byte rows both ways; each thread copies two columns of 4 rows, no per-element tests inside",
                 .accepts = eight_per_thread, .shape = half, .grid = {.per_thread = 2, .square_tile = true}},
                [](auto& be, const P& p) { return launch_wide(be, p); }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "transpose";
    s.title = "Matrix transpose: coalescing and the padded tile";
    s.description =
        "out = in^T (rows = n, cols param). Naive: uncoalesced writes. Shared tile: coalesced both ways, "
        "but the tile's column read is a TILE-way bank conflict. Padded tile [TILE][TILE+1]: conflict-free. "
        "Padded tile with TILE x TILE/4 threads: 4 elements per thread. TILE = block x (8, 16, 32); a 1D "
        "--block T means the variant's shape (T,T) or (T,T/4).";
    s.source = "matrix/transpose.cuh";
    s.lecture = "seed 001 (coalescing; common bank conflict patterns 2D: pad the rows)";
    s.variants = ws::variant_specs(rows<float>());
    s.params = {
        {"cols", "columns of the input (0 = n: square)", 0, 1 << 16, 0, {}},
    };
    s.default_n = 96;
    s.default_block = 32;
    s.block_2d = true;
    s.dtypes = {"float", "double"};
    ws::matrix::rows_by_cols_spec(s, cols);
    return s;
  }

  static uint64_t cols(const ws::RunConfig& c) {
    const int64_t v = c.param("cols", 0);
    return v > 0 ? uint64_t(v) : c.n;
  }

  // The launched block: a 1D --block T stands for the tile variants' own shape.
  static ws::Dim3 shape(const ws::RunConfig& c) { return ws::find_variant(rows<float>(), c.variant)->block_for(c.block); }

  static std::string validate(const ws::RunConfig& c) {
    const ws::Dim3 b = shape(c);
    if (b.z != 1) return "the transpose uses 2D blocks: block z must be 1";
    if (c.n * cols(c) >= (1ull << 32))
      return "the matrix has " + std::to_string(c.n * cols(c)) + " elements: the kernels index with 32-bit unsigned integers (rows * cols < 4294967296)";
    return ws::check_variant(rows<float>(), c);
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint64_t nrows = c.n, ncols = cols(c);
    const std::vector<T> host = ws::reference::transpose::input<T>(nrows, ncols, c.seed);
    ws::global_array<T> in = be.upload("in", host);
    ws::global_array<T> o = be.template alloc<T>("out", nrows * ncols);
    be.shape(in, uint32_t(ncols));  // the views draw both as the matrices they are
    be.shape(o, uint32_t(nrows));
    const ws::Variant v = *ws::find_variant(rows<T>(), c.variant);
    const ws::Dim3 blk = v.block_for(c.block);
    if (blk.y != c.block.y)
      out.notes.push_back("block " + ws::matrix::shape_text(blk) + " (the variant's shape for --block " + std::to_string(c.block.x) + ")");
    const Pass<T> p{v.grid.blocks_2d(blk, nrows, ncols), blk, in, o, unsigned(nrows), unsigned(ncols)};
    if (!ws::launch_variant(rows<T>(), c.variant, be, p)) return;
    ws::matrix::check_exact(out, "out", be.download(o), ws::reference::transpose::transposed(host, nrows, ncols), nrows);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "double") run_typed<double>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
