// Gather (seed 002, "Example: Shuffling Data": "reorder values based on keys; each thread moves
// one element"): new_array[i] = prev_array[indices[i]]. The reads of indices[] and the writes of
// new_array[] are coalesced; the reads of prev_array[] are as coalesced as the indices let them
// be. Parameter `indices`: identity (4 sectors per warp request of floats), neighbours swapped (4),
// blocked (runs of 32 in random order: 4), random permutation (about 32: a sector per lane).
//
//   warpscope analyze -k gather --param indices=random   # sectors/request of prev_array: ~32
#pragma once

#include <string>
#include <vector>

#include "common/checks.h"
#include "common/reference.h"
#include "common/variant_table.h"
#include "memory/gather_reference.h"
#include "ws/kernel.cuh"

// The slide's kernel (with a bounds check, so n need not be a multiple of the block).
template <class T>
__global__ void shuffle(ws::global_array<const T> prev_array, ws::global_array<T> new_array,
                        ws::global_array<const unsigned> indices, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) new_array[i] = prev_array[indices[i]];
}

// ---------------------------------------------------------------------------------------------
struct GatherEntry {
  using Pattern = ws::reference::gather::Pattern;

  template <class T>
  struct Pass {
    ws::Dim3 grid, block;
    ws::global_array<const T> prev;
    ws::global_array<T> out;
    ws::global_array<const unsigned> indices;
    unsigned n;
  };

  template <class T>
  static auto rows() {
    return std::make_tuple(ws::row({.id = "shuffle", .name = "new_array[i] = prev_array[indices[i]]",
                                     .summary = "one element per thread; the indices decide how many sectors a warp reads",
                                     .focus = "new_array[i] = prev_array[indices[i]]"},
                                    [](auto& be, const Pass<T>& p) {
                                      return be.launch("shuffle", p.grid, p.block, 0, shuffle<T>, p.prev, p.out, p.indices, p.n);
                                    }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "gather";
    s.title = "Gather: new_array[i] = prev_array[indices[i]]";
    s.description =
        "Each thread moves one element to its place (the lecture's shuffle kernel) with identity, "
        "neighbour-swapped, blocked and random indices: from 4 to 32 sectors per warp request.";
    s.source = "memory/gather.cuh";
    s.lecture = "seed 002 (example: shuffling data)";
    s.variants = ws::variant_specs(rows<float>());
    std::vector<std::string> patterns(std::begin(ws::reference::gather::kPatternNames),
                                      std::end(ws::reference::gather::kPatternNames));
    s.params = {{"indices", "the index pattern: identity, neighbours swapped, blocked runs of 32, random", 0, 3, 0, patterns}};
    s.default_n = 4096;
    s.default_block = 256;
    s.dtypes = {"float", "int"};
    s.arrays = 5;  // prev, new and indices on the device and the host's copies
    s.timing.n = 1 << 24;
    s.timing.sizes = {1 << 20, 1 << 22, 1 << 24, 1 << 26};
    s.timing.ceiling = ws::TimingSpec::Ceiling::Copy;
    return s;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the gather uses 1D blocks: block must be (x, 1, 1)";
    if (c.n >= (1ull << 32)) return "n = " + std::to_string(c.n) + ": the indices are 32-bit unsigned integers (< 4294967296)";
    return ws::check_variant(rows<float>(), c);
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<T> prev = ws::random_input<T>(c.n, c.seed, -9, 9);
    const std::vector<unsigned> idx = ws::reference::gather::indices(c.n, Pattern(c.param("indices", 0)), c.seed);
    ws::global_array<T> d_prev = be.upload("prev_array", prev);
    ws::global_array<unsigned> d_idx = be.upload("indices", idx);
    ws::global_array<T> d_out = be.template alloc<T>("new_array", c.n);
    const ws::Variant v = *ws::find_variant(rows<T>(), c.variant);
    const Pass<T> p{{v.grid.blocks(c.n, c.block.x, c), 1, 1}, {c.block.x, 1, 1}, d_prev, d_out, d_idx, unsigned(c.n)};
    if (!ws::launch_variant(rows<T>(), c.variant, be, p)) return;
    ws::check_exact_elements(out, "new_array", be.download(d_out), ws::reference::gather::gathered(prev, idx),
                             "exact: new_array[i] = prev_array[indices[i]] on the CPU");
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "int") run_typed<int>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
