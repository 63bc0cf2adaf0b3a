// Matrix multiply P = M N (seed 001, "Tiled multiply using thread blocks", "Shared memory bank
// conflicts", "What about matrix multiplication?"). M is n x k, N is k x m, P is n x m, row-major;
// any sizes (tiles past the edge are filled with zeros, outputs past the edge not written).
//
//   naive            : each thread walks a row of M and a column of N in global memory.
//   tiled            : "one block computes one square sub-matrix Psub of size BLOCK_SIZE; one thread
//                      computes one element of Psub". In the inner loop a warp reads Msub[ty][kk]
//                      (every lane the same word: broadcast) and Nsub[kk][tx] (neighbouring words):
//                      no bank conflicts, as the lecture says.
//   tiled-transposed : the same, with the N tile stored transposed (NsubT[tx][ty]) and read by
//                      columns, NsubT[tx][kk]: the "common bank conflict pattern (2D)": for
//                      BLOCK_SIZE 32 all 32 lanes hit one bank (32-way), for 16 it is 8-way.
//   padded           : the 2D-padding remedy: NsubT[BLOCK_SIZE][BLOCK_SIZE + 1], "add one float
//                      to the end of each row, stride becomes odd": conflict-free again.
//
// BLOCK_SIZE is the block's side: --block 16 (or 16,16) runs 16 x 16 tiles; 8, 16 or 32.
#pragma once

#include <string>
#include <vector>
#if defined(__CUDACC__)
#include "ws/gpu/cublas.h"
#endif

#include "common/checks.h"
#include "common/variant_table.h"
#include "matrix/matmul_ladder.cuh"
#include "matrix/matmul_reference.h"
#include "matrix/matrix_check.h"
#include "ws/kernel.cuh"

template <class T>
__global__ void matmul_naive(ws::global_array<const T> M, ws::global_array<const T> N, ws::global_array<T> P,
                             unsigned n, unsigned k, unsigned m) {
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < m) {
    T sum = 0;
    for (unsigned kk = 0; kk < k; ++kk)
      sum += T(M[row * k + kk]) * T(N[kk * m + col]);
    P[row * m + col] = sum;
  }
}

template <class T, unsigned BLOCK_SIZE>
__global__ void matmul_tiled(ws::global_array<const T> M, ws::global_array<const T> N, ws::global_array<T> P,
                             unsigned n, unsigned k, unsigned m) {
  __shared__ ws::shared_array<T, BLOCK_SIZE * BLOCK_SIZE, "Msub"> Msub;  // Msub[ty][tx]
  __shared__ ws::shared_array<T, BLOCK_SIZE * BLOCK_SIZE, "Nsub"> Nsub;  // Nsub[ty][tx]
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * BLOCK_SIZE + ty;
  unsigned col = blockIdx.x * BLOCK_SIZE + tx;
  T sum = 0;
  for (unsigned t = 0; t < (k + BLOCK_SIZE - 1) / BLOCK_SIZE; ++t) {
    // Each thread loads one element of each tile (zero past the edges).
    unsigned mc = t * BLOCK_SIZE + tx, nr = t * BLOCK_SIZE + ty;
    Msub[ty * BLOCK_SIZE + tx] = row < n && mc < k ? T(M[row * k + mc]) : T(0);
    Nsub[ty * BLOCK_SIZE + tx] = nr < k && col < m ? T(N[nr * m + col]) : T(0);
    __syncthreads();  // the tiles are complete
    for (unsigned kk = 0; kk < BLOCK_SIZE; ++kk)
      sum += T(Msub[ty * BLOCK_SIZE + kk]) * T(Nsub[kk * BLOCK_SIZE + tx]);  // broadcast, then neighbours
    __syncthreads();  // everyone is done with the tiles before they are overwritten
  }
  if (row < n && col < m) P[row * m + col] = sum;
}

