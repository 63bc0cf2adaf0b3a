// Single-pass sum with a memory fence and a "last block done" counter (seed 002, "Memory fence
// example"; the CUDA programming guide's __threadfence() example).
//
// Blocks cannot wait for each other, but the LAST block to finish can do the final step: every
// block writes its partial sum, makes it visible to the whole device with __threadfence(), then
// takes a ticket from a global counter with atomicInc. The block that draws ticket gridDim.x - 1
// knows all the other partial sums are in memory and adds them up; it resets the counter so the
// next launch works. Without the fence, the counter's increment could become visible before the
// partial sum it announces.
//
// The counter (`count`, the slide's `__device__ unsigned int count = 0;`) is a global array of
// one element that the driver allocates and zeroes. Any n >= 1: each thread first sums a
// grid-stride slice of the input; blockDim.x must be a power of two (the tree halves it).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "common/checks.h"
#include "reduction/reduce_reference.h"
#include "ws/run/entry.h"
#include "ws/kernel.cuh"

// The block's tree sum of one value per thread (sequential addressing); thread 0 gets the total.
template <class T, class Cache>
__device__ T block_tree_sum(Cache& cache, T v) {
  cache[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
    __syncthreads();
  }
  return threadIdx.x == 0 ? T(cache[0]) : T(0);
}

template <class T>
__global__ void sum_single_pass(ws::global_array<const T> array, unsigned N, ws::global_array<T> result,
                                ws::global_array<unsigned> count) {
  ws::dynamic_shared<T, "cache"> cache;
  __shared__ ws::shared_array<bool, 1, "isLastBlockDone"> isLastBlockDone;

  // Each block sums a subset of the input array (calculatePartialSum).
  T mine = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    mine += array[i];
  T partialSum = block_tree_sum(cache, mine);

  if (threadIdx.x == 0) {
    // Thread 0 of each block stores the partial sum to global memory...
    result[blockIdx.x] = partialSum;
    // ...and makes sure it is visible to all other threads before it signals.
    __threadfence();
    // Thread 0 of each block signals that it is done.
    unsigned value = atomicInc(&count[0], gridDim.x);
    // Thread 0 of each block determines if its block is the last block to be done.
    isLastBlockDone[0] = (value == (gridDim.x - 1));
  }
  // Synchronize to make sure that each thread reads the correct value of isLastBlockDone.
  __syncthreads();

  if (isLastBlockDone[0]) {
    // The last block sums the partial sums stored in result[0 .. gridDim.x-1] (calculateTotalSum).
    T part = 0;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) part += result[i];
    T totalSum = block_tree_sum(cache, part);
    if (threadIdx.x == 0) {
      // Thread 0 of the last block stores the total sum to global memory and resets count so
      // that the next kernel call works properly.
      result[0] = totalSum;
      count[0] = 0;
    }
  }
}

// ---------------------------------------------------------------------------------------------
struct SinglePassEntry {
  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "single_pass";
    s.title = "Single-pass sum: __threadfence() and the last-block-done counter";
    s.description =
        "One launch sums the whole array: every block stores its partial sum, __threadfence(), then "
        "atomicInc on a global counter; the block that draws the last ticket adds all partial sums and "
        "resets the counter.";
    s.source = "reduction/single_pass.cuh";
    s.lecture = "seed 002 (memory fence example)";
    // One variant (so no variant table): the lecture's listing.
    s.variants = {
        {"fence", "threadfence + last block done",
         "partial sum, __threadfence(), atomicInc(&count, gridDim.x): the last block finishes the sum"},
    };
    // Which block does the final sum depends on the order the blocks finish: its accesses differ
    // from run to run.
    s.variants[0].order_dependent = true;
    s.params = {
        {"max_blocks", "grid-size cap (each thread sums a grid-stride slice first)", 1, 65535, 64, {}},
    };
    s.default_n = 1 << 14;
    s.default_block = 256;
    s.dtypes = {"float", "int"};
    s.timing.n = 1 << 24;
    s.timing.sizes = {1 << 20, 1 << 22, 1 << 24, 1 << 26};
    s.timing.params = {{"max_blocks", 1024}};
    s.timing.why = "1024 blocks fill every SM; the lab caps the grid at 64 blocks for the emulator";
    return s;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the single-pass sum uses 1D blocks: block must be (x, 1, 1)";
    const uint32_t b = c.block.x;
    if (b & (b - 1))
      return "the block's tree halves the active threads at every step: the block size must be a power of two (got " +
             std::to_string(b) + ")";
    if (c.dtype == "int" && c.n > 200'000'000)
      return "the int inputs are 0..9: n = " + std::to_string(c.n) + " could overflow a 32-bit int sum (n <= 200000000)";
    return {};
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    // The sum reduction's input and reference (reduction/reduce_reference.h).
    const std::vector<T> host = ws::reference::reduce::input<T>(c.n, c.seed);
    const double ref = ws::reference::sum(host), abs_sum = ws::reference::abs_sum(host);
    const uint32_t block = c.block.x;
    const uint64_t want_blocks = (c.n + block - 1) / block;
    const uint32_t blocks = uint32_t(std::max<uint64_t>(1, std::min<uint64_t>(want_blocks, uint64_t(c.param("max_blocks", 64)))));
    ws::global_array<T> in = be.upload("array", host);
    ws::global_array<T> result = be.template alloc<T>("result", blocks);
    ws::global_array<unsigned> count = be.template alloc<unsigned>("count", 1);
    be.fill_once(count, 0u);  // (the last block resets it: a replay needs no fill)
    if (!be.launch("sum_single_pass", ws::Dim3{blocks, 1, 1}, ws::Dim3{block, 1, 1}, block * uint32_t(sizeof(T)),
                   sum_single_pass<T>, in, unsigned(c.n), result, count))
      return;
    ws::check_scalar(out, "sum", be.download(result)[0], ref, abs_sum, c.n, ws::SumOrder::Tree);
    const unsigned left = be.download(count)[0];
    if (left != 0) {
      out.passed = false;
      out.notes.push_back("the counter was left at " + std::to_string(left) + " instead of being reset to 0");
    } else {
      out.notes.push_back(std::to_string(blocks) + " blocks; the last one to finish added the partial sums and reset count to 0");
    }
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "int") run_typed<int>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
