// Cooperative groups (`#include <cooperative_groups.h>`) for the emulator and gpu-trace: the
// groups a kernel file uses most, each call made through the recorded warp-synchronous calls and
// barriers, at the caller's line (a default std::source_location argument), so that
// `tile.shfl_down(v, 16)` is counted and drawn as the __shfl_down_sync it compiles to. gpu-fast
// compiles NVIDIA's own header.
//
//   namespace cg = cooperative_groups;
//   __global__ void sum(const int* in, int* out) {
//     cg::thread_block block = cg::this_thread_block();
//     cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
//     int v = in[block.group_index().x * block.size() + block.thread_rank()];
//     for (int k = warp.size() / 2; k > 0; k /= 2) v += warp.shfl_down(v, k);  // 5 recorded shuffles
//     if (warp.thread_rank() == 0) atomicAdd(out, v);
//   }
//
// Provided: thread_block (sync, thread_rank, size/num_threads, group_index, thread_index,
// group_dim/dim_threads), this_thread_block, thread_block_tile<N> for N = 1, 2, 4, .. 32 (sync,
// thread_rank, size/num_threads, meta_group_rank, meta_group_size, shfl, shfl_up, shfl_down,
// shfl_xor, ballot, any, all), tiled_partition<N>, coalesced_threads and coalesced_group (sync,
// thread_rank, size/num_threads, shfl, ballot, any, all), sync(group), and reduce(tile, v, op) with
// plus, less, greater, bit_and, bit_or, bit_xor (cooperative_groups/reduce.h). Grid and cluster
// groups are not: a kernel that uses them does not compile, and the error names the line.
#pragma once

#if defined(__CUDACC__) && !defined(WS_GPU_TRACE)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#else
#include <source_location>
#include <type_traits>

#include "ws/kernel.cuh"

