// Recording overhead of gpu-trace over gpu-fast, for the reduction kernels at n = 2^24:
//   grouping (recording armed, nothing switched on: the cost of the recording build itself),
//   counters only (every block counted on the device, nothing recorded in full),
//   full records for 1 block (+ counters), full records for 1 block only (no counters:
//   RunConfig::count_every_block = false, `--no-counters`), full records for every block (+ counters).
// Targets: counters only <= 3x, full records for a few blocks <= 5x.
//
//   build/bench/bench_gpu_trace [n]
#define WS_GPU_TRACE 1
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_cuda.h"
#include "bench_gpu_trace.h"
#include <cub/device/device_reduce.cuh>  // reduce.cuh calls CUB: before the kernel API
#include "preamble.h"

namespace traced {
#include "reduction/reduce.cuh"
}  // namespace traced
using namespace traced;


namespace {

void launch_trace(int variant, unsigned blocks, unsigned threads, const int* in, int* out, unsigned n) {
  ws::global_array<const int> a(in, n, 0);
  ws::global_array<int> b(out, n, 1);
  switch (variant) {
    case 3: reduce3<int><<<blocks, threads, threads * 4>>>(a, b, n); break;
    case 6: reduce6<256, int><<<blocks, threads>>>(a, b, n); break;
    case 8: reduce8<int><<<blocks, threads>>>(a, b, n); break;
  }
}

struct Buffers {
  ws::gpu_trace::Control host{};
  ws::gpu_trace::Control* control = nullptr;
  uint32_t* bitmap = nullptr;
  size_t words = 0;
};

// Rows of the per-warp-slot site tables (Control::counters and Control::counter_keys).
size_t counter_rows(unsigned sm_count) {
  return size_t(sm_count) * ws::gpu_trace::kWarpSlotsPerSm * ws::gpu_trace::kCounterSlots;
}

unsigned long long reserved_total(const Buffers& b) {
  std::vector<unsigned long long> r(b.host.sm_count);
  CHECK(cudaMemcpy(r.data(), b.host.sm_reserved, r.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  unsigned long long t = 0;
  for (auto x : r) t += x;
  return t;
}

// An empty record buffer: no reservation made, no chunk handed out.
void clear_records(Buffers& b) {
  CHECK(cudaMemset(b.host.sm_reserved, 0, b.host.sm_count * sizeof(unsigned long long)));
  CHECK(cudaMemset(b.host.next_chunk, 0, sizeof(unsigned long long)));
  CHECK(cudaMemset(b.host.sm_chunk, 0, b.host.sm_count * b.host.chunks * sizeof(unsigned long long)));
}

// Points the kernels' control block at a fresh recording: `full` = 0 blocks, 1 block, or all.
void arm(Buffers& b, unsigned blocks, int full, bool counters) {
  std::vector<uint32_t> bits(b.words, 0);
  if (full == 1) bits[0] = 1;
  if (full == 2)
    for (unsigned i = 0; i < blocks; ++i) bits[i / 32] |= 1u << (i % 32);
  CHECK(cudaMemcpy(b.bitmap, bits.data(), b.words * 4, cudaMemcpyHostToDevice));
  b.host.counters_enabled = counters ? 1 : 0;
  b.host.full_blocks = full ? b.bitmap : nullptr;  // no block in full: accesses skip the bitmap
  const size_t rows = counter_rows(b.host.sm_count);
  CHECK(cudaMemset(b.host.counters, 0, rows * sizeof(ws::gpu_trace::SiteCounter)));
  CHECK(cudaMemset(b.host.counter_keys, 0, rows * sizeof(unsigned long long)));
  clear_records(b);
  CHECK(cudaMemcpy(b.control, &b.host, sizeof b.host, cudaMemcpyHostToDevice));
  CHECK(ws::trace_rt::set_control(b.control, b.host));
  CHECK(cudaDeviceSynchronize());
}


}  // namespace

int main(int argc, char** argv) {
  const unsigned n = argc > 1 ? unsigned(std::strtoul(argv[1], nullptr, 0)) : (1u << 24);
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::vector<int> host(n);
  for (unsigned i = 0; i < n; ++i) host[i] = int((i * 2654435761u) >> 28);
  int *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, size_t(n) * 4));
  CHECK(cudaMalloc(&out, size_t(n) * 4));
  CHECK(cudaMemcpy(in, host.data(), size_t(n) * 4, cudaMemcpyHostToDevice));

