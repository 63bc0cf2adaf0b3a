// The shortcut problem (seed 004, "Programming Parallel Computers", chapter 4): given an n x n
// matrix d of edge costs, r[i][j] = min over k of d[i][k] + d[k][j] -- a matrix product in the
// (min, +) semiring.
//
//   V0 : one thread per output. Thread (x, y) computes r[i][j] with i from threadIdx.x, so the
//        lanes of a warp read d[n*i + k] with i = 0..15: a stride of n floats, a different cache
//        line per lane.
//   V1 : a preprocessing kernel writes the transpose t = d^T after d; the main kernel reads
//        t[n*k + i] instead of d[n*i + k]: neighbouring lanes read neighbouring words (coalesced).
//   V2 : "reuse data in registers": 8 x 8 threads per block, each computing 8 x 8 outputs kept in
//        registers (v[8][8]), so a block computes a 64 x 64 region; per k a thread reads 8 values
//        of t and 8 of d and does 64 min-plus operations. The padding kernel (64 threads per row)
//        copies d and its transpose into a 2 x nn x nn buffer, nn = n rounded up to 64, padded with
//        +infinity, so the main kernel needs no edge tests inside its loops. In a warp the lanes
//        read t[0..7] four times and d[0..3] eight times: "the blue dots always span continuous
//        regions".
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "common/checks.h"
#include "common/variant_table.h"
#include "matrix/matrix_check.h"
#include "matrix/shortcut_reference.h"
#include "ws/kernel.cuh"

// ---- V0 -----------------------------------------------------------------------------------
__global__ void shortcut_v0(ws::global_array<float> r, ws::global_array<const float> d, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= n || j >= n) return;
  float v = HUGE_VALF;
  for (int k = 0; k < n; ++k) {
    float x = d[n * i + k];  // lanes: i = 0, 1, 2, ... -> n floats apart
    float y = d[n * k + j];
    float z = x + y;
    v = min(v, z);
  }
  r[n * i + j] = v;
}

// ---- V1 -----------------------------------------------------------------------------------
// Preprocessing: d[0 .. n*n) = the input, d[n*n .. 2*n*n) = its transpose t.
__global__ void shortcut_v1_transpose(ws::global_array<const float> r, ws::global_array<float> d, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= n || j >= n) return;
  float v = r[n * j + i];  // lanes read a row of the input (i consecutive)
  d[n * j + i] = v;
  d[n * n + n * i + j] = v;  // t[i][j] = d[j][i]
}

__global__ void shortcut_v1(ws::global_array<float> r, ws::global_array<const float> d, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= n || j >= n) return;
  // const float* t = d + n * n;
  float v = HUGE_VALF;
  for (int k = 0; k < n; ++k) {
    float x = d[n * n + n * k + i];  // t[n*k + i]: lanes i = 0, 1, 2, ... -> neighbouring words
    float y = d[n * k + j];
    float z = x + y;
    v = min(v, z);
  }
  r[n * i + j] = v;
}

// ---- V2 -----------------------------------------------------------------------------------
// The padding kernel: one block per row of the padded input, 64 threads, each 1/64th of a row.
__global__ void myppkernel(ws::global_array<const float> r, ws::global_array<float> d, int n, int nn) {
  int ja = threadIdx.x;
  int i = blockIdx.y;
  // float* t = d + nn * nn;
  for (int jb = 0; jb < nn; jb += 64) {
    int j = jb + ja;
    float v = (i < n && j < n) ? float(r[n * i + j]) : HUGE_VALF;
    d[nn * i + j] = v;
    d[nn * nn + nn * j + i] = v;  // t[nn*j + i]
  }
}

