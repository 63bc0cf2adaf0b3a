// The dot product of seed 000 ("Computing the dot product"): each block multiplies its part of
// the two vectors into a shared `cache`, sums it with a tree, and writes one partial sum; the
// partial sums are then added on the CPU (the lecture's host loop) or on the GPU by a second
// kernel. Two versions are broken on purpose, as the slides show them:
//   - "nosync": the first listing, without any __syncthreads(): "This code contains a bug! And
//     that bug is probably hard to find!" (a shared-memory race: the analysis reports it);
//   - "divergent-barrier": the "optimized" barrier inside `if (threadIdx.x < stride)`: "It makes
//     your GPU hang ...!" The threads that skip the if never arrive, so the barrier can never be
//     fulfilled; the emulator stops the block and reports barrier divergence instead of hanging.
//
// Elements past n contribute 0, so any n >= 1 works; "for easy reduction, blockDim.x must be a
// power of 2!" (the tree halves the stride).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/checks.h"
#include "ws/run/entry.h"
#include "ws/kernel.cuh"

// ---------------------------------------------------------------------------------------------
// The complete kernel for the dot product (the corrected slide). The slide's
// `__shared__ float cache[blockDim.x]` has a size known only at launch: dynamic shared memory.
template <class T>
__global__ void dotprod(ws::global_array<const T> a, ws::global_array<const T> b,
                        ws::global_array<T> p, unsigned N) {
  ws::dynamic_shared<T, "cache"> cache;
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  // The slide writes `if (tid < N) cache[threadIdx.x] = a[tid] * b[tid];`, which leaves the tail
  // block's other slots holding garbage: they must be 0.
  cache[threadIdx.x] = tid < N ? T(a[tid]) * T(b[tid]) : T(0);
  // Here, for easy reduction, blockDim.x must be a power of 2!
  __syncthreads();  // every product is in cache before anyone adds
  unsigned stride = blockDim.x / 2;
  while (stride != 0) {
    if (threadIdx.x < stride)
      cache[threadIdx.x] += cache[threadIdx.x + stride];
    __syncthreads();  // this step's sums are written before the next step reads them
    stride /= 2;
  }
  // thread 0 copies the block's partial sum to global memory
  if (threadIdx.x == 0)
    p[blockIdx.x] = cache[0];
}

// BROKEN ON PURPOSE: the first listing of the slide, without __syncthreads(). A thread reads
// cache[threadIdx.x + stride] while the thread (often in another warp) that writes it may not have
// written it yet: read-after-write and write-after-read hazards between warps.
template <class T>
__global__ void dotprod_nosync(ws::global_array<const T> a, ws::global_array<const T> b,
                               ws::global_array<T> p, unsigned N) {
  ws::dynamic_shared<T, "cache"> cache;
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  cache[threadIdx.x] = tid < N ? T(a[tid]) * T(b[tid]) : T(0);
  unsigned stride = blockDim.x / 2;
  while (stride != 0) {
    if (threadIdx.x < stride)
      cache[threadIdx.x] += cache[threadIdx.x + stride];
    stride /= 2;
  }
  if (threadIdx.x == 0)
    p[blockIdx.x] = cache[0];
}

// BROKEN ON PURPOSE: "Idea: only wait for threads that were actually writing to memory ...
// Bug: the barrier will never be fulfilled!" __syncthreads() must be reached by every thread of
// the block; here the threads with threadIdx.x >= stride never reach it.
template <class T>
__global__ void dotprod_divergent_barrier(ws::global_array<const T> a, ws::global_array<const T> b,
                                          ws::global_array<T> p, unsigned N) {
  ws::dynamic_shared<T, "cache"> cache;
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  cache[threadIdx.x] = tid < N ? T(a[tid]) * T(b[tid]) : T(0);
  __syncthreads();
  unsigned stride = blockDim.x / 2;
  while (stride != 0) {
    if (threadIdx.x < stride) {
      cache[threadIdx.x] += cache[threadIdx.x + stride];
      __syncthreads();  // incorrectly "optimized": inside the if
    }
    stride /= 2;
  }
  if (threadIdx.x == 0)
    p[blockIdx.x] = cache[0];
}

