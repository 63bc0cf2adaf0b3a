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

#include <optional>
#include <string>
#include <vector>

#include "common/checks.h"
#include "common/variant_table.h"
#include "reduction/dot_reference.h"
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
  // The first launch: one partial sum per block in p.
  template <class T>
  struct Pass {
    ws::Dim3 grid, block;
    uint32_t smem;  // blockDim.x elements of T: the shared `cache`
    ws::global_array<const T> a, b;
    ws::global_array<T> p;
    unsigned n;
    std::optional<ws::global_array<T>> total;  // set by a row that finishes the sum on the GPU
  };

  // "How to compute the dot product completely on the GPU": sum_partials on the partial sums,
  // again while more than one value is left; the total is then in p.total.
  template <class T, class B>
  static bool finish_on_gpu(B& be, Pass<T>& p) {
    ws::global_array<T> in = p.p;
    uint32_t count = p.grid.x;
    for (int pass = 1;; ++pass) {
      const uint32_t nb = (count + p.block.x - 1) / p.block.x;
      ws::global_array<T> sums = be.template alloc<T>(pass == 1 ? "result" : "result" + std::to_string(pass), nb);
      if (!be.launch("sum_partials", ws::Dim3{nb, 1, 1}, p.block, p.smem, sum_partials<T>, in, sums, count)) return false;
      if (nb == 1) {
        p.total = sums;
        return true;
      }
      in = sums;
      count = nb;
    }
  }

  // The second kernel is relaunched on its own partial sums: with one thread a block it would leave
  // as many as it read, for ever.
  static std::string two_or_more(const ws::RunConfig& c) {
    if (c.block.x >= 2) return {};
    return "variant gpu sums the partial sums again and again with blocks of the same size: a block of one "
           "thread leaves as many sums as it read; use 2 threads or more";
  }

  template <class T>
  static auto rows() {
    using P = Pass<T>;
    return std::make_tuple(
        ws::row({.id = "cpu", .name = "partial sums finished on the CPU",
                 .summary = "one partial sum per block in p[]; the host adds p[0..nBlocks-1] one after another (in T)"},
                [](auto& be, P& p) { return be.launch("dotprod", p.grid, p.block, p.smem, dotprod<T>, p.a, p.b, p.p, p.n); }),
        ws::row({.id = "gpu", .name = "completely on the GPU (second kernel)",
                 .summary = "a second kernel sums the partial sums: the kernel boundary is the barrier between the two",
                 .accepts = two_or_more},
                [](auto& be, P& p) {
                  return be.launch("dotprod", p.grid, p.block, p.smem, dotprod<T>, p.a, p.b, p.p, p.n) && finish_on_gpu(be, p);
                }),
        ws::row({.id = "nosync", .name = "missing __syncthreads()",
                 .summary = "the slide's first listing: no barrier before or inside the tree", .broken = true,
                 .broken_note = "shared-memory race: threads read cache[threadIdx.x + stride] before (or while) other warps write it"},
                [](auto& be, P& p) {
                  return be.launch("dotprod_nosync", p.grid, p.block, p.smem, dotprod_nosync<T>, p.a, p.b, p.p, p.n);
                }),
        ws::row({.id = "divergent-barrier", .name = "__syncthreads() inside if (threadIdx.x < stride)",
                 .summary = "the \"optimized\" barrier: only the threads that wrote wait", .broken = true,
                 .broken_note = "barrier divergence: threads with threadIdx.x >= stride never arrive; on a GPU it hangs, the "
                                "emulator stops the block with error 'barrier-divergence'"},
                [](auto& be, P& p) {
                  return be.launch("dotprod_divergent_barrier", p.grid, p.block, p.smem, dotprod_divergent_barrier<T>, p.a,
                                   p.b, p.p, p.n);
                }));
  }

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
    s.variants = ws::variant_specs(rows<int>());
    s.params = {};
    s.default_n = 1 << 14;
    s.default_block = 256;
    s.dtypes = {"float", "int"};
    s.timing.n = 1 << 24;
    s.timing.sizes = {1 << 20, 1 << 22, 1 << 24};
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
    return ws::check_variant(rows<int>(), c);
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const ws::reference::dot::Inputs<T> host = ws::reference::dot::inputs<T>(c.n, c.seed);
    const ws::reference::dot::Product ref = ws::reference::dot::product(host.x, host.y);
    ws::global_array<T> a = be.upload("a", host.x);
    ws::global_array<T> b = be.upload("b", host.y);
    const ws::Variant v = *ws::find_variant(rows<T>(), c.variant);
    const uint32_t block = c.block.x;
    const uint32_t blocks = v.grid.blocks(c.n, block, c);
    ws::global_array<T> p = be.template alloc<T>("p", blocks);
    Pass<T> pass{{blocks, 1, 1}, {block, 1, 1}, uint32_t(block * sizeof(T)), a, b, p, unsigned(c.n), {}};
    if (!ws::launch_variant(rows<T>(), c.variant, be, pass)) return;
    if (pass.total) {
      ws::check_scalar(out, "x . y", be.download(*pass.total)[0], ref.value, ref.abs_sum, c.n, ws::SumOrder::Tree);
      return;
    }
    // The lecture's host loop: `float prod = 0.0; for (i < nBlocks) prod += h_p[i];` -- in T, one
    // after another. Each product then went through a tree of depth log2(blockDim) and a chain of
    // nBlocks additions, so the float bound is checks.h's sequential one over that many terms.
    const std::vector<T> hp = be.download(p);
    T prod = 0;
    for (uint32_t i = 0; i < blocks; ++i) prod += hp[i];
    const uint64_t depth = ws::reference::dot::host_terms(block, blocks);
    ws::check_scalar(out, "x . y", prod, ref.value, ref.abs_sum, depth, ws::SumOrder::Arbitrary);
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
