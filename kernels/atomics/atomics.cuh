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

#include <climits>
#include <string>
#include <vector>

#include "atomics/atomics_reference.h"
#include "common/checks.h"
#include "common/variant_table.h"
#include "reduction/reduce_reference.h"
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
// The entry. The variants come in three groups with different inputs, arguments and checks (the
// maximum, the sums, the count of 6s): one table each, joined in lecture order by rows().
struct AtomicsEntry {
  // ---- the launch rules: "" or why not ----
  static std::string int_max(const ws::RunConfig& c) {
    if (c.dtype != "float") return {};
    return "CUDA's atomicMax has no float overload (int, unsigned, long long only): variant " + c.variant + " needs dtype int";
  }
  static std::string int_max_tree(const ws::RunConfig& c) {
    if (std::string why = int_max(c); !why.empty()) return why;
    // (One thread a block leaves as many maxima as inputs: the relaunches would never end.)
    if (c.block.x >= 2 && !(c.block.x & (c.block.x - 1))) return {};
    return "the max tree halves the active threads at every step and is relaunched on the block maxima: the "
           "block size must be a power of two from 2 (got " + std::to_string(c.block.x) + ")";
  }
  static std::string sum_fits(const ws::RunConfig& c) {
    if (!(c.dtype == "int" && c.n > 200'000'000)) return {};
    return "the int inputs are 0..9: n = " + std::to_string(c.n) + " could overflow a 32-bit int sum (n <= 200000000)";
  }
  static std::string one_block_count(const ws::RunConfig& c) {
    if (c.dtype == "float") return "counting 6s works on integers: variant " + c.variant + " needs dtype int";
    if (c.n <= (1u << 22)) return {};
    return "the count-6s kernels run ONE block (compute<<<1, BLOCKSIZE>>>) that loops over the array: n <= 4194304 "
           "keeps the run short";
  }

  // ---- global maximum (int) ----
  struct MaxPass {
    ws::Dim3 grid, block;
    ws::global_array<const int> values;
    unsigned n, regions;
    int got = 0;  // the maximum the variant found
  };

  // gl_max, initialised to INT_MIN.
  template <class B>
  static ws::global_array<int> global_max_word(B& be) {
    ws::global_array<int> gl_max = be.template alloc<int>("gl_max", 1);
    be.fill(gl_max, INT_MIN);
    return gl_max;
  }

  // The maximum by reduction: max_reduce again on the block maxima until one block is left.
  template <class B>
  static bool max_by_reduction(B& be, MaxPass& p) {
    ws::global_array<const int> in = p.values;
    uint64_t count = p.n;
    for (int pass = 0;; ++pass) {
      const uint32_t nb = uint32_t((count + p.block.x - 1) / p.block.x);
      ws::global_array<int> bm = be.template alloc<int>(pass == 0 ? "block_max" : "block_max" + std::to_string(pass), nb);
      if (!be.launch("max_reduce", ws::Dim3{nb, 1, 1}, p.block, p.block.x * uint32_t(sizeof(int)), max_reduce, in, bm,
                     unsigned(count)))
        return false;
      if (nb == 1) {
        p.got = be.download(bm)[0];
        return true;
      }
      in = bm;
      count = nb;
    }
  }

  static auto max_rows() {
    return std::make_tuple(
        ws::row({.id = "max", .name = "global max, naive",
                 .summary = "every thread atomicMax(gl_max, val): the whole grid queues on one word", .accepts = int_max},
                [](auto& be, MaxPass& p) {
                  ws::global_array<int> gl_max = global_max_word(be);
                  if (!be.launch("global_max_naive", p.grid, p.block, 0, global_max_naive, p.values, gl_max, p.n)) return false;
                  p.got = be.download(gl_max)[0];
                  return true;
                }),
        // Whether a thread does the second atomicMax depends on the old value it got, i.e. on the
        // order the threads ran: order_dependent.
        ws::row({.id = "max-regional", .name = "global max with regional maxima",
                 .summary = "atomicMax on regional_maxes[i % regions]; only a thread that raised its region touches gl_max",
                 .order_dependent = true, .accepts = int_max},
                [](auto& be, MaxPass& p) {
                  ws::global_array<int> gl_max = global_max_word(be);
                  ws::global_array<int> reg = be.template alloc<int>("regional_maxes", p.regions);
                  be.fill(reg, INT_MIN);
                  if (!be.launch("global_max_regional", p.grid, p.block, 0, global_max_regional, p.values, gl_max, reg,
                                 p.regions, p.n))
                    return false;
                  p.got = be.download(gl_max)[0];
                  return true;
                }),
        ws::row({.id = "max-reduce", .name = "global max by reduction",
                 .summary = "shared-memory tree per block, relaunched on the block maxima: no atomics", .accepts = int_max_tree},
                [](auto& be, MaxPass& p) { return max_by_reduction(be, p); }));
  }