// "How to compute the dot product completely on the GPU": a second kernel sums the partial sums.
// The kernel boundary is the barrier between the two reductions ("all writes of the first kernel
// complete before the second starts"). Each block sums blockDim.x partial sums with the same tree;
// the driver launches it again while more than one value is left (once, for n <= blockDim.x^2).
template <class T>
__global__ void sum_partials(ws::global_array<const T> p, ws::global_array<T> out, unsigned count) {
  ws::dynamic_shared<T, "cache"> cache;
  unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
  cache[threadIdx.x] = i < count ? T(p[i]) : T(0);
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride != 0; stride /= 2) {
    if (threadIdx.x < stride)
      cache[threadIdx.x] += cache[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = cache[0];
}

// ---------------------------------------------------------------------------------------------
struct DotEntry {
  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "dot";
    s.title = "Dot product (shared-memory reduction per block)";
    s.description =
        "d = x . y: each block puts its products x_i*y_i in a shared cache and sums them with a tree "
        "(stride halves, __syncthreads() after every step); the partial sums per block are finished "
        "on the CPU or by a second kernel. Two broken versions from the slides: the missing "
        "__syncthreads() (a race) and the barrier inside the if (barrier divergence: the GPU hangs).";
    s.source = "reduction/dot.cuh";
    s.lecture = "seed 000 (dot product, barrier synchronization, a caveat about barriers)";
    s.variants = {
        {"cpu", "partial sums finished on the CPU",
         "one partial sum per block in p[]; the host adds p[0..nBlocks-1] one after another (in T)"},
        {"gpu", "completely on the GPU (second kernel)",
         "a second kernel sums the partial sums: the kernel boundary is the barrier between the two"},
        {"nosync", "missing __syncthreads()", "the slide's first listing: no barrier before or inside the tree",
         true, "shared-memory race: threads read cache[threadIdx.x + stride] before (or while) other warps write it"},
        {"divergent-barrier", "__syncthreads() inside if (threadIdx.x < stride)",
         "the \"optimized\" barrier: only the threads that wrote wait", true,
         "barrier divergence: threads with threadIdx.x >= stride never arrive; on a GPU it hangs, the "
         "emulator stops the block with error 'barrier-divergence'"},
    };
    s.params = {};
    s.default_n = 1 << 14;
    s.default_block = 256;
    s.dtypes = {"float", "int"};
    return s;
  }

  static bool is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the dot product uses 1D blocks: block must be (x, 1, 1)";
    if (!is_pow2(c.block.x))
      return "the tree halves the stride from blockDim.x/2 (\"for easy reduction, blockDim.x must be a power of "
             "2!\"): block size " + std::to_string(c.block.x) + " is not a power of two";
    if (c.dtype == "int" && c.n > 20'000'000)
      return "the int inputs are 0..9, so the sum of n products reaches 81*n: n = " + std::to_string(c.n) +
             " could overflow a 32-bit int (n <= 20000000 for int; use float)";
    return {};
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const bool is_int = std::is_integral_v<T>;
    const std::vector<T> ha = is_int ? ws::random_input<T>(c.n, c.seed, 0, 9) : ws::random_input<T>(c.n, c.seed, -1, 1);
    const std::vector<T> hb = is_int ? ws::random_input<T>(c.n, c.seed + 1000003, 0, 9)
                                     : ws::random_input<T>(c.n, c.seed + 1000003, -1, 1);
    double ref = 0, abs_sum = 0;
    for (uint64_t i = 0; i < c.n; ++i) {
      // The kernel multiplies in T: the reference uses the same rounded products.
      const double prod = double(T(ha[i] * hb[i]));
      ref += prod;
      abs_sum += std::fabs(prod);
    }
    ws::global_array<T> a = be.upload("a", ha);
    ws::global_array<T> b = be.upload("b", hb);
    const uint32_t block = c.block.x;
    const uint32_t blocks = uint32_t((c.n + block - 1) / block);
    ws::global_array<T> p = be.template alloc<T>("p", blocks);
    const ws::Dim3 grid{blocks, 1, 1}, blk{block, 1, 1};
    const uint32_t smem = block * sizeof(T);
    const unsigned n = unsigned(c.n);
    bool ok = false;
    if (c.variant == "nosync") ok = be.launch("dotprod_nosync", grid, blk, smem, dotprod_nosync<T>, a, b, p, n);
    else if (c.variant == "divergent-barrier")
      ok = be.launch("dotprod_divergent_barrier", grid, blk, smem, dotprod_divergent_barrier<T>, a, b, p, n);
    else ok = be.launch("dotprod", grid, blk, smem, dotprod<T>, a, b, p, n);
    if (!ok) return;

    if (c.variant == "gpu") {
      // Second kernel on the partial sums, again while more than one value is left.
      ws::global_array<T> in = p;
      uint32_t count = blocks;
      for (int pass = 1;; ++pass) {
        const uint32_t nb = (count + block - 1) / block;
        ws::global_array<T> sums = be.template alloc<T>(pass == 1 ? "result" : "result" + std::to_string(pass), nb);
        if (!be.launch("sum_partials", ws::Dim3{nb, 1, 1}, blk, smem, sum_partials<T>, in, sums, count)) return;
        if (nb == 1) {
          ws::check_scalar(out, "x . y", be.download(sums)[0], ref, abs_sum, c.n, ws::SumOrder::Tree);
          return;
        }
        in = sums;
        count = nb;
      }
    }
    // The lecture's host loop: `float prod = 0.0; for (i < nBlocks) prod += h_p[i];` -- in T, one
    // after another. Each product then went through a tree of depth log2(blockDim) and a chain of
    // nBlocks additions, so the float bound is checks.h's sequential one over that many terms.
    const std::vector<T> hp = be.download(p);
    T prod = 0;
    for (uint32_t i = 0; i < blocks; ++i) prod += hp[i];
    const uint64_t depth = uint64_t(std::log2(double(block))) + blocks;
    ws::check_scalar(out, "x . y", prod, ref, abs_sum, depth, ws::SumOrder::Arbitrary);
    out.notes.push_back(std::to_string(blocks) + " partial sums added on the CPU" +
                        (std::is_integral_v<T> ? std::string()
                                               : "; float bound with n = log2(block) + nBlocks = " + std::to_string(depth) +
                                                     " (tree per block, then a chain of nBlocks additions)"));
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "int") run_typed<int>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