namespace cooperative_groups {
namespace detail {
using loc_t = std::source_location;
// The backend's recorded calls, by name (gpu-trace's __shfl_sync & co. are macros that take the
// caller's line themselves; here the line is the group call's).
#if defined(WS_GPU_TRACE)
__device__ __forceinline__ void block_sync(loc_t l) { ::ws::trace_rt::barrier(l); }
__device__ __forceinline__ void warp_sync(unsigned m, loc_t l) { ::ws::trace_rt::syncwarp_at{l}(m); }
template <class T>
__device__ __forceinline__ T shfl(unsigned m, T v, int src, int w, loc_t l) { return ::ws::trace_rt::shfl(l, m, v, src, w); }
template <class T>
__device__ __forceinline__ T shfl_up(unsigned m, T v, unsigned d, int w, loc_t l) { return ::ws::trace_rt::shfl_up(l, m, v, d, w); }
template <class T>
__device__ __forceinline__ T shfl_down(unsigned m, T v, unsigned d, int w, loc_t l) { return ::ws::trace_rt::shfl_down(l, m, v, d, w); }
template <class T>
__device__ __forceinline__ T shfl_xor(unsigned m, T v, int x, int w, loc_t l) { return ::ws::trace_rt::shfl_xor(l, m, v, x, w); }
__device__ __forceinline__ unsigned ballot(unsigned m, int p, loc_t l) { return ::ws::trace_rt::ballot(l, m, p); }
__device__ __forceinline__ unsigned active(loc_t l) { return ::ws::trace_rt::activemask(l); }
__device__ __forceinline__ unsigned lane() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
#else
inline void block_sync(loc_t l) { ::__syncthreads(l); }
inline void warp_sync(unsigned m, loc_t l) { ::__syncwarp(m, l); }
template <class T>
T shfl(unsigned m, T v, int src, int w, loc_t l) { return ::__shfl_sync(m, v, src, w, l); }
template <class T>
T shfl_up(unsigned m, T v, unsigned d, int w, loc_t l) { return ::__shfl_up_sync(m, v, d, w, l); }
template <class T>
T shfl_down(unsigned m, T v, unsigned d, int w, loc_t l) { return ::__shfl_down_sync(m, v, d, w, l); }
template <class T>
T shfl_xor(unsigned m, T v, int x, int w, loc_t l) { return ::__shfl_xor_sync(m, v, x, w, l); }
inline unsigned ballot(unsigned m, int p, loc_t l) { return ::__ballot_sync(m, p, l); }
inline unsigned active(loc_t l) { return ::__activemask(l); }
inline unsigned lane() { return (threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) % 32u; }
#endif
__device__ __forceinline__ unsigned block_rank() {
  return threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
}
__device__ __forceinline__ unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
}  // namespace detail

class thread_block {
 public:
  __device__ void sync(std::source_location l = std::source_location::current()) const { detail::block_sync(l); }
  __device__ unsigned thread_rank() const { return detail::block_rank(); }
  __device__ unsigned size() const { return detail::block_threads(); }
  __device__ unsigned num_threads() const { return detail::block_threads(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 dim_threads() const { return group_dim(); }
};
__device__ __forceinline__ thread_block this_thread_block() { return {}; }

// N consecutive threads of the block (by thread_rank), N a power of two up to 32: its calls name
// the tile's lanes in the mask and use width N.
template <unsigned N, class Parent = void>
class thread_block_tile {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "thread_block_tile<N>: N must be 1, 2, 4, 8, 16 or 32");

 public:
  __device__ thread_block_tile() = default;
  template <class P>
  __device__ thread_block_tile(const thread_block_tile<N, P>&) {}  // (the parent is not kept)
  __device__ unsigned mask() const {
    return N == 32 ? 0xffffffffu : ((1u << N) - 1u) << (detail::lane() & ~(N - 1u));
  }
  __device__ void sync(std::source_location l = std::source_location::current()) const { detail::warp_sync(mask(), l); }
  __device__ unsigned thread_rank() const { return detail::block_rank() % N; }
  __device__ static constexpr unsigned size() { return N; }
  __device__ static constexpr unsigned num_threads() { return N; }
  __device__ unsigned meta_group_rank() const { return detail::block_rank() / N; }
  __device__ unsigned meta_group_size() const { return (detail::block_threads() + N - 1) / N; }
  template <class T>
  __device__ T shfl(T v, int src, std::source_location l = std::source_location::current()) const {
    return detail::shfl(mask(), v, src, int(N), l);
  }
  template <class T>
  __device__ T shfl_up(T v, unsigned d, std::source_location l = std::source_location::current()) const {
    return detail::shfl_up(mask(), v, d, int(N), l);
  }
  template <class T>
  __device__ T shfl_down(T v, unsigned d, std::source_location l = std::source_location::current()) const {
    return detail::shfl_down(mask(), v, d, int(N), l);
  }
  template <class T>
  __device__ T shfl_xor(T v, int x, std::source_location l = std::source_location::current()) const {
    return detail::shfl_xor(mask(), v, x, int(N), l);
  }
  // Bit k: the thread of rank k in this tile.
  __device__ unsigned ballot(int p, std::source_location l = std::source_location::current()) const {
    const unsigned b = detail::ballot(mask(), p, l);
    return N == 32 ? b : (b >> (detail::lane() & ~(N - 1u))) & ((1u << N) - 1u);
  }
  __device__ int any(int p, std::source_location l = std::source_location::current()) const { return ballot(p, l) != 0; }
  __device__ int all(int p, std::source_location l = std::source_location::current()) const {
    return ballot(p, l) == (N == 32 ? 0xffffffffu : (1u << N) - 1u);
  }
};
template <unsigned N, class Parent>
__device__ thread_block_tile<N> tiled_partition(const Parent&) {
  return {};
}

// The threads of the warp that are active where it is made (coalesced_threads()), ranked by lane.
class coalesced_group {
 public:
  __device__ explicit coalesced_group(unsigned m) : mask_(m) {}
  __device__ void sync(std::source_location l = std::source_location::current()) const { detail::warp_sync(mask_, l); }
  __device__ unsigned thread_rank() const { return unsigned(__popc(mask_ & ((1u << detail::lane()) - 1u))); }
  __device__ unsigned size() const { return unsigned(__popc(mask_)); }
  __device__ unsigned num_threads() const { return size(); }
  // From the thread of rank `src` (its lane: the src-th set bit of the mask).
  template <class T>
  __device__ T shfl(T v, int src, std::source_location l = std::source_location::current()) const {
    unsigned m = mask_;
    for (int k = 0; k < src % int(size()); ++k) m &= m - 1;
    return detail::shfl(mask_, v, __ffs(int(m)) - 1, 32, l);
  }
  // Bit k: the thread of rank k.
  __device__ unsigned ballot(int p, std::source_location l = std::source_location::current()) const {
    const unsigned b = detail::ballot(mask_, p, l);
    unsigned out = 0, k = 0;
    for (unsigned m = mask_; m; m &= m - 1, ++k)
      if (b & (m & (~m + 1u))) out |= 1u << k;
    return out;
  }
  __device__ int any(int p, std::source_location l = std::source_location::current()) const { return detail::ballot(mask_, p, l) != 0; }
  __device__ int all(int p, std::source_location l = std::source_location::current()) const {
    return detail::ballot(mask_, p, l) == mask_;
  }

 private:
  unsigned mask_;
};
__device__ __forceinline__ coalesced_group coalesced_threads(std::source_location l = std::source_location::current()) {
  return coalesced_group(detail::active(l));
}

template <class Group>
__device__ void sync(const Group& g, std::source_location l = std::source_location::current()) {
  g.sync(l);
}

// reduce(tile, v, op): the butterfly tile.shfl_xor(v, k) for k = N/2 .. 1, each lane ending with
// the whole result (NVIDIA's header may use one __reduce_*_sync for 32-bit integers on sm_80+:
// the same result, fewer instructions on the GPU).
template <class T>
struct plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
  __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
  __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  __device__ T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  __device__ T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  __device__ T operator()(T a, T b) const { return a ^ b; }
};
template <unsigned N, class Parent, class T, class Op>
__device__ T reduce(const thread_block_tile<N, Parent>& g, T v, Op op,
                    std::source_location l = std::source_location::current()) {
  for (unsigned k = N / 2; k > 0; k /= 2) v = op(v, g.shfl_xor(v, int(k), l));
  return v;
}
}  // namespace cooperative_groups
#endif