  // ---- sums (int or float) ----
  template <class T>
  struct SumPass {
    ws::Dim3 grid, block;
    ws::global_array<const T> input;
    ws::global_array<T> result;  // zeroed
    unsigned n;
  };

  template <class T>
  static auto sum_rows() {
    using P = SumPass<T>;
    return std::make_tuple(
        ws::row({.id = "add", .name = "sum: one atomicAdd per thread",
                 .summary = "atomicAdd(result, input[i]) from every thread on one global word", .accepts = sum_fits},
                [](auto& be, const P& p) { return be.launch("sum_atomic", p.grid, p.block, 0, sum_atomic<T>, p.input, p.result, p.n); }),
        ws::row({.id = "hier", .name = "sum: hierarchical atomics",
                 .summary = "atomicAdd to a __shared__ partial sum, then one global atomicAdd per block", .accepts = sum_fits},
                [](auto& be, const P& p) {
                  return be.launch("sum_hierarchical", p.grid, p.block, 0, sum_hierarchical<T>, p.input, p.result, p.n);
                }));
  }

  // ---- count the 6s (int, one block) ----
  struct CountPass {
    ws::Dim3 grid, block;  // one block, as in the lecture: compute<<<1, BLOCKSIZE>>>
    ws::global_array<const int> d_in;
    unsigned n;
    std::vector<std::string>& notes;
    int got = 0;  // the count the variant found
  };

  // d_out[blockDim.x] for the per-thread counts and d_sum, zeroed, for the gathered total.
  template <class B>
  static std::pair<ws::global_array<int>, ws::global_array<int>> counts_and_sum(B& be, const CountPass& p) {
    ws::global_array<int> d_out = be.template alloc<int>("d_out", p.block.x);
    ws::global_array<int> d_sum = be.template alloc<int>("d_sum", 1);
    be.fill(d_sum, 0);
    return {d_out, d_sum};
  }

  static auto count_rows() {
    return std::make_tuple(
        ws::row({.id = "6cpu", .name = "count 6s: per-thread counts, host gathers",
                 .summary = "one block; each thread counts its elements into d_out[threadIdx.x]; the host adds d_out",
                 .accepts = one_block_count},
                [](auto& be, CountPass& p) {
                  ws::global_array<int> d_out = be.template alloc<int>("d_out", p.block.x);
                  if (!be.launch("count6_per_thread", p.grid, p.block, 0, count6_per_thread, p.d_in, d_out, p.n)) return false;
                  for (int x : be.download(d_out)) p.got += x;  // the host gathers: for (i < BLOCKSIZE) sum += out[i]
                  p.notes.push_back(std::to_string(p.block.x) + " per-thread counts added on the CPU");
                  return true;
                }),
        ws::row({.id = "6racy", .name = "count 6s: every thread does *sum += ...",
                 .summary = "one global word updated with plain load/store", .broken = true,
                 .broken_note = "lost updates: threads read the same old *sum and overwrite each other (and each "
                                "thread's *sum = 0 can wipe counts)",
                 .accepts = one_block_count},
                [](auto& be, CountPass& p) {
                  ws::global_array<int> sum = be.template alloc<int>("sum", 1);
                  if (!be.launch("count6_racy", p.grid, p.block, 0, count6_racy, p.d_in, sum, p.n)) return false;
                  p.got = be.download(sum)[0];
                  return true;
                }),
        ws::row({.id = "6barrier", .name = "count 6s: __syncthreads(), thread 0 gathers",
                 .summary = "per-thread counts, a barrier, then thread 0 adds d_out", .accepts = one_block_count},
                [](auto& be, CountPass& p) {
                  auto [d_out, d_sum] = counts_and_sum(be, p);
                  if (!be.launch("count6_barrier", p.grid, p.block, 0, count6_barrier, p.d_in, d_out, d_sum, p.n)) return false;
                  p.got = be.download(d_sum)[0];
                  return true;
                }),
        ws::row({.id = "6atomic", .name = "count 6s: atomicAdd of per-thread counts",
                 .summary = "per-thread counts, then atomicAdd(d_sum, d_out[threadIdx.x])", .accepts = one_block_count},
                [](auto& be, CountPass& p) {
                  auto [d_out, d_sum] = counts_and_sum(be, p);
                  if (!be.launch("count6_atomic", p.grid, p.block, 0, count6_atomic, p.d_in, d_out, d_sum, p.n)) return false;
                  p.got = be.download(d_sum)[0];
                  return true;
                }));
  }

