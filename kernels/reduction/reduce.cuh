// Sum reduction: Mark Harris's seven steps exactly as the lecture numbers them (seed 003), then the
// warp-shuffle refinement (seed 001's "safe further refinement") and 16-byte vector loads.
//
// Every kernel reduces the n elements of g_idata to one partial sum per block in g_odata; the
// driver launches again on the partial sums until one block is left, so the whole sum is done on
// the device. Elements past n count as 0, so any n >= 1 works.
#pragma once

#include <cstring>

#if defined(__CUDACC__)
#include <cub/device/device_reduce.cuh>  // before ws/kernel.cuh: gpu-trace redefines __syncthreads
#endif

#include "common/checks.h"
#include "ws/run/entry.h"
#include "ws/kernel.cuh"

// ---------------------------------------------------------------------------------------------
// Step 1: interleaved addressing with divergent branching. `tid % (2*s)` keeps every other lane
// of a warp busy, then every fourth...: the warps diverge at every step.
template <class T>
__global__ void reduce1(ws::global_array<const T> g_idata, ws::global_array<T> g_odata, unsigned n) {
  ws::dynamic_shared<T, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? T(g_idata[i]) : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Step 2: interleaved addressing with bank conflicts. Contiguous threads do the work (no
// divergence until the last warp), but `index = 2*s*tid` strides through shared memory:
// 2-way bank conflicts at s = 1, 4-way at s = 2, ...
template <class T>
__global__ void reduce2(ws::global_array<const T> g_idata, ws::global_array<T> g_odata, unsigned n) {
  ws::dynamic_shared<T, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? T(g_idata[i]) : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Step 3: sequential addressing. Reversed loop, thread-indexed: conflict free.
template <class T>
__global__ void reduce3(ws::global_array<const T> g_idata, ws::global_array<T> g_odata, unsigned n) {
  ws::dynamic_shared<T, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? T(g_idata[i]) : T(0);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Step 4: first add during the global load. Half the blocks; no thread idles in the first step.
template <class T>
__global__ void reduce4(ws::global_array<const T> g_idata, ws::global_array<T> g_odata, unsigned n) {
  ws::dynamic_shared<T, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T sum = i < n ? T(g_idata[i]) : T(0);
  if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// The last warp's six steps, safe on Volta and later: reads and writes are separated by
// __syncwarp() and go through a volatile view, so no lane reads a value another lane of the warp
// is writing in the same step. Requires at least 64 threads (it adds sdata[tid + 32]).
template <class T, class Shared>
__device__ void warp_reduce(Shared& sdata, unsigned tid) {
  auto vs = sdata.as_volatile();
  T v = vs[tid];
  v += vs[tid + 32]; __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 16]; __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 8];  __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 4];  __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 2];  __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 1];  __syncwarp(); vs[tid] = v;
}

