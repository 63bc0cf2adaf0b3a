// Branch divergence (seed 001, "Branching"): a branch whose condition depends on the thread ID
// splits a warp when its granularity is below the warp size, and the warp runs the two paths one
// after the other; a condition that is the same for all 32 lanes of a warp costs nothing.
//
// Every variant computes out[i] = 2 * in[i] on one path and in[i] + 1 on the other; only the
// condition that picks the path changes, so the divergence timeline and its SIMD efficiency
// show what the condition alone costs:
//   odd-even   if (threadIdx.x % 2 == 1)          every warp runs both halves: 2 half-full steps
//   threshold  if (threadIdx.x > 2)               the slide's example: warp 0 splits (3 + 29 lanes)
//   per-warp   if (threadIdx.x / warpSize > 2)    the slide's remedy: whole warps take one side
//   loop       odd-even inside a loop of `iters`  the halves meet again after every iteration
#pragma once
#include <string>

#include "common/checks.h"
#include "common/variant_table.h"
#include "control/divergence_reference.h"
#include "ws/kernel.cuh"

// Lane-granular: odd lanes one way, even lanes the other.
template <class T>
__global__ void branch_odd_even(ws::global_array<const T> in, ws::global_array<T> out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (threadIdx.x % 2 == 1) {
    out[i] = T(2) * in[i];
  } else {
    out[i] = in[i] + T(1);
  }
}

// The slide's "example with divergence": threads 0 to 2 follow a different path than the rest of
// the first warp.
template <class T>
__global__ void branch_threshold(ws::global_array<const T> in, ws::global_array<T> out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (threadIdx.x > 2) {
    out[i] = T(2) * in[i];
  } else {
    out[i] = in[i] + T(1);
  }
}

// The slide's "example without divergence": the branch granularity is a whole warp.
template <class T>
__global__ void branch_per_warp(ws::global_array<const T> in, ws::global_array<T> out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (threadIdx.x / warpSize > 2) {
    out[i] = T(2) * in[i];
  } else {
    out[i] = in[i] + T(1);
  }
}

// The odd/even branch inside a loop: each iteration runs both halves, and they meet again at its
// end (on a GPU and in the emulator), so the warp alternates odd, even, odd, even...
template <class T>
__global__ void branch_in_loop(ws::global_array<const T> in, ws::global_array<T> out, unsigned n, unsigned iters) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T v = 0;
  for (unsigned k = 0; k < iters; ++k) {
    if (threadIdx.x % 2 == 1) {
      v += T(2) * in[i];
    } else {
      v += in[i] + T(1);
    }
  }
  out[i] = v;
}

struct DivergenceEntry {
  template <class T>
  struct Pass {
    ws::Dim3 grid, block;
    ws::global_array<const T> in;
    ws::global_array<T> out;
    unsigned n, iters;
  };

  // Which path each thread takes (divergence_reference.h), for the check: the branch's condition,
  // and whether the branch sits in the loop of `iters` iterations.
  struct Path {
    bool (*first_path)(unsigned t);
    bool loop = false;
  };

  template <class T>
  static auto rows() {
    using P = Pass<T>;
    namespace ref = ws::reference::divergence;
    return std::make_tuple(
        ws::row({.id = "odd-even", .name = "if (threadIdx.x % 2 == 1)",
                 .summary = "lane-granular: every warp runs both halves, 16 lanes each"},
                Path{ref::odd_lane},
                [](auto& be, const P& p) {
                  return be.launch("branch_odd_even", p.grid, p.block, 0, branch_odd_even<T>, p.in, p.out, p.n);
                }),
        ws::row({.id = "threshold", .name = "if (threadIdx.x > 2)",
                 .summary = "the slide's example: threads 0-2 take another path than the rest of warp 0"},
                Path{ref::above_two},
                [](auto& be, const P& p) {
                  return be.launch("branch_threshold", p.grid, p.block, 0, branch_threshold<T>, p.in, p.out, p.n);
                }),
        ws::row({.id = "per-warp", .name = "if (threadIdx.x / warpSize > 2)",
                 .summary = "the slide's remedy: the branch granularity is a whole warp, no divergence"},
                Path{ref::warp_above_two},
                [](auto& be, const P& p) {
                  return be.launch("branch_per_warp", p.grid, p.block, 0, branch_per_warp<T>, p.in, p.out, p.n);
                }),
        ws::row({.id = "loop", .name = "odd-even inside a loop",
                 .summary = "the halves alternate and meet again at the end of every iteration"},
                Path{ref::odd_lane, true},
                [](auto& be, const P& p) {
                  return be.launch("branch_in_loop", p.grid, p.block, 0, branch_in_loop<T>, p.in, p.out, p.n, p.iters);
                }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "divergence";
    s.title = "Branch divergence: lane, threshold and warp granularity";
    s.description =
        "out[i] = 2*in[i] on one path, in[i]+1 on the other; only the condition changes. A condition "
        "on the thread ID with a granularity below 32 splits warps, and each warp runs both paths one "
        "after the other (the divergence timeline's half-full steps); a condition that is the same "
        "for a whole warp costs nothing. Inside a loop the two halves meet again after every "
        "iteration.";
    s.source = "control/divergence.cuh";
    s.lecture = "seed 001 (branching: divergence when the condition is a function of the thread ID)";
    s.variants = ws::variant_specs(rows<int>());
    s.params = {{"iters", "iterations of the loop variant's loop", 1, 64, 4, {}}};
    s.default_n = 4096;
    s.default_block = 256;
    s.dtypes = {"int", "float"};
    s.timing.n = 1 << 24;
    s.timing.sizes = {1 << 20, 1 << 22, 1 << 24, 1 << 26};
    s.timing.ceiling = ws::TimingSpec::Ceiling::Copy;
    return s;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1)
      return "the divergence demos branch on threadIdx.x: block must be (x, 1, 1)";
    if (c.n == 0 || c.n > (1u << 26)) return "n must be 1 to 67108864 (got " + std::to_string(c.n) + ")";
    return ws::check_variant(rows<int>(), c);
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    namespace ref = ws::reference::divergence;
    const std::vector<T> host = ref::input<T>(c.n, c.seed);
    auto in = be.upload("in", host);
    auto res = be.template alloc<T>("out", c.n);
    const unsigned iters = unsigned(c.param("iters", 4));
    const ws::Dim3 grid{ws::find_variant(rows<T>(), c.variant)->grid.blocks(c.n, c.block.x, c), 1, 1}, blk{c.block.x, 1, 1};
    if (!ws::launch_variant(rows<T>(), c.variant, be, Pass<T>{grid, blk, in, res, unsigned(c.n), iters})) return;
    // Exact: the same operations in the same type and order as the kernel.
    const Path path = *ws::variant_extra(rows<T>(), c.variant);
    const std::vector<T> want = path.loop ? ref::loop_outputs(host, c.block.x, path.first_path, iters)
                                          : ref::outputs(host, c.block.x, path.first_path);
    ws::check_exact_elements(out, "out", be.download(res), want, "exact: each out[i] recomputed on the CPU with the thread's path");
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "float") run_typed<float>(be, c, out);
    else run_typed<int>(be, c, out);
  }
};
