// The matrix multiply ladder past the lecture's tiled kernel: each thread computes more than one
// element of P and keeps them in registers, so that every value read from shared memory is used
// for several multiply-adds. P = M N, M n x k, N k x m, row-major, sizes multiples of the tile
// (the variants' `accepts` says which).
//
//   blocktile-1d : a 64 x 64 tile of P per block of 512 threads, k in steps of BK = 8; each thread
//                  computes TM = 8 elements of one column. Per step a thread reads one value of N
//                  from shared memory (Bs[kk][col]) and uses it 8 times: 9 shared loads per 8
//                  multiply-adds instead of the tiled kernel's 2 per 1.
//   blocktile-2d : a 128 x 128 tile per block of 256 threads; each thread an 8 x 8 block of P
//                  (TM = TN = 8): 16 shared loads per 64 multiply-adds.
//   vectorized   : the same, 16 bytes a lane everywhere: M and N read as float4, the M tile
//                  stored transposed (As[kk][row]) so that a thread's 8 values of a column of M
//                  are 8 neighbouring words, read from shared memory as two float4 (as its 8 of N
//                  are), and P written as float4.
//   double-buffer: the vectorized kernel with two tiles of each in shared memory: the next step's
//                  M and N values are loaded from global memory into registers before the current
//                  tiles are used, and stored into the other tiles after: one barrier per step
//                  instead of two, and the global loads in flight while the multiply-adds run.
//   warp-tiled   : the double-buffered kernel with each warp owning a 64 x 32 piece of the tile
//                  and each thread's 8 x 8 results split into 2 x 2 blocks of 4 x 4, 32 rows and
//                  16 columns apart. A warp's float4 reads of the tiles then cover 8 neighbouring
//                  float4 of As and 4 of Bs: no bank conflict, the 4 wavefronts any 16-byte read
//                  of 32 lanes takes, where the 8 x 8 blocks side by side put a warp's 16 float4
//                  of Bs 32 bytes apart (8 wavefronts, a 2-way conflict). BK = 16 halves the
//                  barriers, and As rows are padded to BM + 4 words so that its transposed stores
//                  are 2-way, not 4-way.
//
// Worked example, blocktile-2d at n = k = m = 128: one block; thread t computes rows
// (t / 16) * 8 .. +7 and columns (t % 16) * 8 .. +7 of P. At kk, warp 0 (threads 0..31: row
// groups 0 and 1) reads As[(0..15)*8 + i][kk]: two distinct rows per instruction (broadcast),
// and Bs[kk][(0..15)*8 + j]: 16 words 8 apart, banks 0, 8, 16, 24 four times: 4-way.
#pragma once

#include <type_traits>

#include "ws/kernel.cuh"