  Buffers b;
  b.host.sm_count = unsigned(prop.multiProcessorCount);
  b.host.chunks = (1ull << 20) / ws::gpu_trace::kChunk;
  b.host.capacity = b.host.chunks * ws::gpu_trace::kChunk;
  CHECK(cudaMalloc(&b.host.records, b.host.capacity * sizeof(ws::gpu_trace::Record)));
  CHECK(cudaMalloc(&b.host.sm_reserved, b.host.sm_count * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&b.host.next_chunk, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&b.host.sm_chunk, b.host.sm_count * b.host.chunks * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&b.host.counters, counter_rows(b.host.sm_count) * sizeof(ws::gpu_trace::SiteCounter)));
  CHECK(cudaMalloc(&b.host.counter_keys, counter_rows(b.host.sm_count) * sizeof(unsigned long long)));
  b.words = (n / 64 + 32) / 32 + 1;
  CHECK(cudaMalloc(&b.bitmap, b.words * 4));
  b.host.full_blocks = b.bitmap;
  b.host.full_block_words = uint32_t(b.words);
  CHECK(cudaMalloc(&b.control, sizeof b.host));

  std::printf("gpu-trace overhead on %s, n = %u ints, median of 31 runs (first pass of each kernel)\n", prop.name, n);
  std::printf("%-22s %9s %9s %11s %11s %12s %12s   %s\n", "kernel", "fast ms", "grouping x", "counters x", "1 block x",
              "1 block only", "all blocks x", "records (all)");
  struct Case {
    int variant;
    const char* name;
    unsigned blocks, threads;
  } cases[] = {{3, "reduce3 (sequential)", (n + 255) / 256, 256},
               {6, "reduce6<256>", (n + 511) / 512, 256},
               {8, "reduce8 (shuffles)", unsigned(prop.multiProcessorCount) * 8, 256}};
  for (const Case& c : cases) {
    const float fast = median_ms([&] { launch_fast(c.variant, c.blocks, c.threads, in, out, n); });
    arm(b, c.blocks, 0, false);
    const float bare = median_ms([&] { launch_trace(c.variant, c.blocks, c.threads, in, out, n); });
    arm(b, c.blocks, 0, true);
    const float counters = median_ms([&] { launch_trace(c.variant, c.blocks, c.threads, in, out, n); });
    // Runs with full records clear the reservation counters first, so that every repetition
    // starts with an empty buffer (the clear is inside the timed region of each such column).
    auto recorded = [&] {
      clear_records(b);
      launch_trace(c.variant, c.blocks, c.threads, in, out, n);
    };
    arm(b, c.blocks, 1, true);
    const float one = median_ms(recorded);
    arm(b, c.blocks, 1, false);  // RunConfig::count_every_block = false (`--no-counters`)
    const float one_only = median_ms(recorded);
    arm(b, c.blocks, 2, true);
    const float all = median_ms(recorded);
    const unsigned long long reserved = reserved_total(b);
    std::printf("%-22s %9.4f %9.2f %11.2f %11.2f %12.2f %12.2f   %llu reserved (%s)\n", c.name, fast, bare / fast,
                counters / fast, one / fast, one_only / fast, all / fast, reserved,
                reserved > b.host.capacity ? "buffer full: the rest counted as dropped" : "all kept");
  }
  return 0;
}
