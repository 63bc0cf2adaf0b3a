// Histogram (seed 002, "Example: Histogram": "each thread looks at one pixel and increments a
// counter atomically"), and the two ways to queue less on the hot bins:
//   global : the slide's kernel, atomicAdd(&buckets[c], 1) per pixel. Lanes of a warp that see
//            the same colour hit the same address: the atomic unit serialises them (the analysis
//            counts the lanes per address: atomic contention).
//   shared : privatisation. Each block counts into its own bins in shared memory (fast atomics,
//            contention only within the block), then adds each non-zero bin to the global one
//            with one atomic: bins x blocks global atomics instead of one per pixel.
//   warp   : warp aggregation. The lanes with the same colour find each other
//            (__match_any_sync), and the lowest of them adds their number with one atomicAdd:
//            a warp makes one atomic per distinct colour instead of 32.
// Inputs (parameter `input`): uniform colours, one colour everywhere (the whole grid on one bin:
// the worst case), an image-like picture (a few dominant colours), and the uniform one sorted.
//
//   warpscope run histogram global --param input=one-colour   # 32 lanes on one address per warp
//   warpscope run histogram warp --param input=one-colour     # 1 lane: one atomic per warp
#pragma once

#include <string>
#include <vector>

#include "atomics/histogram_reference.h"
#include "common/checks.h"
#include "common/variant_table.h"
#include "ws/kernel.cuh"

// The slide's kernel: one pixel per thread, one global atomic per pixel.
__global__ void histogram_global(ws::global_array<const int> colors, ws::global_array<unsigned> buckets, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    int c = colors[i];
    atomicAdd(&buckets[c], 1u);
  }
}

// Privatised: the block's own bins in shared memory, a grid-stride loop over the pixels, then
// one global atomic per non-zero bin.
__global__ void histogram_shared(ws::global_array<const int> colors, ws::global_array<unsigned> buckets, unsigned n,
                                 unsigned bins) {
  ws::dynamic_shared<unsigned, "local_bins"> local_bins;
  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) local_bins[b] = 0;
  __syncthreads();
  for (unsigned i = threadIdx.x + blockDim.x * blockIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int c = colors[i];
    atomicAdd(&local_bins[c], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned count = local_bins[b];
    if (count > 0) atomicAdd(&buckets[b], count);
  }
}

// Warp-aggregated: lanes with the same colour elect their lowest lane, which adds for all of them.
__global__ void histogram_warp(ws::global_array<const int> colors, ws::global_array<unsigned> buckets, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  unsigned lane = threadIdx.x % 32;
  unsigned in_range = __ballot_sync(0xffffffffu, i < n);  // the lanes that have a pixel
  if (i < n) {
    int c = colors[i];
    unsigned peers = __match_any_sync(in_range, c);  // the lanes with my colour
    int leader = __ffs(peers) - 1;
    if (int(lane) == leader) atomicAdd(&buckets[c], unsigned(__popc(peers)));
  }
}

// ---------------------------------------------------------------------------------------------
struct HistogramEntry {
  using Input = ws::reference::histogram::Input;
  static uint32_t bins(const ws::RunConfig& c) { return uint32_t(c.param("bins", 256)); }

  static std::string whole_warps(const ws::RunConfig& c) {
    if (c.block.x % 32 == 0) return {};
    return "warp aggregation votes with the full warp mask (__ballot_sync(0xffffffff, ...)): the block size must be a "
           "multiple of 32 (got " + std::to_string(c.block.x) + ")";
  }

  struct Pass {
    ws::Dim3 grid, block;
    ws::global_array<const int> colors;
    ws::global_array<unsigned> buckets;  // zeroed
    unsigned n, bins;
  };