__global__ void mykernel(ws::global_array<float> r, ws::global_array<const float> d, int n, int nn) {
  int ia = threadIdx.x;
  int ja = threadIdx.y;
  int ic = blockIdx.x;
  int jc = blockIdx.y;
  // const float* t = d + nn * nn;

  float v[8][8];
  for (int ib = 0; ib < 8; ++ib) {
    for (int jb = 0; jb < 8; ++jb) {
      v[ib][jb] = HUGE_VALF;
    }
  }
  for (int k = 0; k < n; ++k) {
    float x[8];
    float y[8];
    for (int ib = 0; ib < 8; ++ib) {
      int i = ic * 64 + ib * 8 + ia;
      x[ib] = d[nn * nn + nn * k + i];  // t[nn*k + i]
    }
    for (int jb = 0; jb < 8; ++jb) {
      int j = jc * 64 + jb * 8 + ja;
      y[jb] = d[nn * k + j];
    }
    for (int ib = 0; ib < 8; ++ib) {
      for (int jb = 0; jb < 8; ++jb) {
        v[ib][jb] = min(v[ib][jb], x[ib] + y[jb]);
      }
    }
  }
  for (int ib = 0; ib < 8; ++ib) {
    for (int jb = 0; jb < 8; ++jb) {
      int i = ic * 64 + ib * 8 + ia;
      int j = jc * 64 + jb * 8 + ja;
      if (i < n && j < n) {
        r[n * i + j] = v[ib][jb];
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
struct ShortcutEntry {
  // Up to this n the CPU reference checks every element (and the emulator runs).
  static constexpr uint64_t kWholeReference = 1024;
  struct Pass {
    ws::Dim3 grid, block;
    ws::global_array<float> r;  // the input, then the result (as in the course)
    const std::vector<float>& host;  // the input
    int n;
    std::vector<std::string>& notes;
  };

  // --block 16 means dim3(16, 16), the course's block; V2 is built for 8 x 8 threads.
  static ws::Dim3 square(ws::Dim3 b) { return b.y == 1 ? ws::Dim3{b.x, b.x, b.z} : b; }
  static ws::Dim3 eight_by_eight(ws::Dim3 b) { return b.y == 1 ? ws::Dim3{8, 8, 1} : b; }

  static std::string v2_block(const ws::RunConfig& c) {
    if (c.block.x == 8 && c.block.y == 8) return {};
    return "V2 is built for 8 x 8 threads, each computing 8 x 8 outputs (64 x 64 per block): block must be (8,8), got " +
           ws::matrix::shape_text(c.block);
  }

  static auto rows() {
    return std::make_tuple(
        ws::row({.id = "0", .name = "V0: naive",
                 .summary = "thread (x,y) -> r[i][j], i from threadIdx.x: lanes read d[n*i + k], n floats apart", .shape = square},
                [](auto& be, Pass& p) {
                  // V0 reads d and writes r: d is a copy of the input.
                  ws::global_array<float> dGPU = be.upload("d", p.host);
                  be.shape(dGPU, uint32_t(p.n));
                  return be.launch("shortcut_v0", p.grid, p.block, 0, shortcut_v0, p.r, dGPU, p.n);
                }),
        ws::row({.id = "1", .name = "V1: transposed copy",
                 .summary = "a preprocessing kernel writes t = d^T; lanes read t[n*k + i]: coalesced", .shape = square},
                [](auto& be, Pass& p) {
                  ws::global_array<float> dGPU = be.template alloc<float>("d", 2ull * p.n * p.n);
                  be.shape(dGPU, uint32_t(p.n));  // d, then its transpose under it
                  return be.launch("shortcut_v1_transpose", p.grid, p.block, 0, shortcut_v1_transpose, p.r, dGPU, p.n) &&
                         be.launch("shortcut_v1", p.grid, p.block, 0, shortcut_v1, p.r, dGPU, p.n);
                }),
        // A block computes 64 x 64 outputs, 8 x 8 per thread.
        ws::row({.id = "2", .name = "V2: 8x8 register blocking",
                 .summary = "padding kernel to nn = 64*ceil(n/64); each 8x8 block computes 64x64 outputs, 8x8 per thread",
                 .accepts = v2_block, .shape = eight_by_eight, .grid = {.per_thread = 8}},
                [](auto& be, Pass& p) {
                  const int nn = (p.n + 63) / 64 * 64;
                  ws::global_array<float> dGPU = be.template alloc<float>("d", 2ull * nn * nn);
                  be.shape(dGPU, uint32_t(nn));  // padded d, then its padded transpose
                  // The padding kernel: one block of 64 threads per row of the padded input.
                  if (!be.launch("myppkernel", ws::Dim3{1, uint32_t(nn), 1}, ws::Dim3{64, 1, 1}, 0, myppkernel, p.r, dGPU, p.n, nn))
                    return false;
                  if (!be.launch("mykernel", p.grid, p.block, 0, mykernel, p.r, dGPU, p.n, nn)) return false;
                  p.notes.push_back("padded to nn = " + std::to_string(nn));
                  return true;
                }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "shortcut";
    s.title = "The shortcut problem (min-plus product)";
    s.description =
        "r[i][j] = min_k d[i][k] + d[k][j] for an n x n matrix. V0 naive (strided reads), V1 reads a "
        "transposed copy (coalesced), V2 keeps 8 x 8 results per thread in registers, 64 x 64 per 8 x 8 "
        "block, after a padding kernel (nn = n rounded up to 64, +infinity padding).";
    s.source = "matrix/shortcut.cuh";
    s.lecture = "seed 004 (PPC chapter 4: V0, V1, V2 with the padding kernel)";
    s.variants = ws::variant_specs(rows());
    s.params = {};
    s.default_n = 100;
    s.default_block = 16;
    s.block_2d = true;
    s.dtypes = {"float"};
    s.elements = [](const ws::RunConfig& c) { return c.n * c.n; };
    s.emulator_limit = [](const ws::RunConfig& c) -> std::string {
      if (c.n <= kWholeReference) return {};
      return "n = " + std::to_string(c.n) + ": the n^3 min-plus operations are too many for the emulator (n <= 1024)";
    };
    // Seed 004 counts one addition and one minimum per k: 2 n^3 useful operations.
    s.timing.n = 4000;
    s.timing.sizes = {1000, 2000, 4000};
    s.timing.matrix = true;
    s.timing.ceiling = ws::TimingSpec::Ceiling::Fp32;
    s.timing.flops = [](const ws::RunConfig& c) { return 2.0 * double(c.n) * double(c.n) * double(c.n); };
    return s;
  }

  static ws::Dim3 shape(const ws::RunConfig& c) { return ws::find_variant(rows(), c.variant)->block_for(c.block); }

  static std::string validate(const ws::RunConfig& c) {
    const ws::Dim3 b = shape(c);
    if (b.z != 1) return "the shortcut kernels use 2D blocks: block z must be 1";
    if (b.count() > 1024) return "block " + ws::matrix::shape_text(b) + " has over 1024 threads";
    if (c.n > 16384) return "n = " + std::to_string(c.n) + ": the shortcut kernels take n <= 16384";
    return ws::check_variant(rows(), c);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const int n = int(c.n);
    const std::vector<float> host = ws::reference::shortcut::input(uint64_t(n), c.seed);
    ws::global_array<float> rGPU = be.upload("r", host);  // the input, then the result (as in the course)
    be.shape(rGPU, uint32_t(n));
    const ws::Variant v = *ws::find_variant(rows(), c.variant);
    const ws::Dim3 blk = v.block_for(c.block);
    if (blk.y != c.block.y)
      out.notes.push_back("block " + ws::matrix::shape_text(blk) + " (the variant's shape for --block " + std::to_string(c.block.x) + ")");
    Pass p{v.grid.blocks_2d(blk, uint64_t(n), uint64_t(n)), blk, rGPU, host, n, out.notes};
    if (!ws::launch_variant(rows(), c.variant, be, p)) return;
    // Past the emulator's sizes the CPU checks a sample of r (4000^3 operations take it minutes).
    const std::vector<uint64_t> at = c.n <= kWholeReference ? std::vector<uint64_t>{} : ws::matrix::sample_positions(c.n, c.n);
    ws::matrix::check_exact(out, "r", be.download(rGPU), ws::reference::shortcut::min_plus(host, uint64_t(n), at), uint64_t(n), at);
  }
};
