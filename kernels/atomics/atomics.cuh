// Atomics (seed 002, "Atomic operations and synchronization"), in the lecture's order:
//   - global maximum: naive (every thread atomicMax on ONE word: "it will be VERY slow"), with
//     regional maxima ("introduce intermediate maximum results, so that most threads do not try
//     to update the global max"), and by reduction ("previous solution (based on reduction) much
//     better!");
//   - a sum with one atomicAdd per thread on a global word ("how many threads will contend for
//     exclusive access to result?"), and hierarchical atomics (per-thread atomicAdd to a
//     __shared__ partial sum, then one atomicAdd per block to the total);
//   - "count the 6s": per-thread counts gathered on the host; every thread doing `*sum += ...`
//     on one global word (broken: updates are lost); a barrier and thread 0 gathering; per-thread
//     counts then one atomicAdd each.
// The analysis shows the contention: atomic_max_same_address is 32 for a warp's atomicAdd on one
// word, and the hierarchical version moves it to shared memory.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "common/checks.h"
#include "ws/run/entry.h"
#include "ws/kernel.cuh"

// ---- global maximum ----------------------------------------------------------------------------
// "If you require the maximum across all threads in a grid, you could do it with a single global
// maximum value, but it will be VERY slow."
__global__ void global_max_naive(ws::global_array<const int> values, ws::global_array<int> gl_max, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    int val = values[i];
    atomicMax(&gl_max[0], val);
  }
}

// Regional maxima: a thread touches the global max only when it raised its region's maximum.
__global__ void global_max_regional(ws::global_array<const int> values, ws::global_array<int> gl_max,
                                    ws::global_array<int> regional_maxes, unsigned num_regions, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    int val = values[i];
    unsigned region = i % num_regions;
    if (atomicMax(&regional_maxes[region], val) < val) {
      atomicMax(&gl_max[0], val);
    }
  }
}

// By reduction: a shared-memory tree per block (sequential addressing, max instead of +); the
// driver launches again on the block maxima until one is left. No atomics at all.
__global__ void max_reduce(ws::global_array<const int> values, ws::global_array<int> block_max, unsigned n) {
  ws::dynamic_shared<int, "smax"> smax;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  smax[tid] = i < n ? int(values[i]) : INT_MIN;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) smax[tid] = max(int(smax[tid]), int(smax[tid + s]));
    __syncthreads();
  }
  if (tid == 0) block_max[blockIdx.x] = smax[0];
}

// ---- sums --------------------------------------------------------------------------------------
// One atomicAdd per thread on one global word: every thread of the grid contends for `result`.
template <class T>
__global__ void sum_atomic(ws::global_array<const T> input, ws::global_array<T> result, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) atomicAdd(&result[0], T(input[i]));
}

// Hierarchical atomics: "Divide & Conquer: per-thread atomicAdd to a __shared__ partial sum,
// per-block atomicAdd to the total sum."
template <class T>
__global__ void sum_hierarchical(ws::global_array<const T> input, ws::global_array<T> result, unsigned n) {
  __shared__ ws::shared_array<T, 1, "partial_sum"> partial_sum;  // shared!
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  // thread 0 is responsible for initializing partial_sum
  if (threadIdx.x == 0) partial_sum[0] = 0;
  __syncthreads();
  // each thread updates the partial sum
  if (i < n) atomicAdd(&partial_sum[0], T(input[i]));
  __syncthreads();
  // thread 0 updates the total sum
  if (threadIdx.x == 0) atomicAdd(&result[0], T(partial_sum[0]));
}

// ---- count the 6s (one block, as in the lecture: compute<<<1, BLOCKSIZE>>>) --------------------
__device__ int compare(int a, int b) {
  if (a == b) return 1;
  return 0;
}

// "Compute individual results for each thread; serialize final results gathering on host."
// The lecture's loop `for (i = 0; i < SIZE/BLOCKSIZE; i++)` runs here while the element exists,
// so n need not be a multiple of the block size.
__global__ void count6_per_thread(ws::global_array<const int> d_in, ws::global_array<int> d_out, unsigned n) {
  d_out[threadIdx.x] = 0;
  for (unsigned i = 0; i * blockDim.x + threadIdx.x < n; i++) {
    int val = d_in[i * blockDim.x + threadIdx.x];
    d_out[threadIdx.x] += compare(val, 6);
  }
}

// BROKEN ON PURPOSE: "What if we computed sum on GPU? Each thread increments the sum variable."
// `*sum += x` is a load and a store: threads that load the same old value overwrite each other's
// increments, and every thread's `*sum = 0` can wipe counts already added.
__global__ void count6_racy(ws::global_array<const int> d_in, ws::global_array<int> sum, unsigned n) {
  sum[0] = 0;
  for (unsigned i = 0; i * blockDim.x + threadIdx.x < n; i++) {
    int val = d_in[i * blockDim.x + threadIdx.x];
    sum[0] += compare(val, 6);
  }
}