// Step 5: unroll the last warp. When s <= 32 only one warp works: no __syncthreads() needed
// and no `if (tid < s)` (it saves no work in SIMD lockstep).
template <class T>
__global__ void reduce5(ws::global_array<const T> g_idata, ws::global_array<T> g_odata, unsigned n) {
  ws::dynamic_shared<T, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T sum = i < n ? T(g_idata[i]) : T(0);
  if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid < 32) warp_reduce<T>(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// BROKEN ON PURPOSE: step 5 as first published, without volatile and without __syncwarp().
// Correct only if the 32 lanes run in lockstep and the compiler re-reads shared memory; on Volta
// and later neither is guaranteed (the compiler may keep sdata[tid] in a register).
template <class T>
__global__ void reduce5_unsafe(ws::global_array<const T> g_idata, ws::global_array<T> g_odata,
                               unsigned n) {
  ws::dynamic_shared<T, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T sum = i < n ? T(g_idata[i]) : T(0);
  if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    sdata[tid] += sdata[tid + 32]; sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];  sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];  sdata[tid] += sdata[tid + 1];
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Step 6: completely unrolled. The block size is a template parameter, so every
// `if (BLOCK >= ...)` is decided by the compiler; the driver dispatches with a switch.
template <unsigned BLOCK, class T>
__global__ void reduce6(ws::global_array<const T> g_idata, ws::global_array<T> g_odata, unsigned n) {
  __shared__ ws::shared_array<T, BLOCK, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + threadIdx.x;
  T sum = i < n ? T(g_idata[i]) : T(0);
  if (i + BLOCK < n) sum += g_idata[i + BLOCK];
  sdata[tid] = sum;
  __syncthreads();
  if (BLOCK >= 1024) { if (tid < 512) { sdata[tid] += sdata[tid + 512]; } __syncthreads(); }
  if (BLOCK >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
  if (BLOCK >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
  if (BLOCK >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }
  if (BLOCK >= 64) {
    if (tid < 32) warp_reduce<T>(sdata, tid);
  } else if (tid == 0) {
    for (unsigned k = 1; k < BLOCK; ++k) sdata[0] += sdata[k];
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Step 7: multiple elements per thread. A grid-stride loop: each thread adds many pairs (the
// lecture's `sdata[tid] += g_idata[i] + g_idata[i+blockSize]`), so fewer, fuller blocks.
template <unsigned BLOCK, class T>
__global__ void reduce7(ws::global_array<const T> g_idata, ws::global_array<T> g_odata, unsigned n) {
  __shared__ ws::shared_array<T, BLOCK, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + tid;
  unsigned gridSize = BLOCK * 2 * gridDim.x;
  sdata[tid] = 0;
  while (i < n) {
    sdata[tid] += g_idata[i];
    if (i + BLOCK < n) sdata[tid] += g_idata[i + BLOCK];
    i += gridSize;
  }
  __syncthreads();
  if (BLOCK >= 1024) { if (tid < 512) { sdata[tid] += sdata[tid + 512]; } __syncthreads(); }
  if (BLOCK >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
  if (BLOCK >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
  if (BLOCK >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }
  if (BLOCK >= 64) {
    if (tid < 32) warp_reduce<T>(sdata, tid);
  } else if (tid == 0) {
    for (unsigned k = 1; k < BLOCK; ++k) sdata[0] += sdata[k];
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Sum of a warp's values with shuffles: after 5 steps lane 0 holds the warp's total.
template <class T>
__device__ T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// The block's sum through one shared slot per warp, then one warp's shuffles; thread 0 gets it.
template <class T, class Shared>
__device__ T block_sum(Shared& warp_sums, T sum) {
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  sum = warp_sum(sum);
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < blockDim.x / 32 ? T(warp_sums[lane]) : T(0);
    sum = warp_sum(sum);
  }
  return sum;
}

// Step 8: warp shuffles. Step 7's grid-stride loop in a register, then __shfl_down_sync instead
// of shared memory for the tree: no bank conflicts, no __syncthreads() between steps.
template <class T>
__global__ void reduce8(ws::global_array<const T> g_idata, ws::global_array<T> g_odata, unsigned n) {
  __shared__ ws::shared_array<T, 32, "warp_sums"> warp_sums;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  const unsigned gridSize = blockDim.x * 2 * gridDim.x;
  T sum = 0;
  while (i < n) {
    sum += g_idata[i];
    if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
    i += gridSize;
  }
  sum = block_sum(warp_sums, sum);
  if (threadIdx.x == 0) g_odata[blockIdx.x] = sum;
}

template <class T> struct vec4;
template <> struct vec4<int> { using type = int4; };
template <> struct vec4<float> { using type = float4; };

// One thread's grid-stride sum with 16-byte vector loads: four elements per instruction, a warp
// reads 512 contiguous bytes. Step 8's loop over vectors (two loads in flight per iteration);
// the last n % 4 elements are read one by one.
template <class T>
__device__ T thread_sum_vec4(ws::global_array<const T> g_idata, unsigned n) {
  using V = typename vec4<T>::type;
  ws::global_array<const V> g_vec = g_idata.template reinterpret<const V>();
  const unsigned n4 = n / 4;
  const unsigned gridSize = blockDim.x * 2 * gridDim.x;
  T sum = 0;
  for (unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x; i < n4; i += gridSize) {
    V v = g_vec[i];
    sum += v.x + v.y + v.z + v.w;
    if (i + blockDim.x < n4) {
      V w = g_vec[i + blockDim.x];
      sum += w.x + w.y + w.z + w.w;
    }
  }
  const unsigned first = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned i = n4 * 4 + first; i < n; i += blockDim.x * gridDim.x) sum += g_idata[i];
  return sum;
}

// Step 9: step 8 with 16-byte vector loads (thread_sum_vec4).
template <class T>
__global__ void reduce9(ws::global_array<const T> g_idata, ws::global_array<T> g_odata, unsigned n) {
  __shared__ ws::shared_array<T, 32, "warp_sums"> warp_sums;
  T sum = thread_sum_vec4(g_idata, n);
  sum = block_sum(warp_sums, sum);
  if (threadIdx.x == 0) g_odata[blockIdx.x] = sum;
}

// Step 10: one launch. Step 9's loads and shuffles; then the LAST block to finish adds the
// blocks' partial sums (each block publishes its sum with __threadfence() and draws an atomicInc
// ticket, as in seed 002's single-pass sum). No second launch: at n = 2^24 the whole reduction
// takes a few tens of microseconds, and a launch costs a few of them.
template <class T>
__global__ void reduce10(ws::global_array<const T> g_idata, ws::global_array<T> g_partial,
                         ws::global_array<unsigned> g_ticket, unsigned n) {
  __shared__ ws::shared_array<T, 32, "warp_sums"> warp_sums;
  __shared__ ws::shared_array<bool, 1, "is_last"> is_last;
  T sum = block_sum(warp_sums, thread_sum_vec4(g_idata, n));
  if (threadIdx.x == 0) {
    g_partial[blockIdx.x] = sum;
    __threadfence();  // the partial sum is visible to every block before the ticket is
    const unsigned ticket = atomicInc(&g_ticket[0], gridDim.x);
    is_last[0] = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (is_last[0]) {
    T part = 0;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) part += g_partial[i];
    part = block_sum(warp_sums, part);
    if (threadIdx.x == 0) {
      g_partial[0] = part;
      g_ticket[0] = 0;  // ready for the next launch
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The catalog entry: variants, parameters, launch rule, driver and check.
struct ReduceEntry {
  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "reduce";
    s.title = "Sum reduction";
    s.description =
        "Harris's seven optimisation steps of a parallel sum, then warp shuffles and vector loads. "
        "Each block sums its part in shared memory; the driver relaunches on the partial sums "
        "until one value is left.";
    s.source = "reduction/reduce.cuh";
    s.lecture = "seed 003 (Harris, Optimizing Parallel Reduction in CUDA), seed 001";
    s.variants = {
        {"1", "interleaved addressing, divergent branching",
         "tid % (2*s) == 0 picks the working threads: warps diverge at every step"},
        {"2", "interleaved addressing, bank conflicts",
         "index = 2*s*tid: contiguous threads work, but shared accesses stride (2-way, 4-way... conflicts)"},
        {"3", "sequential addressing", "s halves from blockDim/2 and thread tid adds sdata[tid+s]: conflict free"},
        {"4", "first add during global load", "each thread adds two elements while loading: half the blocks"},
        {"5", "unroll the last warp",
         "no __syncthreads and no if (tid < s) once one warp is left (volatile + __syncwarp, safe on Volta+)"},
        {"6", "completely unrolled", "block size as a template parameter: every loop test decided at compile time"},
        {"7", "multiple elements per thread", "a grid-stride loop: each thread sums many pairs, few full blocks"},
        {"8", "warp shuffles", "__shfl_down_sync instead of shared memory for the tree inside a warp"},
        {"9", "warp shuffles + 16-byte loads", "each thread loads an int4/float4: a warp reads 512 contiguous bytes"},
        {"10", "one launch: the last block finishes",
         "step 9, then __threadfence() + an atomicInc ticket: the last block adds the partial sums, no second launch"},
        {"cub", "CUB DeviceReduce::Sum (reference)",
         "NVIDIA's library reduction that ships with CUDA: the bar every variant is measured against", false, {},
         true},
        {"5u", "unrolled last warp WITHOUT volatile/__syncwarp",
         "the lecture's first version of step 5", true,
         "correct only under lockstep: Volta and later GPUs need volatile and __syncwarp()"},
    };
    // Which block is last (and so which one reads the partial sums) depends on the order blocks run.
    for (ws::VariantSpec& v : s.variants)
      if (v.id == "10") v.order_dependent = true;
    s.params = {
        {"max_blocks", "grid-size cap for the grid-stride variants (7 to 10)", 1, 65535, 64, {}},
        {"per_thread", "elements per thread for 7 to 10 (0: as many as max_blocks gives)", 0, 1 << 20, 0, {}},
    };
    s.default_n = 1 << 16;
    s.default_block = 256;
    s.dtypes = {"int", "float"};
    return s;
  }

  static bool is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

  static std::string validate(const ws::RunConfig& c) {
    const uint32_t b = c.block.x;
    if (c.block.y != 1 || c.block.z != 1) return "the reduction kernels use 1D blocks: block must be (x, 1, 1)";
    const std::string& v = c.variant;
    if (v == "cub") return {};
    if (v == "8" || v == "9" || v == "10") {
      if (b % 32) return "variant " + v + " shuffles whole warps: the block size must be a multiple of 32 (got " + std::to_string(b) + ")";
      return {};
    }
    if (!is_pow2(b) || b < 32)
      return "variant " + v + " halves the active threads at every step: the block size must be a power of two from 32 to 1024 (got " + std::to_string(b) + ")";
    if ((v == "5" || v == "5u") && b < 64)
      return "variant " + v + " adds sdata[tid + 32] in the last warp: the block needs at least 64 threads (got " + std::to_string(b) + ")";
    return {};
  }

  // Blocks for one pass over `count` elements.
  static uint32_t blocks_for(const std::string& v, uint64_t count, uint32_t block, const ws::RunConfig& c) {
    const uint64_t per_block = (v == "1" || v == "2" || v == "3" || v == "9" || v == "10") ? block : 2ull * block;
    uint64_t blocks = (count + per_block - 1) / per_block;
    if (v == "7" || v == "8" || v == "9" || v == "10") {
      // The grid-size rule: either a number of elements per thread, or a cap on the blocks.
      if (const int64_t per_thread = c.param("per_thread", 0); per_thread > 0)
        blocks = (count + uint64_t(block) * uint64_t(per_thread) - 1) / (uint64_t(block) * uint64_t(per_thread));
      else
        blocks = std::min<uint64_t>(blocks, uint64_t(c.param("max_blocks", 64)));
    }
    return uint32_t(std::max<uint64_t>(blocks, 1));
  }

  template <class T, class B>
  static bool launch_pass(B& be, const std::string& v, uint32_t blocks, uint32_t block,
                          ws::global_array<const T> in, ws::global_array<T> out, unsigned n) {
    const ws::Dim3 grid{blocks, 1, 1}, blk{block, 1, 1};
    const uint32_t smem = block * sizeof(T);
    if (v == "1") return be.launch("reduce1", grid, blk, smem, reduce1<T>, in, out, n);
    if (v == "2") return be.launch("reduce2", grid, blk, smem, reduce2<T>, in, out, n);
    if (v == "3") return be.launch("reduce3", grid, blk, smem, reduce3<T>, in, out, n);
    if (v == "4") return be.launch("reduce4", grid, blk, smem, reduce4<T>, in, out, n);
    if (v == "5") return be.launch("reduce5", grid, blk, smem, reduce5<T>, in, out, n);
    if (v == "5u") return be.launch("reduce5_unsafe", grid, blk, smem, reduce5_unsafe<T>, in, out, n);
    if (v == "8") return be.launch("reduce8", grid, blk, 0, reduce8<T>, in, out, n);
    if (v == "9") return be.launch("reduce9", grid, blk, 0, reduce9<T>, in, out, n);
#define WS_REDUCE_CASE(B_)                                                                          \
  case B_:                                                                                          \
    return v == "6" ? be.launch("reduce6<" #B_ ">", grid, blk, 0, reduce6<B_, T>, in, out, n)      \
                    : be.launch("reduce7<" #B_ ">", grid, blk, 0, reduce7<B_, T>, in, out, n);
    switch (block) {
      WS_REDUCE_CASE(32)
      WS_REDUCE_CASE(64)
      WS_REDUCE_CASE(128)
      WS_REDUCE_CASE(256)
      WS_REDUCE_CASE(512)
      WS_REDUCE_CASE(1024)
    }
#undef WS_REDUCE_CASE
    return false;
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<T> host = std::is_integral_v<T> ? ws::random_input<T>(c.n, c.seed, 0, 9)
                                                      : ws::random_input<T>(c.n, c.seed, -1, 1);
    double ref = 0, abs_sum = 0;
    for (T x : host) ref += double(x), abs_sum += std::fabs(double(x));
    ws::global_array<T> in = be.upload("g_idata", host);
    if (c.variant == "cub") {
      // The library's own multi-pass reduction; only the GPU backends get here (gpu_only).
#if defined(__CUDACC__)
      ws::global_array<T> sum = be.template alloc<T>("sum", 1);
      size_t temp_bytes = 0;
      cub::DeviceReduce::Sum(nullptr, temp_bytes, in.data(), sum.data(), int(c.n));
      ws::global_array<unsigned char> temp = be.template scratch<unsigned char>("cub_temp", std::max<size_t>(temp_bytes, 1));
      // By value: a timed run replays the call after this function returned.
      if (!be.call("cub::DeviceReduce::Sum", [=]() mutable {
            return cub::DeviceReduce::Sum(temp.data(), temp_bytes, in.data(), sum.data(), int(c.n));
          }))
        return;
      ws::check_scalar(out, "sum", be.download(sum)[0], ref, abs_sum, c.n);
#endif
      return;
    }
    if (c.variant == "10") {
      // One launch: the last block leaves the total in g_partial[0] and resets the ticket.
      const uint32_t blocks = blocks_for(c.variant, c.n, c.block.x, c);
      ws::global_array<T> partial = be.template alloc<T>("g_partial", blocks);
      ws::global_array<unsigned> ticket = be.template alloc<unsigned>("g_ticket", 1);
      be.fill(ticket, 0u);
      if (!be.launch("reduce10", ws::Dim3{blocks, 1, 1}, ws::Dim3{c.block.x, 1, 1}, 0, reduce10<T>,
                     ws::global_array<const T>(in), partial, ticket, unsigned(c.n)))
        return;
      ws::check_scalar(out, "sum", be.download(partial)[0], ref, abs_sum, c.n);
      return;
    }
    uint64_t count = c.n;
    for (int pass = 0;; ++pass) {
      const uint32_t blocks = blocks_for(c.variant, count, c.block.x, c);
      ws::global_array<T> partial = be.template alloc<T>(pass == 0 ? "g_odata" : "g_odata" + std::to_string(pass), blocks);
      if (!launch_pass<T>(be, c.variant, blocks, c.block.x, in, partial, unsigned(count))) return;
      if (blocks == 1) {
        const T got = be.download(partial)[0];
        ws::check_scalar(out, "sum", got, ref, abs_sum, c.n);
        return;
      }
      in = partial;
      count = blocks;
    }
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "float") run_typed<float>(be, c, out);
    else run_typed<int>(be, c, out);
  }
};