// The N tile kept transposed: NsubT[tx][ty] = N[..][col]; the inner loop reads NsubT[tx][kk], a
// column of the tile. PAD = 0 (bank conflicts) or 1 (the padded remedy).
template <class T, unsigned BLOCK_SIZE, unsigned PAD>
__global__ void matmul_tiled_transposed(ws::global_array<const T> M, ws::global_array<const T> N, ws::global_array<T> P,
                                        unsigned n, unsigned k, unsigned m) {
  __shared__ ws::shared_array<T, BLOCK_SIZE * BLOCK_SIZE, "Msub"> Msub;
  __shared__ ws::shared_array<T, BLOCK_SIZE * (BLOCK_SIZE + PAD), "NsubT"> NsubT;  // NsubT[tx][ty], row stride BLOCK_SIZE + PAD
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * BLOCK_SIZE + ty;
  unsigned col = blockIdx.x * BLOCK_SIZE + tx;
  T sum = 0;
  for (unsigned t = 0; t < (k + BLOCK_SIZE - 1) / BLOCK_SIZE; ++t) {
    unsigned mc = t * BLOCK_SIZE + tx, nr = t * BLOCK_SIZE + ty;
    Msub[ty * BLOCK_SIZE + tx] = row < n && mc < k ? T(M[row * k + mc]) : T(0);
    NsubT[tx * (BLOCK_SIZE + PAD) + ty] = nr < k && col < m ? T(N[nr * m + col]) : T(0);  // a column of NsubT
    __syncthreads();
    for (unsigned kk = 0; kk < BLOCK_SIZE; ++kk)
      sum += T(Msub[ty * BLOCK_SIZE + kk]) * T(NsubT[tx * (BLOCK_SIZE + PAD) + kk]);  // stride BLOCK_SIZE + PAD
    __syncthreads();
  }
  if (row < n && col < m) P[row * m + col] = sum;
}

// ---------------------------------------------------------------------------------------------
struct MatmulEntry {
  // Up to this many multiply-adds the CPU reference checks every element (and the emulator runs).
  static constexpr uint64_t kWholeReference = 1ull << 27;
  template <class T>
  struct Pass {
    ws::Dim3 grid, block;
    ws::global_array<const T> M, N;
    ws::global_array<T> P;
    unsigned n, k, m;
  };

  // --block 16 means 16 x 16, for every variant.
  static ws::Dim3 square(ws::Dim3 b) { return b.y == 1 ? ws::Dim3{b.x, b.x, b.z} : b; }

  static std::string cublas_float(const ws::RunConfig& c) {
    if (c.dtype == "float") return {};
    return "cuBLAS multiplies float matrices (SGEMM): dtype " + c.dtype + " has no cuBLAS product";
  }

  static std::string square_tile(const ws::RunConfig& c) {
    const ws::Dim3 b = c.block;
    if (b.x == b.y && (b.x == 8 || b.x == 16 || b.x == 32)) return {};
    return "the tiled variants use square BLOCK_SIZE x BLOCK_SIZE blocks with BLOCK_SIZE 8, 16 or 32 (got " +
           ws::matrix::shape_text(b) + ")";
  }

  // The ladder's blocks are fixed by their tiles (threads = tile elements / elements per thread).
  static ws::Dim3 threads_512(ws::Dim3) { return {512, 1, 1}; }
  static ws::Dim3 threads_256(ws::Dim3) { return {256, 1, 1}; }
  static std::string tile_fits(const ws::RunConfig& c, uint64_t tile, uint64_t bk = matmul_ladder::kBK) {
    const uint64_t k = dim(c, "k"), m = dim(c, "m");
    if (c.n % tile == 0 && m % tile == 0 && k % bk == 0) return {};
    return "this variant computes " + std::to_string(tile) + " x " + std::to_string(tile) + " tiles of P with k in steps of " +
           std::to_string(bk) + ": n and m must be multiples of " + std::to_string(tile) + " and k of " + std::to_string(bk) +
           " (got n = " + std::to_string(c.n) + ", k = " + std::to_string(k) + ", m = " + std::to_string(m) + ")";
  }
  static std::string tile_64(const ws::RunConfig& c) { return tile_fits(c, 64); }
  static std::string tile_128(const ws::RunConfig& c) { return tile_fits(c, 128); }
  static std::string tile_128_float(const ws::RunConfig& c) {
    if (c.dtype != "float") return "the vectorized variant reads float4: dtype float only (got " + c.dtype + ")";
    return tile_fits(c, 128);
  }
  static std::string warp_tile_float(const ws::RunConfig& c) {
    if (c.dtype != "float") return "the warp-tiled variant reads float4: dtype float only (got " + c.dtype + ")";
    return tile_fits(c, 128, 16);
  }
  static std::string two_blocks_float(const ws::RunConfig& c) {
    if (c.dtype != "float") return "the two-blocks variant reads float4: dtype float only (got " + c.dtype + ")";
    return tile_fits(c, 128, 8);
  }