// "Gathering results on GPU: barrier synchronization within the block": per-thread counts, then
// thread 0 adds them up after __syncthreads().
__global__ void count6_barrier(ws::global_array<const int> d_in, ws::global_array<int> d_out,
                               ws::global_array<int> d_sum, unsigned n) {
  d_out[threadIdx.x] = 0;
  for (unsigned i = 0; i * blockDim.x + threadIdx.x < n; i++) {
    int val = d_in[i * blockDim.x + threadIdx.x];
    d_out[threadIdx.x] += compare(val, 6);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    d_sum[0] = 0;
    for (unsigned i = 0; i < blockDim.x; i++) d_sum[0] += d_out[i];
  }
}

// "Gathering results on GPU: atomic update to sum variable": per-thread counts, then one
// atomicAdd per thread.
__global__ void count6_atomic(ws::global_array<const int> d_in, ws::global_array<int> d_out,
                              ws::global_array<int> d_sum, unsigned n) {
  d_out[threadIdx.x] = 0;
  for (unsigned i = 0; i * blockDim.x + threadIdx.x < n; i++) {
    int val = d_in[i * blockDim.x + threadIdx.x];
    d_out[threadIdx.x] += compare(val, 6);
  }
  atomicAdd(&d_sum[0], int(d_out[threadIdx.x]));
}