  static auto rows() {
    return std::make_tuple(
        ws::row({.id = "global", .name = "one global atomicAdd per pixel",
                 .summary = "the slide's kernel: lanes with the same colour queue on one bin",
                 .focus = "atomicAdd(&buckets[c], 1u);"},
                [](auto& be, const Pass& p) {
                  return be.launch("histogram_global", p.grid, p.block, 0, histogram_global, p.colors, p.buckets, p.n);
                }),
        ws::row({.id = "shared", .name = "per-block bins in shared memory",
                 .summary = "privatisation: shared atomics per pixel, then one global atomic per bin and block",
                 .grid = {.grid_stride = true}, .focus = "atomicAdd(&local_bins[c], 1u);"},
                [](auto& be, const Pass& p) {
                  return be.launch("histogram_shared", p.grid, p.block, p.bins * uint32_t(sizeof(unsigned)), histogram_shared,
                                   p.colors, p.buckets, p.n, p.bins);
                }),
        ws::row({.id = "warp", .name = "warp-aggregated atomics",
                 .summary = "__match_any_sync groups the lanes of one colour; the lowest adds them all with one atomic",
                 .accepts = whole_warps, .focus = "if (int(lane) == leader) atomicAdd(&buckets[c], unsigned(__popc(peers)));"},
                [](auto& be, const Pass& p) {
                  return be.launch("histogram_warp", p.grid, p.block, 0, histogram_warp, p.colors, p.buckets, p.n);
                }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "histogram";
    s.title = "Histogram: global atomics, shared-memory bins, warp aggregation";
    s.description =
        "Counting colours with one atomicAdd per pixel (the lecture's kernel), with per-block bins in "
        "shared memory, and with warp-aggregated atomics (__match_any_sync), on uniform, one-colour, "
        "image-like and sorted pictures. The analysis counts the lanes that hit one address.";
    s.source = "atomics/histogram.cuh";
    s.lecture = "seed 002 (example: histogram; atomics are slower than normal load/store)";
    s.variants = ws::variant_specs(rows());
    std::vector<std::string> inputs(std::begin(ws::reference::histogram::kInputNames),
                                    std::end(ws::reference::histogram::kInputNames));
    s.params = {
        {"input", "the picture: uniform colours, one colour everywhere, image-like, sorted", 0, 3, 0, inputs},
        {"bins", "number of colours (bins)", 1, 4096, 256, {}},
        {"max_blocks", "grid-size cap of the shared-memory variant's grid-stride loop", 1, 65535, 64, {}},
    };
    s.default_n = 1 << 14;
    s.default_block = 256;
    s.dtypes = {"int"};
    s.arrays = 3;
    s.timing.n = 1 << 24;
    s.timing.sizes = {1 << 20, 1 << 22, 1 << 24, 1 << 26};
    s.timing.params = {{"max_blocks", 1024}};
    s.timing.why = "the shared-memory variant's grid fills the device (about 8 blocks per SM)";
    s.timing.bytes = [](const ws::RunConfig& c) -> uint64_t { return c.n * 4 + uint64_t(bins(c)) * 4; };
    return s;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the histogram kernels use 1D blocks: block must be (x, 1, 1)";
    if (std::string why = ws::check_variant(rows(), c); !why.empty()) return why;
    if (c.n >= (1ull << 32)) return "n = " + std::to_string(c.n) + ": the kernels index with 32-bit unsigned integers (< 4294967296)";
    return {};
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint32_t nbins = bins(c);
    const Input input = Input(c.param("input", 0));
    const std::vector<int> host = ws::reference::histogram::colors(c.n, nbins, input, c.seed);
    ws::global_array<int> colors = be.upload("colors", host);
    ws::global_array<unsigned> buckets = be.template alloc<unsigned>("buckets", nbins);
    be.fill(buckets, 0u);
    const ws::Variant v = *ws::find_variant(rows(), c.variant);
    const Pass p{{v.grid.blocks(c.n, c.block.x, c), 1, 1}, {c.block.x, 1, 1}, colors, buckets, unsigned(c.n), nbins};
    if (!ws::launch_variant(rows(), c.variant, be, p)) return;
    ws::check_exact_elements(out, "buckets", be.download(buckets), ws::reference::histogram::counts(host, nbins),
                             "exact: every bin's count, against a count on the CPU");
  }
};
