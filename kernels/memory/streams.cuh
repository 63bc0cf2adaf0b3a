// The streams demo's kernel (seed 002, "Asynchronous data transfers"; seed 000, "kernel launches
// are asynchronous"): `work` rounds of arithmetic on every element of an array, launched once over
// the whole array or once per chunk. On a GPU the lesson runs the chunks in several streams with
// cudaMemcpyAsync from pinned memory and records copies and kernels on one time axis (warpscope
// streams, the Stream timeline view: backends/gpu/src/streams.cu); here every backend runs the
// launches in order, so the views show each chunk's launch and the emulator and the GPU agree on
// what they compute.
//
//   warpscope run -k streams -v chunked --param chunks=8
#pragma once

#include <string>
#include <vector>

#include "common/checks.h"
#include "common/variant_table.h"
#include "memory/streams_reference.h"
#include "ws/kernel.cuh"

// One chunk of `count` elements (the driver passes `data + offset`, as the lecture's
// `d_data + offset`), a grid-stride loop.
__global__ void scale_chunk(ws::global_array<float> chunk, unsigned count, unsigned work) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += blockDim.x * gridDim.x) {
    float y = chunk[i];
    for (unsigned k = 0; k < work; ++k) y = __fmaf_rn(y, 0.999f, 0.5f);
    chunk[i] = y;
  }
}

// ---------------------------------------------------------------------------------------------
struct StreamsEntry {
  static uint32_t chunks(const ws::RunConfig& c) { return uint32_t(c.param("chunks", 8)); }
  static uint32_t work(const ws::RunConfig& c) { return uint32_t(c.param("work", 8)); }

  struct Pass {
    ws::Dim3 block;
    ws::global_array<float> data;
    unsigned n, chunks, work, max_blocks;
  };
  // The grid of a launch over `count` elements (a grid-stride loop: at most max_blocks blocks).
  static ws::Dim3 grid_for(uint64_t count, const Pass& p) {
    return {uint32_t(std::max<uint64_t>(1, std::min<uint64_t>((count + p.block.x - 1) / p.block.x, p.max_blocks))), 1, 1};
  }

  static auto rows() {
    return std::make_tuple(
        ws::row({.id = "whole", .name = "one launch over the whole array",
                 .summary = "copy in, one kernel, copy out: on a GPU nothing overlaps",
                 .grid = {.single_launch = true},
                 .focus = "float y = chunk[i];"},
                [](auto& be, const Pass& p) {
                  return be.launch("scale_chunk", grid_for(p.n, p), p.block, 0, scale_chunk, p.data, p.n, p.work);
                }),
        ws::row({.id = "chunked", .name = "one launch per chunk",
                 .summary = "what the streams version launches: on a GPU each chunk in its own stream, under the copies",
                 .grid = {.single_launch = true},
                 .focus = "float y = chunk[i];"},
                [](auto& be, const Pass& p) {
                  const unsigned per = p.n / p.chunks;
                  for (unsigned c = 0; c < p.chunks; ++c)
                    if (!be.launch("scale_chunk", grid_for(per, p), p.block, 0, scale_chunk, p.data + int64_t(c) * per, per,
                                   p.work))
                      return false;
                  return true;
                }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "streams";
    s.title = "Streams: the kernel of the asynchronous-copies lesson";
    s.description =
        "Rounds of arithmetic on every element, launched once or once per chunk. On a GPU, `warpscope "
        "streams` and the Stream timeline view run the chunks over several streams with cudaMemcpyAsync "
        "and show copies and kernels overlapping on one time axis.";
    s.source = "memory/streams.cuh";
    s.lecture = "seed 002 (asynchronous data transfers), seed 000 (the CPU-GPU pipeline)";
    s.variants = ws::variant_specs(rows());
    s.params = {
        {"chunks", "pieces the chunked variant cuts the array into (must divide n)", 1, 4096, 8, {}},
        {"work", "rounds of y = fma(y, 0.999, 0.5) per element", 1, 100000, 8, {}},
        {"max_blocks", "grid-size cap of each launch's grid-stride loop", 1, 65535, 64, {}},
    };
    s.default_n = 4096;
    s.default_block = 256;
    s.dtypes = {"float"};
    s.arrays = 3;
    s.timing.n = 1 << 24;
    s.timing.sizes = {1 << 20, 1 << 22, 1 << 24};
    s.timing.params = {{"work", 2048}, {"max_blocks", 1056}};
    s.timing.why = "the recording's kernel: 2048 rounds (about the copies' time on an H100), a grid that fills the device";
    s.timing.flops = [](const ws::RunConfig& c) { return 2.0 * double(c.n) * double(work(c)); };
    s.timing.ceiling = ws::TimingSpec::Ceiling::Fp32;
    return s;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the streams kernel uses 1D blocks: block must be (x, 1, 1)";
    if (c.n >= (1ull << 32)) return "n = " + std::to_string(c.n) + ": the kernel indexes with 32-bit unsigned integers (< 4294967296)";
    if (c.variant == "chunked" && c.n % chunks(c))
      return "n = " + std::to_string(c.n) + " is not a multiple of chunks = " + std::to_string(chunks(c)) +
             ": each chunk must be the same size (e.g. n = " + std::to_string((c.n / chunks(c) + 1) * chunks(c)) + ")";
    if (c.variant == "chunked" && chunks(c) > c.n)
      return "chunks = " + std::to_string(chunks(c)) + " for n = " + std::to_string(c.n) + ": a chunk needs at least one element";
    return ws::check_variant(rows(), c);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<float> host = ws::reference::streams::input(c.n);
    ws::global_array<float> data = be.upload("data", host);
    const Pass p{{c.block.x, 1, 1}, data, unsigned(c.n), c.variant == "chunked" ? chunks(c) : 1u, work(c),
                 unsigned(c.param("max_blocks", 64))};
    if (!ws::launch_variant(rows(), c.variant, be, p)) return;
    ws::check_exact_elements(out, "data", be.download(data), ws::reference::streams::scaled(host, work(c)),
                             "exact: the same fused multiply-adds on the CPU (std::fma, correctly rounded as __fmaf_rn)");
  }
};