// ---------------------------------------------------------------------------------------------
struct AtomicsEntry {
  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "atomics";
    s.title = "Atomics: global max, atomic sums, count the 6s";
    s.description =
        "Global maximum with one atomicMax per thread, with regional maxima, and by reduction; a sum "
        "with one atomicAdd per thread and with hierarchical (shared, then global) atomics; counting "
        "the 6s with host gathering, a racy `*sum +=`, a barrier, and atomicAdd.";
    s.source = "atomics/atomics.cuh";
    s.lecture = "seed 002 (atomics, resource contention, hierarchical atomics, count 6s)";
    s.variants = {
        {"max", "global max, naive", "every thread atomicMax(gl_max, val): the whole grid queues on one word"},
        {"max-regional", "global max with regional maxima",
         "atomicMax on regional_maxes[i % regions]; only a thread that raised its region touches gl_max"},
        {"max-reduce", "global max by reduction", "shared-memory tree per block, relaunched on the block maxima: no atomics"},
        {"add", "sum: one atomicAdd per thread", "atomicAdd(result, input[i]) from every thread on one global word"},
        {"hier", "sum: hierarchical atomics",
         "atomicAdd to a __shared__ partial sum, then one global atomicAdd per block"},
        {"6cpu", "count 6s: per-thread counts, host gathers",
         "one block; each thread counts its elements into d_out[threadIdx.x]; the host adds d_out"},
        {"6racy", "count 6s: every thread does *sum += ...", "one global word updated with plain load/store", true,
         "lost updates: threads read the same old *sum and overwrite each other (and each thread's *sum = 0 can wipe counts)"},
        {"6barrier", "count 6s: __syncthreads(), thread 0 gathers", "per-thread counts, a barrier, then thread 0 adds d_out"},
        {"6atomic", "count 6s: atomicAdd of per-thread counts", "per-thread counts, then atomicAdd(d_sum, d_out[threadIdx.x])"},
    };
    // max-regional: whether a thread does the second atomicMax depends on the old value it got,
    // i.e. on the order the threads ran (VariantSpec::order_dependent, where the catalog has it).
    auto order_dependent = [](auto& v) {
      if constexpr (requires { v.order_dependent; }) v.order_dependent = true;
    };
    order_dependent(s.variants[1]);
    s.params = {
        {"regions", "number of regional maxima (max-regional)", 1, 1 << 20, 32, {}},
    };
    s.default_n = 1 << 12;
    s.default_block = 256;
    s.dtypes = {"int", "float"};
    return s;
  }

  static bool is_count(const std::string& v) { return v.size() > 1 && v[0] == '6'; }
  static bool is_max(const std::string& v) { return v.rfind("max", 0) == 0; }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the atomics kernels use 1D blocks: block must be (x, 1, 1)";
    const std::string& v = c.variant;
    if (c.dtype == "float" && is_max(v))
      return "CUDA's atomicMax has no float overload (int, unsigned, long long only): variant " + v + " needs dtype int";
    if (c.dtype == "float" && is_count(v)) return "counting 6s works on integers: variant " + v + " needs dtype int";
    if (v == "max-reduce" && (c.block.x & (c.block.x - 1)))
      return "the max tree halves the active threads at every step: the block size must be a power of two (got " +
             std::to_string(c.block.x) + ")";
    if ((v == "add" || v == "hier") && c.dtype == "int" && c.n > 200'000'000)
      return "the int inputs are 0..9: n = " + std::to_string(c.n) + " could overflow a 32-bit int sum (n <= 200000000)";
    if (is_count(v) && c.n > (1u << 22))
      return "the count-6s kernels run ONE block (compute<<<1, BLOCKSIZE>>>) that loops over the array: n <= 4194304 "
             "keeps the run short";
    return {};
  }

  template <class B>
  static void run_max(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<int> host = ws::random_input<int>(c.n, c.seed, -1000000, 1000000);
    int ref = INT_MIN;
    for (int x : host) ref = std::max(ref, x);
    ws::global_array<int> values = be.upload("values", host);
    const uint32_t block = c.block.x;
    const uint32_t blocks = uint32_t((c.n + block - 1) / block);
    const ws::Dim3 grid{blocks, 1, 1}, blk{block, 1, 1};
    int got = 0;
    if (c.variant == "max-reduce") {
      ws::global_array<const int> in = values;
      uint64_t count = c.n;
      for (int pass = 0;; ++pass) {
        const uint32_t nb = uint32_t((count + block - 1) / block);
        ws::global_array<int> bm = be.template alloc<int>(pass == 0 ? "block_max" : "block_max" + std::to_string(pass), nb);
        if (!be.launch("max_reduce", ws::Dim3{nb, 1, 1}, blk, block * uint32_t(sizeof(int)), max_reduce, in, bm, unsigned(count)))
          return;
        if (nb == 1) {
          got = be.download(bm)[0];
          break;
        }
        in = bm;
        count = nb;
      }
    } else {
      ws::global_array<int> gl_max = be.template alloc<int>("gl_max", 1);
      be.fill(gl_max, INT_MIN);
      if (c.variant == "max") {
        if (!be.launch("global_max_naive", grid, blk, 0, global_max_naive, values, gl_max, unsigned(c.n))) return;
      } else {
        const unsigned regions = unsigned(c.param("regions", 32));
        ws::global_array<int> reg = be.template alloc<int>("regional_maxes", regions);
        be.fill(reg, INT_MIN);
        if (!be.launch("global_max_regional", grid, blk, 0, global_max_regional, values, gl_max, reg, regions, unsigned(c.n)))
          return;
      }
      got = be.download(gl_max)[0];
    }
    ws::check_scalar(out, "max", got, double(ref), 0.0, c.n);
  }

  template <class T, class B>
  static void run_sum(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<T> host = std::is_integral_v<T> ? ws::random_input<T>(c.n, c.seed, 0, 9)
                                                      : ws::random_input<T>(c.n, c.seed, -1, 1);
    double ref = 0, abs_sum = 0;
    for (T x : host) ref += double(x), abs_sum += std::fabs(double(x));
    ws::global_array<T> input = be.upload("input", host);
    ws::global_array<T> result = be.template alloc<T>("result", 1);
    be.fill(result, T(0));
    const uint32_t block = c.block.x;
    const ws::Dim3 grid{uint32_t((c.n + block - 1) / block), 1, 1}, blk{block, 1, 1};
    const bool ok = c.variant == "add" ? be.launch("sum_atomic", grid, blk, 0, sum_atomic<T>, input, result, unsigned(c.n))
                                       : be.launch("sum_hierarchical", grid, blk, 0, sum_hierarchical<T>, input, result, unsigned(c.n));
    if (!ok) return;
    // Atomics add in whatever order the threads arrive: the float check uses the any-order bound.
    ws::check_scalar(out, "sum", be.download(result)[0], ref, abs_sum, c.n, ws::SumOrder::Arbitrary);
  }

  template <class B>
  static void run_count(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<int> host = ws::random_input<int>(c.n, c.seed, 0, 9);
    int ref = 0;
    for (int x : host) ref += x == 6;
    ws::global_array<int> d_in = be.upload("d_in", host);
    const uint32_t block = c.block.x;
    const ws::Dim3 grid{1, 1, 1}, blk{block, 1, 1};
    const unsigned n = unsigned(c.n);
    int got = 0;
    if (c.variant == "6racy") {
      ws::global_array<int> sum = be.template alloc<int>("sum", 1);
      if (!be.launch("count6_racy", grid, blk, 0, count6_racy, d_in, sum, n)) return;
      got = be.download(sum)[0];
    } else {
      ws::global_array<int> d_out = be.template alloc<int>("d_out", block);
      if (c.variant == "6cpu") {
        if (!be.launch("count6_per_thread", grid, blk, 0, count6_per_thread, d_in, d_out, n)) return;
        for (int x : be.download(d_out)) got += x;  // the host gathers: for (i < BLOCKSIZE) sum += out[i]
        out.notes.push_back(std::to_string(block) + " per-thread counts added on the CPU");
      } else {
        ws::global_array<int> d_sum = be.template alloc<int>("d_sum", 1);
        be.fill(d_sum, 0);
        const bool ok = c.variant == "6barrier"
                            ? be.launch("count6_barrier", grid, blk, 0, count6_barrier, d_in, d_out, d_sum, n)
                            : be.launch("count6_atomic", grid, blk, 0, count6_atomic, d_in, d_out, d_sum, n);
        if (!ok) return;
        got = be.download(d_sum)[0];
      }
    }
    ws::check_scalar(out, "number of 6s", got, double(ref), 0.0, c.n);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (is_max(c.variant)) run_max(be, c, out);
    else if (is_count(c.variant)) run_count(be, c, out);
    else if (c.dtype == "float") run_sum<float>(be, c, out);
    else run_sum<int>(be, c, out);
  }
};
