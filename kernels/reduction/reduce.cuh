// Sum reduction: Mark Harris's seven steps exactly as the lecture numbers them (seed 003), then the
// warp-shuffle refinement (seed 001's "safe further refinement") and 16-byte vector loads.
//
// Every kernel reduces the n elements of g_idata to one partial sum per block in g_odata; the
// driver launches again on the partial sums until one block is left, so the whole sum is done on
// the device. Elements past n count as 0, so any n >= 1 works.
#pragma once

#include "reduction/reduce_reference.h"

#if defined(__CUDACC__)
#include <cub/device/device_reduce.cuh>  // before ws/kernel.cuh: gpu-trace redefines __syncthreads
#endif

#include "common/checks.h"
#include "common/variant_table.h"
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

// One thread's grid-stride sum with four 16-byte loads in flight per iteration (step 9 has two):
// at n = 2^24 a thread makes only a few iterations, and what each has in flight sets how close
// the sum gets to the read stream.
template <class T>
__device__ T thread_sum_vec4x4(ws::global_array<const T> g_idata, unsigned n) {
  using V = typename vec4<T>::type;
  ws::global_array<const V> g_vec = g_idata.template reinterpret<const V>();
  const unsigned n4 = n / 4;
  const unsigned gridSize = blockDim.x * 4 * gridDim.x;
  T sum = 0;
  unsigned i = blockIdx.x * (blockDim.x * 4) + threadIdx.x;
  for (; i + 3 * blockDim.x < n4; i += gridSize) {
    V a = g_vec[i];
    V b = g_vec[i + blockDim.x];
    V c = g_vec[i + 2 * blockDim.x];
    V d = g_vec[i + 3 * blockDim.x];
    sum += (a.x + a.y + a.z + a.w) + (b.x + b.y + b.z + b.w) + (c.x + c.y + c.z + c.w) + (d.x + d.y + d.z + d.w);
  }
  for (; i < n4; i += blockDim.x) {  // the last chunk's vectors, where it is cut short
    V v = g_vec[i];
    sum += v.x + v.y + v.z + v.w;
  }
  const unsigned first = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned j = n4 * 4 + first; j < n; j += blockDim.x * gridDim.x) sum += g_idata[j];
  return sum;
}

// Step 11: one launch, nothing left to read at the end. Four loads in flight per thread; each
// block atomicAdds its sum into one accumulator, then draws a ticket; the last block takes the
// total with atomicExch (leaving 0 for the next launch), and atomicInc's wrap resets the ticket.
// Step 10's last block reads every block's partial sum after all the others are done: here that
// tail is one atomic.
template <class T>
__global__ void reduce11(ws::global_array<const T> g_idata, ws::global_array<T> g_sum, ws::global_array<T> g_acc,
                         ws::global_array<unsigned> g_ticket, unsigned n) {
  __shared__ ws::shared_array<T, 32, "warp_sums"> warp_sums;
  const T sum = block_sum(warp_sums, thread_sum_vec4x4(g_idata, n));
  if (threadIdx.x == 0) {
    atomicAdd(&g_acc[0], sum);
    __threadfence();  // this block's sum is in the accumulator before its ticket is drawn
    if (atomicInc(&g_ticket[0], gridDim.x - 1) == gridDim.x - 1) g_sum[0] = atomicExch(&g_acc[0], T(0));
  }
}

// ---------------------------------------------------------------------------------------------
// The catalog entry: one row per variant (common/variant_table.h), then the multi-pass driver.
struct ReduceEntry {
  // One launch over `n` elements: what a row's launch hands its kernel.
  template <class T>
  struct Pass {
    ws::Dim3 grid, block;
    uint32_t smem;  // block * sizeof(T): the dynamic `sdata` of steps 1 to 5
    ws::global_array<const T> in;
    ws::global_array<T> out;  // one partial sum per block; a single-launch row allocates its own
    unsigned n;
  };

  static bool is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

  // The blocks the variants take: "" or why not.
  static std::string tree_block(const ws::RunConfig& c) {
    if (is_pow2(c.block.x) && c.block.x >= 32) return {};
    return "variant " + c.variant +
           " halves the active threads at every step: the block size must be a power of two from 32 to 1024 (got " +
           std::to_string(c.block.x) + ")";
  }
  static std::string last_warp_block(const ws::RunConfig& c) {
    if (std::string why = tree_block(c); !why.empty()) return why;
    if (c.block.x >= 64) return {};
    return "variant " + c.variant + " adds sdata[tid + 32] in the last warp: the block needs at least 64 threads (got " +
           std::to_string(c.block.x) + ")";
  }
  static std::string warp_block(const ws::RunConfig& c) {
    if (c.block.x % 32 == 0) return {};
    return "variant " + c.variant + " shuffles whole warps: the block size must be a multiple of 32 (got " +
           std::to_string(c.block.x) + ")";
  }

  // Steps 6 and 7 take the block size as a template argument: f(std::integral_constant<unsigned, B>).
  template <class F>
  static bool with_block_size(unsigned block, F&& f) {
    return ws::with_constant<32, 64, 128, 256, 512, 1024>(block, f);
  }