  template <class T>
  static auto rows() {
    using P = Pass<T>;
    return std::make_tuple(
        ws::row({.id = "naive", .name = "naive", .summary = "each thread reads a row of M and a column of N from global memory",
                 .shape = square},
                [](auto& be, const P& p) {
                  return be.launch("matmul_naive", p.grid, p.block, 0, matmul_naive<T>, p.M, p.N, p.P, p.n, p.k, p.m);
                }),
        ws::row({.id = "tiled", .name = "shared-memory tiles (BLOCK_SIZE)",
                 .summary = "Msub[ty][kk] broadcast, Nsub[kk][tx] neighbours: conflict-free", .accepts = square_tile, .shape = square},
                [](auto& be, const P& p) {
                  return ws::with_constant<8, 16, 32>(p.block.x, [&](auto bs) {  // BLOCK_SIZE = the block's side
                    constexpr unsigned BS = decltype(bs)::value;
                    return be.launch("matmul_tiled<" + std::to_string(BS) + ">", p.grid, p.block, 0, matmul_tiled<T, BS>, p.M, p.N,
                                     p.P, p.n, p.k, p.m);
                  });
                }),
        ws::row({.id = "tiled-transposed", .name = "tiles with N stored transposed",
                 .summary = "NsubT[tx][kk]: a column of the tile, BLOCK_SIZE words apart: bank conflicts", .accepts = square_tile,
                 .shape = square},
                [](auto& be, const P& p) {
                  return ws::with_constant<8, 16, 32>(p.block.x, [&](auto bs) {
                    constexpr unsigned BS = decltype(bs)::value;
                    return be.launch("matmul_tiled_transposed<" + std::to_string(BS) + ">", p.grid, p.block, 0,
                                     matmul_tiled_transposed<T, BS, 0>, p.M, p.N, p.P, p.n, p.k, p.m);
                  });
                }),
        ws::row({.id = "padded", .name = "transposed tile padded to BLOCK_SIZE + 1",
                 .summary = "one extra word per row: odd stride, conflict-free", .accepts = square_tile, .shape = square},
                [](auto& be, const P& p) {
                  return ws::with_constant<8, 16, 32>(p.block.x, [&](auto bs) {
                    constexpr unsigned BS = decltype(bs)::value;
                    return be.launch("matmul_tiled_padded<" + std::to_string(BS) + ">", p.grid, p.block, 0,
                                     matmul_tiled_transposed<T, BS, 1>, p.M, p.N, p.P, p.n, p.k, p.m);
                  });
                }),
        ws::row({.id = "blocktile-1d", .name = "64 x 64 tiles, 8 results per thread",
                 .summary = "each thread computes 8 elements of a column: one Bs value read per 8 multiply-adds "
                            "(512 threads whatever --block)",
                 .accepts = tile_64, .shape = threads_512},
                [](auto& be, const P& p) {
                  const ws::Dim3 grid{p.m / 64, p.n / 64, 1};
                  return be.launch("matmul_blocktile_1d", grid, p.block, 0, matmul_ladder::matmul_blocktile_1d<T>, p.M,
                                   p.N, p.P, p.n, p.k, p.m);
                }),
        ws::row({.id = "blocktile-2d", .name = "128 x 128 tiles, 8 x 8 results per thread",
                 .summary = "each thread computes an 8 x 8 block of P from 8 + 8 values in registers: 16 shared "
                            "loads per 64 multiply-adds (256 threads whatever --block)",
                 .accepts = tile_128, .shape = threads_256},
                [](auto& be, const P& p) {
                  const ws::Dim3 grid{p.m / 128, p.n / 128, 1};
                  return be.launch("matmul_blocktile_2d", grid, p.block, 0, matmul_ladder::matmul_blocktile_2d<T, false>,
                                   p.M, p.N, p.P, p.n, p.k, p.m);
                }),
        ws::row({.id = "vectorized", .name = "2-D blocking, float4 loads, M tile transposed",
                 .summary = "16-byte global loads; As[kk][row] makes a thread's 8 values of M neighbouring words "
                            "(256 threads whatever --block)",
                 .accepts = tile_128_float, .shape = threads_256},
                [](auto& be, const P& p) {
                  if constexpr (std::is_same_v<T, float>) {
                    const ws::Dim3 grid{p.m / 128, p.n / 128, 1};
                    return be.launch("matmul_vectorized", grid, p.block, 0, matmul_ladder::matmul_blocktile_2d<T, true>,
                                     p.M, p.N, p.P, p.n, p.k, p.m);
                  }
                  (void)be, (void)p;
                  return false;  // float only (tile_128_float)
                }),
        ws::row({.id = "double-buffer", .name = "vectorized, two tiles: loads in flight while it multiplies",
                 .summary = "the next step's M and N loaded into registers before this step's multiply-adds, stored "
                            "into the other tiles after: one barrier per step (256 threads whatever --block)",
                 .accepts = tile_128_float, .shape = threads_256},
                [](auto& be, const P& p) {
                  const ws::Dim3 grid{p.m / 128, p.n / 128, 1};
                  return be.launch("matmul_double_buffered", grid, p.block, 0, matmul_ladder::matmul_double_buffered<T>,
                                   p.M, p.N, p.P, p.n, p.k, p.m);
                }),
        ws::row({.id = "warp-tiled", .name = "double-buffered, each warp a 64 x 32 piece: conflict-free tile reads",
                 .summary = "a thread's 8 x 8 results as 2 x 2 blocks of 4 x 4 spread over its warp's piece: no float4 "
                            "read of a tile conflicts; BK = 16 (256 threads whatever --block)",
                 .accepts = warp_tile_float, .shape = threads_256},
                [](auto& be, const P& p) {
                  const ws::Dim3 grid{p.m / 128, p.n / 128, 1};
                  return be.launch("matmul_warp_tiled", grid, p.block, 0, matmul_ladder::matmul_warp_tiled<T>, p.M,
                                   p.N, p.P, p.n, p.k, p.m);
                }),
        ws::row({.id = "two-blocks", .name = "warp-tiled, two blocks an SM: registers capped at 128",
                 .summary = "the warp-tiled kernel with __launch_bounds__(256, 2) and BK = 8: nvcc keeps a thread within "
                            "128 registers, so two blocks share an SM and each hides the other's barrier and load "
                            "waits (256 threads whatever --block)",
                 .accepts = two_blocks_float, .shape = threads_256},
                [](auto& be, const P& p) {
                  const ws::Dim3 grid{p.m / 128, p.n / 128, 1};
                  return be.launch("matmul_two_blocks", grid, p.block, 0, matmul_ladder::matmul_warp_tiled<T, 8, 2>,
                                   p.M, p.N, p.P, p.n, p.k, p.m);
                }),
        ws::row({.id = "cublas", .name = "cuBLAS SGEMM (reference)",
                 .summary = "NVIDIA's library matrix multiply that ships with CUDA: the bar the tiled kernels are held against",
                 .gpu_only = true, .accepts = cublas_float},
                [](auto& be, const P& p) {
#if defined(__CUDACC__)
                  if constexpr (std::is_same_v<T, float>) {
                    if (std::string why; !ws::gpu::cublas_ready(why)) {
                      be.result().refused = "the cuBLAS reference cannot run: " + why;
                      return false;
                    }
                    return be.call("cublasSgemm", [M = p.M, N = p.N, P = p.P, n = int(p.n), k = int(p.k), m = int(p.m)]() {
                      return ws::gpu::sgemm_row_major(M.data(), N.data(), P.data(), n, k, m);
                    });
                  }
#endif
                  (void)be, (void)p;
                  return false;  // gpu_only; float only (cublas_float)
                }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "matmul";
    s.title = "Matrix multiply: naive, shared-memory tiles, the padding remedy";
    s.description =
        "P = M N with M n x k and N k x m (k, m params; 0 = n). Tiled: BLOCK_SIZE x BLOCK_SIZE tiles "
        "in shared memory, BLOCK_SIZE = the block's side (8, 16, 32); Msub is read as a broadcast, Nsub "
        "by neighbouring words. Tiled-transposed keeps the N tile by columns (bank conflicts); padded "
        "adds one word per tile row (conflict-free).";
    s.source = "matrix/matmul.cuh";
    s.lecture = "seed 001 (tiled multiply, shared memory bank conflicts, pad the rows)";
    s.variants = ws::variant_specs(rows<float>());
    s.params = {
        {"k", "columns of M = rows of N (0 = n)", 0, 1 << 14, 0, {}},
        {"m", "columns of N and P (0 = n)", 0, 1 << 14, 0, {}},
    };
    s.default_n = 64;
    s.default_block = 16;
    s.block_2d = true;
    s.dtypes = {"float", "int"};
    s.arrays = 3;  // M, N, P on the host and the device: n x k, k x m, n x m, the estimate takes the largest
    s.elements = [](const ws::RunConfig& c) { return std::max({c.n * dim(c, "k"), dim(c, "k") * dim(c, "m"), c.n * dim(c, "m")}) * 2; };
    s.emulator_limit = [](const ws::RunConfig& c) -> std::string {
      const uint64_t work = c.n * dim(c, "k") * dim(c, "m");
      if (work <= kWholeReference) return {};
      return "n*k*m = " + std::to_string(work) + " multiply-adds: too many for the emulator (<= 134217728)";
    };
    s.timing.n = 4096;
    s.timing.sizes = {1024, 2048, 4096, 8192};
    s.timing.matrix = true;
    s.timing.params = {{"k", 0}, {"m", 0}};
    s.timing.why = "square matrices";
    s.timing.ceiling = ws::TimingSpec::Ceiling::Fp32;
    s.timing.flops = [](const ws::RunConfig& c) { return 2.0 * double(c.n) * double(dim(c, "k")) * double(dim(c, "m")); };
    s.timing.reference = "cublas";
    return s;
  }

  static uint64_t dim(const ws::RunConfig& c, const char* p) {
    const int64_t v = c.param(p, 0);
    return v > 0 ? uint64_t(v) : c.n;
  }

  static ws::Dim3 shape(const ws::RunConfig& c) { return ws::find_variant(rows<float>(), c.variant)->block_for(c.block); }

  static std::string validate(const ws::RunConfig& c) {
    const ws::Dim3 b = shape(c);
    if (b.z != 1) return "matrix multiply uses 2D blocks: block z must be 1";
    if (b.count() > 1024) return "block " + ws::matrix::shape_text(b) + " has over 1024 threads";
    const uint64_t k = dim(c, "k"), m = dim(c, "m");
    if (std::max({c.n * k, k * m, c.n * m}) >= (1ull << 32))
      return "a matrix would have over 4294967295 elements: the kernels index with 32-bit unsigned integers";
    if (c.n > 65535ull * b.y) return "the grid's y dimension would be over 65535 blocks: use a smaller n";
    if (std::string why = ws::check_variant(rows<float>(), c); !why.empty()) return why;
    if (c.dtype == "int" && k > 10000) return "int products of 0..9 summed over k > 10000 could overflow: use float";
    return {};
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint64_t n = c.n, k = dim(c, "k"), m = dim(c, "m");
    const ws::reference::matmul::Inputs<T> host = ws::reference::matmul::inputs<T>(n, k, m, c.seed);
    ws::global_array<T> M = be.upload("M", host.m), N = be.upload("N", host.n);
    ws::global_array<T> P = be.template alloc<T>("P", n * m);
    be.shape(M, uint32_t(k));  // n x k, k x m, n x m
    be.shape(N, uint32_t(m));
    be.shape(P, uint32_t(m));
    const ws::Variant v = *ws::find_variant(rows<T>(), c.variant);
    const ws::Dim3 blk = v.block_for(c.block);
    if (blk.y != c.block.y)
      out.notes.push_back("block " + ws::matrix::shape_text(blk) + " (--block " + std::to_string(c.block.x) + " means a square block)");
    const Pass<T> p{v.grid.blocks_2d(blk, n, m), blk, M, N, P, unsigned(n), unsigned(k), unsigned(m)};
    if (!ws::launch_variant(rows<T>(), c.variant, be, p)) return;
    // Past the emulator's sizes the CPU checks a sample of P (a 4096^3 product takes it minutes).
    const std::vector<uint64_t> at = n * k * m <= kWholeReference ? std::vector<uint64_t>{} : ws::matrix::sample_positions(n, m);
    const ws::reference::matmul::Product ref = ws::reference::matmul::product(host.m, host.n, n, k, m, at);
    ws::matrix::check_products(out, "P", be.download(P), ref.value, ref.abs, m, k, at);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "int") run_typed<int>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
