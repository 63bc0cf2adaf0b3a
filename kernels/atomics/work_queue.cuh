// Work queue (seed 002, "Example: Workqueue": "for algorithms where the amount of work per item is
// highly non-uniform, it often makes sense to continuously grab work from a queue"). Each item
// carries a loop count; do_work runs that many rounds, each reading a coefficient (so the
// divergence timeline shows every round, and the lanes that idle while a neighbour still works).
//   static      : one item per thread (no queue): a warp lasts as long as its longest item.
//   static-loop : a fixed grid, each thread takes items i, i + stride, ...: the same assignment
//                 decided in advance, so one unlucky thread gets several long items.
//   queue       : the same fixed grid; each thread takes the next item with an atomic on the queue
//                 counter when it is done (the slide's atomicInc(q_counter, queue_max), with a
//                 counter that does not wrap: atomicAdd(q_counter, 1)).
//   queue-warp  : one atomic per warp takes 32 items at once (32 times fewer atomics; a warp
//                 again waits for its longest item).
// Parameter `work`: equal, skewed (one item in eight 16x longer), heavy-tail (1 to 1024 rounds).
#pragma once

#include <string>
#include <vector>

#include "atomics/work_queue_reference.h"
#include "common/checks.h"
#include "common/variant_table.h"
#include "ws/kernel.cuh"

__device__ unsigned do_work(unsigned item, unsigned iterations, ws::global_array<const unsigned> coeffs) {
  unsigned x = item;
  for (unsigned k = 0; k < iterations; ++k) x = x * 1664525u + coeffs[k % 16];
  return x;
}

__global__ void work_static(ws::global_array<const unsigned> work_q, ws::global_array<unsigned> output,
                            ws::global_array<const unsigned> coeffs, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) output[i] = do_work(i, work_q[i], coeffs);
}

__global__ void work_static_loop(ws::global_array<const unsigned> work_q, ws::global_array<unsigned> output,
                                 ws::global_array<const unsigned> coeffs, unsigned n) {
  for (unsigned q = threadIdx.x + blockDim.x * blockIdx.x; q < n; q += blockDim.x * gridDim.x)
    output[q] = do_work(q, work_q[q], coeffs);
}

__global__ void work_queue(ws::global_array<const unsigned> work_q, ws::global_array<unsigned> output,
                           ws::global_array<const unsigned> coeffs, ws::global_array<unsigned> q_counter, unsigned n) {
  for (unsigned q = atomicAdd(&q_counter[0], 1u); q < n; q = atomicAdd(&q_counter[0], 1u))
    output[q] = do_work(q, work_q[q], coeffs);
}

__global__ void work_queue_warp(ws::global_array<const unsigned> work_q, ws::global_array<unsigned> output,
                                ws::global_array<const unsigned> coeffs, ws::global_array<unsigned> q_counter, unsigned n) {
  unsigned lane = threadIdx.x % 32;
  while (true) {
    unsigned base = 0;
    if (lane == 0) base = atomicAdd(&q_counter[0], 32u);  // 32 items for the warp
    base = __shfl_sync(0xffffffffu, base, 0);
    if (base >= n) break;
    unsigned q = base + lane;
    if (q < n) output[q] = do_work(q, work_q[q], coeffs);
  }
}

// ---------------------------------------------------------------------------------------------
struct WorkQueueEntry {
  using Work = ws::reference::work_queue::Work;

  static std::string whole_warps(const ws::RunConfig& c) {
    if (c.block.x % 32 == 0) return {};
    return "the warp takes 32 items and broadcasts them with __shfl_sync(0xffffffff, ...): the block size must be a "
           "multiple of 32 (got " + std::to_string(c.block.x) + ")";
  }

  struct Pass {
    ws::Dim3 grid, block;
    ws::global_array<const unsigned> work, coeffs;
    ws::global_array<unsigned> output, counter;  // counter zeroed
    unsigned n;
  };