  template <class T>
  static auto rows() {
    using P = Pass<T>;
    return std::make_tuple(
        ws::row({.id = "1", .name = "interleaved addressing, divergent branching",
                 .summary = "tid % (2*s) == 0 picks the working threads: warps diverge at every step",
                 .accepts = tree_block, .grid = {.per_thread = 1}, .focus = "sdata[tid] += sdata[tid + s]"},
                [](auto& be, const P& p) { return be.launch("reduce1", p.grid, p.block, p.smem, reduce1<T>, p.in, p.out, p.n); }),
        ws::row({.id = "2", .name = "interleaved addressing, bank conflicts",
                 .summary = "index = 2*s*tid: contiguous threads work, but shared accesses stride (2-way, 4-way... conflicts)",
                 .accepts = tree_block, .grid = {.per_thread = 1}, .focus = "sdata[index] += sdata[index + s]"},
                [](auto& be, const P& p) { return be.launch("reduce2", p.grid, p.block, p.smem, reduce2<T>, p.in, p.out, p.n); }),
        ws::row({.id = "3", .name = "sequential addressing",
                 .summary = "s halves from blockDim/2 and thread tid adds sdata[tid+s]: conflict free",
                 .accepts = tree_block, .grid = {.per_thread = 1}, .focus = "sdata[tid] += sdata[tid + s]"},
                [](auto& be, const P& p) { return be.launch("reduce3", p.grid, p.block, p.smem, reduce3<T>, p.in, p.out, p.n); }),
        ws::row({.id = "4", .name = "first add during global load",
                 .summary = "each thread adds two elements while loading: half the blocks",
                 .accepts = tree_block, .grid = {.per_thread = 2}, .focus = "sdata[tid] += sdata[tid + s]"},
                [](auto& be, const P& p) { return be.launch("reduce4", p.grid, p.block, p.smem, reduce4<T>, p.in, p.out, p.n); }),
        ws::row({.id = "5", .name = "unroll the last warp",
                 .summary = "no __syncthreads and no if (tid < s) once one warp is left (volatile + __syncwarp, safe on Volta+)",
                 .accepts = last_warp_block, .grid = {.per_thread = 2}},
                [](auto& be, const P& p) { return be.launch("reduce5", p.grid, p.block, p.smem, reduce5<T>, p.in, p.out, p.n); }),
        ws::row({.id = "6", .name = "completely unrolled",
                 .summary = "block size as a template parameter: every loop test decided at compile time",
                 .accepts = tree_block, .grid = {.per_thread = 2}},
                [](auto& be, const P& p) {
                  return with_block_size(p.block.x, [&](auto b) {
                    constexpr unsigned B = decltype(b)::value;
                    return be.launch("reduce6<" + std::to_string(B) + ">", p.grid, p.block, 0, reduce6<B, T>, p.in, p.out, p.n);
                  });
                }),
        ws::row({.id = "7", .name = "multiple elements per thread",
                 .summary = "a grid-stride loop: each thread sums many pairs, few full blocks",
                 .accepts = tree_block, .grid = {.per_thread = 2, .grid_stride = true}},
                [](auto& be, const P& p) {
                  return with_block_size(p.block.x, [&](auto b) {
                    constexpr unsigned B = decltype(b)::value;
                    return be.launch("reduce7<" + std::to_string(B) + ">", p.grid, p.block, 0, reduce7<B, T>, p.in, p.out, p.n);
                  });
                }),
        ws::row({.id = "8", .name = "warp shuffles",
                 .summary = "__shfl_down_sync instead of shared memory for the tree inside a warp",
                 .accepts = warp_block, .grid = {.per_thread = 2, .grid_stride = true}},
                [](auto& be, const P& p) { return be.launch("reduce8", p.grid, p.block, 0, reduce8<T>, p.in, p.out, p.n); }),
        ws::row({.id = "9", .name = "warp shuffles + 16-byte loads",
                 .summary = "each thread loads an int4/float4: a warp reads 512 contiguous bytes",
                 .accepts = warp_block, .grid = {.per_thread = 1, .grid_stride = true}},
                [](auto& be, const P& p) { return be.launch("reduce9", p.grid, p.block, 0, reduce9<T>, p.in, p.out, p.n); }),
        // Which block is last (and so which one reads the partial sums) depends on the order
        // blocks run: order_dependent.
        ws::row({.id = "10", .name = "one launch: the last block finishes",
                 .summary = "step 9, then __threadfence() + an atomicInc ticket: the last block adds the partial sums, no second launch",
                 .order_dependent = true, .accepts = warp_block,
                 .grid = {.per_thread = 1, .grid_stride = true, .single_launch = true}},
                [](auto& be, P& p) {
                  // The last block leaves the total in g_partial[0] and resets the ticket.
                  p.out = be.template alloc<T>("g_partial", p.grid.x);
                  ws::global_array<unsigned> ticket = be.template alloc<unsigned>("g_ticket", 1);
                  be.fill_once(ticket, 0u);  // (the kernel resets it: a replay needs no fill)
                  return be.launch("reduce10", p.grid, p.block, 0, reduce10<T>, p.in, p.out, ticket, p.n);
                }),
        // Which block is last, and the order of the float additions, depend on the order blocks run.
        ws::row({.id = "11", .name = "one launch: atomic finish, 4 loads in flight",
                 .summary = "four 16-byte loads per thread in flight; each block atomicAdds its sum, the last one (by ticket) "
                            "takes the total: no partial sums to read",
                 .order_dependent = true, .accepts = warp_block,
                 .grid = {.per_thread = 1, .grid_stride = true, .single_launch = true}},
                [](auto& be, P& p) {
                  p.out = be.template alloc<T>("g_sum", 1);
                  ws::global_array<T> acc = be.template alloc<T>("g_acc", 1);
                  ws::global_array<unsigned> ticket = be.template alloc<unsigned>("g_ticket", 1);
                  be.fill_once(acc, T(0));  // (the kernel leaves both at 0: a replay needs no fill)
                  be.fill_once(ticket, 0u);
                  return be.launch("reduce11", p.grid, p.block, 0, reduce11<T>, p.in, p.out, acc, ticket, p.n);
                }),
        ws::row({.id = "cub", .name = "CUB DeviceReduce::Sum (reference)",
                 .summary = "NVIDIA's library reduction that ships with CUDA: the bar every variant is measured against",
                 .gpu_only = true, .grid = {.single_launch = true}},
                [](auto& be, P& p) {
#if defined(__CUDACC__)
                  // The library's own multi-pass reduction.
                  p.out = be.template alloc<T>("sum", 1);
                  size_t temp_bytes = 0;
                  cub::DeviceReduce::Sum(nullptr, temp_bytes, p.in.data(), p.out.data(), int(p.n));
                  ws::global_array<unsigned char> temp = be.template scratch<unsigned char>("cub_temp", std::max<size_t>(temp_bytes, 1));
                  // By value: a timed run replays the call after this function returned.
                  return be.call("cub::DeviceReduce::Sum", [=, in = p.in, sum = p.out, n = p.n]() mutable {
                    return cub::DeviceReduce::Sum(temp.data(), temp_bytes, in.data(), sum.data(), int(n));
                  });
#else
                  (void)be, (void)p;
                  return false;  // gpu_only: the Catalog never runs it on the emulator
#endif
                }),
        ws::row({.id = "5u", .name = "unrolled last warp WITHOUT volatile/__syncwarp",
                 .summary = "the lecture's first version of step 5", .broken = true,
                 .broken_note = "correct only under lockstep: Volta and later GPUs need volatile and __syncwarp()",
                 .accepts = last_warp_block, .grid = {.per_thread = 2}},
                [](auto& be, const P& p) {
                  return be.launch("reduce5_unsafe", p.grid, p.block, p.smem, reduce5_unsafe<T>, p.in, p.out, p.n);
                }));
  }

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
    s.variants = ws::variant_specs(rows<int>());
    s.params = {
        {"max_blocks", "grid-size cap for the grid-stride variants (7 to 11)", 1, 65535, 64, {}},
        {"per_thread", "elements per thread for 7 to 11 (0: as many as max_blocks gives)", 0, 1 << 20, 0, {}},
    };
    s.default_n = 1 << 16;
    s.default_block = 256;
    s.dtypes = {"int", "float"};
    s.timing.n = 1 << 24;
    s.timing.sizes = {1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28};
    s.timing.params = {{"per_thread", 32}};
    s.timing.why = "32 elements per thread gives the grid-stride variants (7-11) enough blocks for every SM; the lab caps "
                   "their grid at 64 blocks for the emulator (warpscope bench tunes it per variant)";
    s.timing.reference = "cub";
    return s;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the reduction kernels use 1D blocks: block must be (x, 1, 1)";
    return ws::check_variant(rows<int>(), c);
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const std::vector<T> host = ws::reference::reduce::input<T>(c.n, c.seed);
    const double ref = ws::reference::sum(host), abs_sum = ws::reference::abs_sum(host);
    ws::global_array<const T> in = be.upload("g_idata", host);
    const ws::Variant v = *ws::find_variant(rows<T>(), c.variant);
    // Each pass leaves one partial sum per block; the next pass reduces those, until one block
    // (or a single launch) has left the total.
    uint64_t count = c.n;
    for (int pass = 0;; ++pass) {
      const uint32_t blocks = v.grid.blocks(count, c.block.x, c, pass == 0);
      Pass<T> p{{blocks, 1, 1}, {c.block.x, 1, 1}, uint32_t(c.block.x * sizeof(T)), in, {}, unsigned(count)};
      if (!v.grid.single_launch)
        p.out = be.template alloc<T>(pass == 0 ? "g_odata" : "g_odata" + std::to_string(pass), blocks);
      if (!ws::launch_variant(rows<T>(), c.variant, be, p)) return;
      if (v.grid.single_launch || blocks == 1) {
        ws::check_scalar(out, "sum", be.download(p.out)[0], ref, abs_sum, c.n);
        return;
      }
      in = p.out;
      count = blocks;
    }
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "float") run_typed<float>(be, c, out);
    else run_typed<int>(be, c, out);
  }
};
