// The race-condition example of seed 000 ("New concepts & terminology: race conditions"): given x,
// compute y = (x0*x1, x0*x1, x2*x3, x2*x3, ...) with two threads, one for the even and one for the
// odd elements, through a two-element shared cache:
//
//   for (int i = 0; i < N/2; i++) {
//     cache[threadIdx.x] = x[2*i + threadIdx.x];
//     y[2*i + threadIdx.x] = cache[0] * cache[1];
//   }
//
// "Execution in a warp, i.e., in lockstep: everything is fine. In the following, we consider
// execution in different warps": then thread 1 may read cache[0] before thread 0 wrote it
// (read-after-write hazard). One __syncthreads() after the store removes that, but leaves a
// write-after-read hazard (thread 0 overwrites cache[0] for the next pair while thread 1 still
// reads the old one); the final remedy has two barriers. "Note: you'd never design the algorithm
// this way!"
//
// The slide's "thread 0" and "thread 1" are threads 0 and `gap` of the block: gap = 32 puts them
// in DIFFERENT warps (the real race, what racecheck reports), gap = 1 in the same warp (safe only
// under lockstep: on Volta and later the two lanes need __syncwarp()). The other threads of the
// block only take part in the barriers.
#pragma once

#include <string>
#include <vector>

#include "common/checks.h"
#include "common/variant_table.h"
#include "reduction/race_reference.h"
#include "ws/kernel.cuh"

// BROKEN ON PURPOSE: no barrier (read-after-write hazard between the two threads).
template <class T>
__global__ void race_no_barrier(ws::global_array<const T> x, ws::global_array<T> y, unsigned N,
                                unsigned gap) {
  __shared__ ws::shared_array<T, 2, "cache"> cache;
  bool player = threadIdx.x == 0 || threadIdx.x == gap;  // the slide's thread 0 and thread 1
  unsigned me = threadIdx.x / gap;                        // 0 or 1 for the two players
  for (unsigned i = 0; i < N / 2; i++) {
    if (player) {
      cache[me] = x[2 * i + me];
      y[2 * i + me] = cache[0] * cache[1];
    }
  }
}

// BROKEN ON PURPOSE: "Remedy": one barrier between the store and the loads. The read-after-write
// hazard is gone, a write-after-read hazard remains (the next iteration's store against this
// iteration's loads).
template <class T>
__global__ void race_one_barrier(ws::global_array<const T> x, ws::global_array<T> y, unsigned N,
                                 unsigned gap) {
  __shared__ ws::shared_array<T, 2, "cache"> cache;
  bool player = threadIdx.x == 0 || threadIdx.x == gap;
  unsigned me = threadIdx.x / gap;
  for (unsigned i = 0; i < N / 2; i++) {
    if (player) cache[me] = x[2 * i + me];
    __syncthreads();
    if (player) y[2 * i + me] = cache[0] * cache[1];
  }
}

// "Final remedy": a second barrier after the loads, before the next iteration's store.
template <class T>
__global__ void race_two_barriers(ws::global_array<const T> x, ws::global_array<T> y, unsigned N,
                                  unsigned gap) {
  __shared__ ws::shared_array<T, 2, "cache"> cache;
  bool player = threadIdx.x == 0 || threadIdx.x == gap;
  unsigned me = threadIdx.x / gap;
  for (unsigned i = 0; i < N / 2; i++) {
    if (player) cache[me] = x[2 * i + me];
    __syncthreads();
    if (player) y[2 * i + me] = cache[0] * cache[1];
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------------------------
struct RaceEntry {
  // One block; the slide's two threads are threads 0 and `gap`.
  template <class T>
  struct Pass {
    ws::Dim3 grid, block;
    ws::global_array<const T> x;
    ws::global_array<T> y;
    unsigned n, gap;
  };

  template <class T>
  static auto rows() {
    using P = Pass<T>;
    return std::make_tuple(
        ws::row({.id = "0", .name = "no barrier", .summary = "cache[threadIdx.x] = x[...]; y[...] = cache[0]*cache[1]; in a loop",
                 .broken = true, .broken_note = "read-after-write hazard: one thread reads cache[] before the other wrote it"},
                [](auto& be, const P& p) {
                  return be.launch("race_no_barrier", p.grid, p.block, 0, race_no_barrier<T>, p.x, p.y, p.n, p.gap);
                }),
        ws::row({.id = "1", .name = "one barrier (remedy)", .summary = "__syncthreads() between the store and the loads",
                 .broken = true,
                 .broken_note = "write-after-read hazard: the next iteration's store can overwrite a value the other thread still reads"},
                [](auto& be, const P& p) {
                  return be.launch("race_one_barrier", p.grid, p.block, 0, race_one_barrier<T>, p.x, p.y, p.n, p.gap);
                }),
        ws::row({.id = "2", .name = "two barriers (final remedy)", .summary = "a second __syncthreads() after the loads: no hazard left"},
                [](auto& be, const P& p) {
                  return be.launch("race_two_barriers", p.grid, p.block, 0, race_two_barriers<T>, p.x, p.y, p.n, p.gap);
                }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "race";
    s.title = "Race conditions: the cache[2] example";
    s.description =
        "Two threads compute y[2i] = y[2i+1] = x[2i]*x[2i+1] through __shared__ cache[2]. Without a "
        "barrier: read-after-write hazard; with one: write-after-read; with two: correct. The two "
        "threads are threads 0 and 32 (different warps: a real race) or 0 and 1 (one warp: fine "
        "only under lockstep). One block; the other threads only join the barriers.";
    s.source = "reduction/race.cuh";
    s.lecture = "seed 000 (race conditions: RAW, WAR, WAW hazards)";
    s.variants = ws::variant_specs(rows<int>());
    s.params = {
        {"placement", "where the slide's two threads are", 0, 1, 0,
         {"different warps (threads 0 and 32)", "one warp (threads 0 and 1)"}},
    };
    s.default_n = 16;
    s.default_block = 64;
    s.dtypes = {"float", "int"};
    s.timing.scales = false;  // the slide's two threads in one block
    return s;
  }

  static unsigned gap(const ws::RunConfig& c) { return c.param("placement", 0) == 0 ? 32u : 1u; }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the race example uses 1D blocks: block must be (x, 1, 1)";
    if (c.n < 2 || c.n % 2)
      return "the two threads work on pairs (x[2i], x[2i+1]): n must be even and at least 2 (got " +
             std::to_string(c.n) + ")";
    if (c.n > (1u << 20)) return "one block loops over n/2 pairs: n <= 1048576 keeps the run short";
    const unsigned g = gap(c);
    if (c.block.x < g + 1)
      return std::string("threads 0 and ") + std::to_string(g) + " play the slide's two threads: the block needs at least " +
             std::to_string(g + 1) + " threads (got " + std::to_string(c.block.x) + ")";
    return ws::check_variant(rows<int>(), c);
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<T> hx = ws::reference::race::input<T>(c.n, c.seed);
    ws::global_array<T> x = be.upload("x", hx);
    ws::global_array<T> y = be.template alloc<T>("y", c.n);
    be.fill(y, T(0));
    if (!ws::launch_variant(rows<T>(), c.variant, be, Pass<T>{{1, 1, 1}, {c.block.x, 1, 1}, x, y, unsigned(c.n), gap(c)}))
      return;
    // Exact: each y is one product of two T values, rounded the same way here.
    ws::check_exact_elements(out, "y", be.download(y), ws::reference::race::pair_products(hx),
                             "exact: y[2i] = y[2i+1] = x[2i]*x[2i+1] computed in the same type");
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "int") run_typed<int>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