  // Every variant, in the lecture's order.
  template <class T>
  static auto rows() {
    return std::tuple_cat(max_rows(), sum_rows<T>(), count_rows());
  }

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
    s.variants = ws::variant_specs(rows<int>());
    s.params = {
        {"regions", "number of regional maxima (max-regional)", 1, 1 << 20, 32, {}},
    };
    s.default_n = 1 << 12;
    s.default_block = 256;
    s.dtypes = {"int", "float"};
    s.timing.n = 1 << 22;
    s.timing.sizes = {1 << 18, 1 << 20, 1 << 22, 1 << 24};
    return s;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the atomics kernels use 1D blocks: block must be (x, 1, 1)";
    return ws::check_variant(rows<int>(), c);
  }

  template <class B>
  static void run_max(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<int> host = ws::reference::atomics::max_input(c.n, c.seed);
    ws::global_array<int> values = be.upload("values", host);
    const uint32_t block = c.block.x;
    MaxPass p{{ws::find_variant(max_rows(), c.variant)->grid.blocks(c.n, block, c), 1, 1}, {block, 1, 1}, values,
              unsigned(c.n), unsigned(c.param("regions", 32))};
    if (!ws::launch_variant(max_rows(), c.variant, be, p)) return;
    ws::check_scalar(out, "max", p.got, double(ws::reference::atomics::maximum(host)), 0.0, c.n);
  }

  template <class T, class B>
  static void run_sum(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<T> host = ws::reference::reduce::input<T>(c.n, c.seed);
    ws::global_array<T> input = be.upload("input", host);
    ws::global_array<T> result = be.template alloc<T>("result", 1);
    be.fill(result, T(0));
    const uint32_t block = c.block.x;
    const SumPass<T> p{{ws::find_variant(sum_rows<T>(), c.variant)->grid.blocks(c.n, block, c), 1, 1}, {block, 1, 1}, input,
                       result, unsigned(c.n)};
    if (!ws::launch_variant(sum_rows<T>(), c.variant, be, p)) return;
    // Atomics add in whatever order the threads arrive: the float check uses the any-order bound.
    ws::check_scalar(out, "sum", be.download(result)[0], ws::reference::sum(host), ws::reference::abs_sum(host), c.n,
                     ws::SumOrder::Arbitrary);
  }

  template <class B>
  static void run_count(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<int> host = ws::reference::atomics::count_input(c.n, c.seed);
    ws::global_array<int> d_in = be.upload("d_in", host);
    CountPass p{{1, 1, 1}, {c.block.x, 1, 1}, d_in, unsigned(c.n), out.notes};
    if (!ws::launch_variant(count_rows(), c.variant, be, p)) return;
    ws::check_scalar(out, "number of 6s", p.got, double(ws::reference::atomics::count(host, 6)), 0.0, c.n);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (ws::find_variant(max_rows(), c.variant)) run_max(be, c, out);
    else if (ws::find_variant(count_rows(), c.variant)) run_count(be, c, out);
    else if (c.dtype == "float") run_sum<float>(be, c, out);
    else run_sum<int>(be, c, out);
  }
};