namespace matmul_ladder {

inline constexpr unsigned kBK = 8;

// 64 x 64 tile, 512 threads, TM = 8 results in a column per thread.
template <class T>
__global__ void matmul_blocktile_1d(ws::global_array<const T> M, ws::global_array<const T> N, ws::global_array<T> P,
                                    unsigned n, unsigned k, unsigned m) {
  constexpr unsigned BM = 64, BN = 64, BK = kBK, TM = 8;
  __shared__ ws::shared_array<T, BM * BK, "As"> As;  // As[row][kk]
  __shared__ ws::shared_array<T, BK * BN, "Bs"> Bs;  // Bs[kk][col]
  const unsigned col = threadIdx.x % BN, row0 = (threadIdx.x / BN) * TM;
  const unsigned brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
  const unsigned a_r = threadIdx.x / BK, a_c = threadIdx.x % BK;  // one element of each tile per thread
  const unsigned b_r = threadIdx.x / BN, b_c = threadIdx.x % BN;
  T acc[TM] = {};
  for (unsigned t = 0; t < k; t += BK) {
    As[a_r * BK + a_c] = T(M[(brow + a_r) * k + t + a_c]);
    Bs[b_r * BN + b_c] = T(N[(t + b_r) * m + bcol + b_c]);
    __syncthreads();
    for (unsigned kk = 0; kk < BK; ++kk) {
      const T b = T(Bs[kk * BN + col]);  // one shared load, used TM times
      for (unsigned i = 0; i < TM; ++i) acc[i] += T(As[(row0 + i) * BK + kk]) * b;
    }
    __syncthreads();
  }
  (void)n;
  for (unsigned i = 0; i < TM; ++i) P[(brow + row0 + i) * m + bcol + col] = acc[i];
}

// 128 x 128 tile, 256 threads, an 8 x 8 block of P per thread. VEC: global loads of 16 bytes and
// the M tile transposed in shared memory.
template <class T, bool VEC>
__global__ void matmul_blocktile_2d(ws::global_array<const T> M, ws::global_array<const T> N, ws::global_array<T> P,
                                    unsigned n, unsigned k, unsigned m) {
  constexpr unsigned BM = 128, BN = 128, BK = kBK, TM = 8, TN = 8, THREADS = (BM / TM) * (BN / TN);
  // (16-byte aligned: the vectorized variant reads them as float4.)
  alignas(16) __shared__ ws::shared_array<T, BM * BK, "As"> As;  // As[row][kk], or As[kk][row] with VEC
  alignas(16) __shared__ ws::shared_array<T, BK * BN, "Bs"> Bs;  // Bs[kk][col]
  const unsigned row0 = (threadIdx.x / (BN / TN)) * TM, col0 = (threadIdx.x % (BN / TN)) * TN;
  const unsigned brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
  T acc[TM][TN] = {};
  T regM[TM], regN[TN];
  for (unsigned t = 0; t < k; t += BK) {
    if constexpr (VEC && std::is_same_v<T, float>) {
      // M: 128 rows x 8 columns = 256 float4, one per thread; stored as 4 columns of As^T.
      const unsigned r = threadIdx.x / (BK / 4), c = (threadIdx.x % (BK / 4)) * 4;
      const float4 a = M.template reinterpret<const float4>()[((brow + r) * k + t + c) / 4];
      As[(c + 0) * BM + r] = a.x;
      As[(c + 1) * BM + r] = a.y;
      As[(c + 2) * BM + r] = a.z;
      As[(c + 3) * BM + r] = a.w;
      // N: 8 rows x 128 columns = 256 float4, one per thread.
      const unsigned nr = threadIdx.x / (BN / 4), nc = (threadIdx.x % (BN / 4)) * 4;
      const float4 b = N.template reinterpret<const float4>()[((t + nr) * m + bcol + nc) / 4];
      ws::ptr_cast<float4>(Bs)[(nr * BN + nc) / 4] = b;  // one 16-byte store
    } else {
      for (unsigned e = threadIdx.x; e < BM * BK; e += THREADS)  // 4 of each tile per thread
        As[e] = T(M[(brow + e / BK) * k + t + e % BK]);
      for (unsigned e = threadIdx.x; e < BK * BN; e += THREADS)
        Bs[e] = T(N[(t + e / BN) * m + bcol + e % BN]);
    }
    __syncthreads();
    for (unsigned kk = 0; kk < BK; ++kk) {
      if constexpr (VEC && std::is_same_v<T, float>) {  // two 16-byte shared loads each
        const auto As4 = ws::ptr_cast<const float4>(As);
        const auto Bs4 = ws::ptr_cast<const float4>(Bs);
        for (unsigned q = 0; q < 2; ++q) {
          const float4 a = As4[(kk * BM + row0) / 4 + q];
          const float4 b = Bs4[(kk * BN + col0) / 4 + q];
          regM[4 * q] = a.x, regM[4 * q + 1] = a.y, regM[4 * q + 2] = a.z, regM[4 * q + 3] = a.w;
          regN[4 * q] = b.x, regN[4 * q + 1] = b.y, regN[4 * q + 2] = b.z, regN[4 * q + 3] = b.w;
        }
      } else {
        for (unsigned i = 0; i < TM; ++i) regM[i] = T(As[(row0 + i) * BK + kk]);
        for (unsigned j = 0; j < TN; ++j) regN[j] = T(Bs[kk * BN + col0 + j]);
      }
      for (unsigned i = 0; i < TM; ++i)
        for (unsigned j = 0; j < TN; ++j) acc[i][j] += regM[i] * regN[j];  // 64 multiply-adds per 16 loads
    }
    __syncthreads();
  }
  (void)n;
  if constexpr (VEC && std::is_same_v<T, float>) {
    const ws::global_array<float4> P4 = P.template reinterpret<float4>();
    for (unsigned i = 0; i < TM; ++i)
      for (unsigned q = 0; q < 2; ++q)
        P4[((brow + row0 + i) * m + bcol + col0) / 4 + q] =
            make_float4(acc[i][4 * q], acc[i][4 * q + 1], acc[i][4 * q + 2], acc[i][4 * q + 3]);
  } else {
    for (unsigned i = 0; i < TM; ++i)
      for (unsigned j = 0; j < TN; ++j) P[(brow + row0 + i) * m + bcol + col0 + j] = acc[i][j];
  }
}

// The vectorized kernel, double-buffered (float only: `accepts` refuses the rest).
template <class T>
__global__ void matmul_double_buffered(ws::global_array<const T> M, ws::global_array<const T> N, ws::global_array<T> P,
                                       unsigned n, unsigned k, unsigned m) {
  constexpr unsigned BM = 128, BN = 128, BK = kBK, TM = 8, TN = 8;
  alignas(16) __shared__ ws::shared_array<T, 2 * BM * BK, "As"> As;  // two As[kk][row] tiles
  alignas(16) __shared__ ws::shared_array<T, 2 * BK * BN, "Bs"> Bs;  // two Bs[kk][col] tiles
  (void)n;
  if constexpr (std::is_same_v<T, float>) {
    const unsigned row0 = (threadIdx.x / (BN / TN)) * TM, col0 = (threadIdx.x % (BN / TN)) * TN;
    const unsigned brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
    const unsigned r = threadIdx.x / (BK / 4), c = (threadIdx.x % (BK / 4)) * 4;    // this thread's float4 of M
    const unsigned nr = threadIdx.x / (BN / 4), nc = (threadIdx.x % (BN / 4)) * 4;  // and of N
    const ws::global_array<const float4> M4 = M.template reinterpret<const float4>();
    const ws::global_array<const float4> N4 = N.template reinterpret<const float4>();
    float4 a = M4[((brow + r) * k + c) / 4], b = N4[(nr * m + bcol + nc) / 4];
    auto store_tiles = [&](unsigned buf) {
      As[buf * BM * BK + (c + 0) * BM + r] = a.x;
      As[buf * BM * BK + (c + 1) * BM + r] = a.y;
      As[buf * BM * BK + (c + 2) * BM + r] = a.z;
      As[buf * BM * BK + (c + 3) * BM + r] = a.w;
      ws::ptr_cast<float4>(Bs)[(buf * BK * BN + nr * BN + nc) / 4] = b;
    };
    store_tiles(0);
    __syncthreads();
    float acc[TM][TN] = {};
    float regM[TM], regN[TN];
    const auto As4 = ws::ptr_cast<const float4>(As);
    const auto Bs4 = ws::ptr_cast<const float4>(Bs);
    for (unsigned t = 0, buf = 0; t < k; t += BK, buf ^= 1) {
      const bool next = t + BK < k;
      if (next) {  // the next step's values, in flight while this step multiplies
        a = M4[((brow + r) * k + t + BK + c) / 4];
        b = N4[((t + BK + nr) * m + bcol + nc) / 4];
      }
      for (unsigned kk = 0; kk < BK; ++kk) {
        for (unsigned q = 0; q < 2; ++q) {
          const float4 x = As4[(buf * BM * BK + kk * BM + row0) / 4 + q];
          const float4 y = Bs4[(buf * BK * BN + kk * BN + col0) / 4 + q];
          regM[4 * q] = x.x, regM[4 * q + 1] = x.y, regM[4 * q + 2] = x.z, regM[4 * q + 3] = x.w;
          regN[4 * q] = y.x, regN[4 * q + 1] = y.y, regN[4 * q + 2] = y.z, regN[4 * q + 3] = y.w;
        }
        for (unsigned i = 0; i < TM; ++i)
          for (unsigned j = 0; j < TN; ++j) acc[i][j] += regM[i] * regN[j];
      }
      if (next) store_tiles(buf ^ 1);  // (the other tiles: nobody reads them in this step)
      __syncthreads();
    }
    const ws::global_array<float4> P4 = P.template reinterpret<float4>();
    for (unsigned i = 0; i < TM; ++i)
      for (unsigned q = 0; q < 2; ++q)
        P4[((brow + row0 + i) * m + bcol + col0) / 4 + q] =
            make_float4(acc[i][4 * q], acc[i][4 * q + 1], acc[i][4 * q + 2], acc[i][4 * q + 3]);
  }
}

// nvcc unrolls the multiply-add loops fully where asked (the emulator runs them as written).
#if defined(__CUDACC__)
#define WS_MATMUL_UNROLL _Pragma("unroll")
#else
#define WS_MATMUL_UNROLL
#endif

// Warp tiling (float only: `accepts` refuses the rest). Thread t of warp w: the warp's piece is
// rows (w / 4) * 64 .. +63 and columns (w % 4) * 32 .. +31 of the block's tile; lane l = 4 ty + tx
// computes rows ty * 4 + {0..3, 32..35} and columns tx * 4 + {0..3, 16..19} of that piece.
// BK (16 or 8) is the depth of a tile step; BLOCKS_PER_SM > 1 asks nvcc to fit that many blocks
// on an SM (__launch_bounds__: 128 registers a thread for 2), which the "two-blocks" rung uses.
template <class T, unsigned BK = 16, unsigned BLOCKS_PER_SM = 1>
__global__ void __launch_bounds__(256, BLOCKS_PER_SM)
    matmul_warp_tiled(ws::global_array<const T> M, ws::global_array<const T> N, ws::global_array<T> P, unsigned n,
                      unsigned k, unsigned m) {
  static_assert(BK == 8 || BK == 16, "a step moves one or two float4 of each tile a thread");
  constexpr unsigned BM = 128, BN = 128, AS = BM + 4, H = BK / 8;  // AS: As row stride (words)
  alignas(16) __shared__ ws::shared_array<T, 2 * BK * AS, "As"> As;  // two As[kk][row] tiles
  alignas(16) __shared__ ws::shared_array<T, 2 * BK * BN, "Bs"> Bs;  // two Bs[kk][col] tiles
  (void)n;
  if constexpr (std::is_same_v<T, float>) {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned row0 = (warp / 4) * 64 + (lane / 4) * 4, col0 = (warp % 4) * 32 + (lane % 4) * 4;
    const unsigned brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
    const ws::global_array<const float4> M4 = M.template reinterpret<const float4>();
    const ws::global_array<const float4> N4 = N.template reinterpret<const float4>();
    // Each thread moves H float4 of each tile per step: M's rows r (and r + 64) at column c,
    // N's rows nr (and nr + 8) at column nc.
    const unsigned r = threadIdx.x / (BK / 4), c = (threadIdx.x % (BK / 4)) * 4;
    const unsigned nr = threadIdx.x / (BN / 4), nc = (threadIdx.x % (BN / 4)) * 4;
    float4 a[H], b[H];
    auto load_tiles = [&](unsigned t) {
      for (unsigned h = 0; h < H; ++h) {
        a[h] = M4[((brow + r + h * 64) * k + t + c) / 4];
        b[h] = N4[((t + nr + h * 8) * m + bcol + nc) / 4];
      }
    };
    auto store_tiles = [&](unsigned buf) {
      for (unsigned h = 0; h < H; ++h) {
        const unsigned at = buf * BK * AS + c * AS + r + h * 64;
        As[at] = a[h].x;
        As[at + AS] = a[h].y;
        As[at + 2 * AS] = a[h].z;
        As[at + 3 * AS] = a[h].w;
        ws::ptr_cast<float4>(Bs)[(buf * BK * BN + (nr + h * 8) * BN + nc) / 4] = b[h];
      }
    };
    load_tiles(0);
    store_tiles(0);
    __syncthreads();
    float acc[8][8] = {};
    float regM[8], regN[8];
    const auto As4 = ws::ptr_cast<const float4>(As);
    const auto Bs4 = ws::ptr_cast<const float4>(Bs);
    for (unsigned t = 0, buf = 0; t < k; t += BK, buf ^= 1) {
      const bool next = t + BK < k;
      if (next) load_tiles(t + BK);  // in flight while this step multiplies
      WS_MATMUL_UNROLL
      for (unsigned kk = 0; kk < BK; ++kk) {
        WS_MATMUL_UNROLL
        for (unsigned q = 0; q < 2; ++q) {  // q: the block 32 rows / 16 columns further
          const float4 x = As4[(buf * BK * AS + kk * AS + row0 + q * 32) / 4];
          const float4 y = Bs4[(buf * BK * BN + kk * BN + col0 + q * 16) / 4];
          regM[4 * q] = x.x, regM[4 * q + 1] = x.y, regM[4 * q + 2] = x.z, regM[4 * q + 3] = x.w;
          regN[4 * q] = y.x, regN[4 * q + 1] = y.y, regN[4 * q + 2] = y.z, regN[4 * q + 3] = y.w;
        }
        WS_MATMUL_UNROLL
        for (unsigned i = 0; i < 8; ++i)
          WS_MATMUL_UNROLL
          for (unsigned j = 0; j < 8; ++j) acc[i][j] += regM[i] * regN[j];
      }
      if (next) store_tiles(buf ^ 1);  // (the other tiles: nobody reads them in this step)
      __syncthreads();
    }
    const ws::global_array<float4> P4 = P.template reinterpret<float4>();
    for (unsigned i = 0; i < 8; ++i)
      for (unsigned q = 0; q < 2; ++q) {
        const unsigned row = brow + row0 + (i / 4) * 32 + i % 4, col = bcol + col0 + q * 16;
        P4[(row * m + col) / 4] = make_float4(acc[i][4 * q], acc[i][4 * q + 1], acc[i][4 * q + 2], acc[i][4 * q + 3]);
      }
  }
}

}  // namespace matmul_ladder
