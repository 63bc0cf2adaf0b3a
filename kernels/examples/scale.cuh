// kernels/examples/scale.cuh — the README's "Writing a kernel" example, kept in the catalog so
// that it always builds and runs.
#pragma once
#include "ws/kernel.cuh"

__global__ void scale(ws::global_array<const float> in, ws::global_array<float> out, unsigned n) {
  __shared__ ws::shared_array<float, 256, "tile"> tile;   // __shared__ float tile[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? float(in[i]) : 0.0f;
  __syncthreads();
  if (i < n) out[i] = 2.0f * tile[threadIdx.x];
}

struct ScaleEntry {
  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "scale";
    s.title = "Scale a vector";
    s.source = "examples/scale.cuh";
    s.variants = {{"1", "through shared memory", "each thread stages its element in a tile"}};
    s.default_n = 1000;
    s.dtypes = {"float"};
    s.timing.n = 1 << 24;
    s.timing.ceiling = ws::TimingSpec::Ceiling::Copy;
    return s;
  }
  static std::string validate(const ws::RunConfig& c) {
    return c.block.x == 256 && c.block.y == 1 ? "" : "scale uses a 256-thread tile: --block must be 256";
  }
  template <class B>  // the same driver runs on the emulator, gpu-fast and gpu-trace
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    std::vector<float> host = ws::random_input<float>(c.n, c.seed, -1, 1);
    auto in = be.upload("in", host);
    auto res = be.template alloc<float>("out", c.n);
    if (!be.launch("scale", {unsigned((c.n + 255) / 256), 1, 1}, c.block, 0, scale, in, res, unsigned(c.n)))
      return;                                          // the fault is already in out.errors
    std::vector<float> got = be.download(res);
    ws::keep_checked(out, "out", got.data(), got.size());  // the test compares it with its own 2 * in
    double err = 0;
    for (size_t k = 0; k < host.size(); ++k) err = std::max(err, double(std::fabs(got[k] - 2 * host[k])));
    out.result = "max |error| = " + std::to_string(err);
    out.expected = "0";
    out.check = "exact (a multiplication by 2 is exact in float)";
    out.passed = err == 0;
  }
};