  static auto rows() {
    return std::make_tuple(
        ws::row({.id = "static", .name = "one item per thread",
                 .summary = "no queue: each warp lasts as long as its longest item", .focus = "x = x * 1664525u + coeffs[k % 16]"},
                [](auto& be, const Pass& p) {
                  return be.launch("work_static", p.grid, p.block, 0, work_static, p.work, p.output, p.coeffs, p.n);
                }),
        ws::row({.id = "static-loop", .name = "fixed grid, items assigned in advance",
                 .summary = "thread t takes items t, t + stride, ...: long items pile up on unlucky threads",
                 .grid = {.grid_stride = true}, .focus = "x = x * 1664525u + coeffs[k % 16]"},
                [](auto& be, const Pass& p) {
                  return be.launch("work_static_loop", p.grid, p.block, 0, work_static_loop, p.work, p.output, p.coeffs, p.n);
                }),
        ws::row({.id = "queue", .name = "fixed grid, items taken from a queue",
                 .summary = "each thread takes the next item with atomicAdd(q_counter, 1) when it is done",
                 .order_dependent = true, .grid = {.grid_stride = true},
                 .focus = "for (unsigned q = atomicAdd(&q_counter[0], 1u); q < n; q = atomicAdd(&q_counter[0], 1u))"},
                [](auto& be, const Pass& p) {
                  return be.launch("work_queue", p.grid, p.block, 0, work_queue, p.work, p.output, p.coeffs, p.counter, p.n);
                }),
        ws::row({.id = "queue-warp", .name = "fixed grid, 32 items per warp from the queue",
                 .summary = "one atomicAdd(q_counter, 32) per warp: fewer atomics, but a warp waits for its longest item",
                 .order_dependent = true, .accepts = whole_warps, .grid = {.grid_stride = true},
                 .focus = "if (lane == 0) base = atomicAdd(&q_counter[0], 32u);"},
                [](auto& be, const Pass& p) {
                  return be.launch("work_queue_warp", p.grid, p.block, 0, work_queue_warp, p.work, p.output, p.coeffs,
                                   p.counter, p.n);
                }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "workqueue";
    s.title = "Work queue: static assignment vs items taken with an atomic";
    s.description =
        "Items with very different work (loop counts: equal, skewed, heavy-tailed), done one per "
        "thread, assigned in advance to a fixed grid, or taken from a queue with atomicAdd (per "
        "thread or 32 per warp). The divergence timeline shows lanes idling beside long items.";
    s.source = "atomics/work_queue.cuh";
    s.lecture = "seed 002 (example: workqueue; blocks may coordinate but not synchronize)";
    s.variants = ws::variant_specs(rows());
    std::vector<std::string> kinds(std::begin(ws::reference::work_queue::kWorkNames),
                                   std::end(ws::reference::work_queue::kWorkNames));
    s.params = {
        {"work", "work per item: equal, skewed (1 in 8 items 16x longer), heavy-tail (1 to 1024 rounds)", 0, 2, 1, kinds},
        {"max_blocks", "the fixed grid of the static-loop and queue variants", 1, 65535, 4, {}},
    };
    s.default_n = 2048;
    s.default_block = 128;
    s.dtypes = {"int"};  // (items and results are unsigned; no element type to choose)
    s.arrays = 3;
    s.timing.n = 1 << 22;
    s.timing.sizes = {1 << 18, 1 << 20, 1 << 22};
    s.timing.params = {{"max_blocks", 1056}};
    s.timing.why = "the fixed grid fills the device: 8 blocks on each of 132 SMs";
    return s;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the work-queue kernels use 1D blocks: block must be (x, 1, 1)";
    if (c.n >= (1ull << 31)) return "n = " + std::to_string(c.n) + ": the queue counter must not pass 4294967295 (n < 2147483648)";
    return ws::check_variant(rows(), c);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    namespace ref = ws::reference::work_queue;
    const std::vector<unsigned> work = ref::work(c.n, Work(c.param("work", 1)), c.seed);
    const std::vector<unsigned> coeffs = ref::coefficients();
    ws::global_array<unsigned> d_work = be.upload("work_q", work);
    ws::global_array<unsigned> d_coeffs = be.upload("coeffs", coeffs);
    ws::global_array<unsigned> d_out = be.template alloc<unsigned>("output", c.n);
    ws::global_array<unsigned> d_counter = be.template alloc<unsigned>("q_counter", 1);
    be.fill(d_counter, 0u);
    const ws::Variant v = *ws::find_variant(rows(), c.variant);
    const Pass p{{v.grid.blocks(c.n, c.block.x, c), 1, 1}, {c.block.x, 1, 1}, d_work, d_coeffs, d_out, d_counter, unsigned(c.n)};
    if (!ws::launch_variant(rows(), c.variant, be, p)) return;
    std::vector<unsigned> want(c.n);
    for (uint64_t q = 0; q < c.n; ++q) want[q] = ref::result(unsigned(q), work[q], coeffs);
    ws::check_exact_elements(out, "output", be.download(d_out), want, "exact: every item's do_work result, computed on the CPU");
  }
};
