// Small kernels written for the emulator's tests, each as the lecture notes write it.
#pragma once

#include <atomic>
#include <stdexcept>

#include "ws/kernel.cuh"

// Sequential addressing (Harris step 3), one element per thread.
template <unsigned BLOCK>
__global__ void seq_reduce(ws::global_array<const int> in, ws::global_array<int> out) {
  __shared__ ws::shared_array<int, BLOCK, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Interleaved addressing with divergent branching (Harris step 1).
template <unsigned BLOCK>
__global__ void interleaved_reduce(ws::global_array<const int> in, ws::global_array<int> out) {
  __shared__ ws::shared_array<int, BLOCK, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// if/else on odd and even lanes, then one statement after it.
__global__ void odd_even(ws::global_array<int> a, ws::global_array<int> b, ws::global_array<int> c) {
  unsigned t = threadIdx.x;
  if (t % 2 == 1)
    a[t] = 1;
  else
    b[t] = 2;
  c[t] = 3;
}

// An if/else inside a loop: on a GPU the two sides meet again at the end of every iteration
// (odd lanes, even lanes, odd, even, ...), not after the loop.
__global__ void if_else_in_loop(ws::global_array<int> a, ws::global_array<int> b, ws::global_array<int> c,
                                unsigned k) {
  const unsigned t = threadIdx.x;
  for (unsigned i = 0; i < k; ++i) {
    if (t % 2 == 1) a[t] += 1;
    else b[t] += 2;
  }
  c[t] = 3;
}

// A loop in each branch: the `if` side's loop runs to its end before the `else` side's starts.
__global__ void loop_in_each_branch(ws::global_array<int> a, ws::global_array<int> b, ws::global_array<int> c) {
  const unsigned t = threadIdx.x;
  if (t % 2 == 1) {
    for (int i = 0; i < 3; ++i) a[t] += 1;
  } else {
    for (int i = 0; i < 2; ++i) b[t] += 2;
  }
  c[t] = 3;
}

// An if/else in an inner loop: the sides alternate within each outer iteration, and all lanes
// meet at the statement after the inner loop.
__global__ void if_else_in_nested_loop(ws::global_array<int> a, ws::global_array<int> b, ws::global_array<int> c) {
  const unsigned t = threadIdx.x;
  for (int o = 0; o < 2; ++o) {
    for (int i = 0; i < 2; ++i) {
      if (t % 2 == 1) a[t] += 1;
      else b[t] += 2;
    }
    c[t] += 3;
  }
}

// `continue` on odd lanes: they go round again while the even lanes finish the iteration.
__global__ void continue_in_loop(ws::global_array<int> a, ws::global_array<int> b, ws::global_array<int> c) {
  const unsigned t = threadIdx.x;
  for (int i = 0; i < 3; ++i) {
    b[t] += 1;
    if (t % 2 == 1) continue;
    a[t] += 1;
  }
  c[t] = 3;
}

// `break` for more lanes at every iteration: the rest go on, the leavers wait after the loop.
__global__ void break_in_loop(ws::global_array<int> a, ws::global_array<int> c) {
  const unsigned t = threadIdx.x;
  for (unsigned i = 0; i < 4; ++i) {
    if (t < i * 8) break;
    a[t] += 1;
  }
  c[t] = 3;
}

// A loop whose trip count differs per lane: CSR sparse matrix times vector (seed 003).
__global__ void csr_spmv(ws::global_array<const unsigned> row_ptr, ws::global_array<const unsigned> col,
                         ws::global_array<const float> val, ws::global_array<const float> x,
                         ws::global_array<float> y, unsigned rows) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    unsigned begin = row_ptr[row];
    unsigned end = row_ptr[row + 1];
    float sum = 0;
    for (unsigned j = begin; j < end; ++j)
      sum += val[j] * x[col[j]];
    y[row] = sum;
  }
}

// Unrolled last warp WITHOUT volatile or __syncwarp (Harris step 5 as first published).
template <unsigned BLOCK>
__global__ void unrolled_last_warp(ws::global_array<const int> in, ws::global_array<int> out) {
  __shared__ ws::shared_array<int, BLOCK, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// The seeds' "optimized" barrier inside the condition: the barrier never releases.
template <unsigned BLOCK>
__global__ void barrier_in_condition(ws::global_array<const int> in, ws::global_array<int> out) {
  __shared__ ws::shared_array<int, BLOCK, "cache"> cache;
  unsigned tid = threadIdx.x;
  cache[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  unsigned stride = blockDim.x / 2;
  while (stride != 0) {
    if (tid < stride) {
      cache[tid] += cache[tid + stride];
      __syncthreads();
    }
    stride /= 2;
  }
  if (tid == 0) out[blockIdx.x] = cache[0];
}

// Reads one element past the end of `in` in the last thread.
__global__ void off_by_one(ws::global_array<const int> in, ws::global_array<int> out) {
  unsigned i = threadIdx.x;
  out[i] = in[i + 1];
}

// Block 0 works through `rounds` sums before it reads past the end of `in`; every later block
// reads past it at once. The later blocks fail first in time; block 0's failure comes first in
// block order.
__global__ void late_first_fault(ws::global_array<const int> in, ws::global_array<int> out, int rounds) {
  const unsigned i = threadIdx.x;
  int s = 0;
  if (blockIdx.x == 0)
    for (int r = 0; r < rounds; ++r) s += in[(i + unsigned(r)) % 32u];
  out[blockIdx.x * 32u + i] = s + in[32u + blockIdx.x + i];
}

// Every thread holds an object whose destructor counts, then thread 7 reads past the end of
// `in` while the others are stopped at or after their first load: the failed block's threads
// must still be torn down with their frames unwound.
struct CountsItsDestruction {
  std::atomic<int>* destroyed;
  ~CountsItsDestruction() { destroyed->fetch_add(1); }
};
__global__ void fault_with_live_objects(ws::global_array<const int> in, ws::global_array<int> out,
                                        std::atomic<int>* destroyed) {
  CountsItsDestruction guard{destroyed};
  int v = in[threadIdx.x] + out[threadIdx.x];  // (`out` is written: its load waits for the warp)
  if (threadIdx.x == 7) v += in[threadIdx.x + 1000];
  out[threadIdx.x] = v;
}

// Thread 3 throws a C++ exception after its first load (kernel code is C++ on the emulator).
__global__ void throws_in_thread_3(ws::global_array<const int> in, ws::global_array<int> out) {
  int v = in[threadIdx.x];
  if (threadIdx.x == 3) throw std::runtime_error("boom in thread 3");
  out[threadIdx.x] = v;
}

// One load site, two arrays: even lanes read `a`, odd lanes `b`. A warp instruction touches one
// allocation, so the site issues twice: the lowest lane's array first.
__global__ void pick_array_by_parity(ws::global_array<const int> a, ws::global_array<const int> b,
                                     ws::global_array<int> out) {
  const unsigned t = threadIdx.x;
  int v = (t % 2 ? b : a)[t];
  out[t] = v;
}

// Each thread writes its global index.
__global__ void write_global_index(ws::global_array<unsigned> out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
}

// Every thread stops at its load (a global array the kernel writes is read when the warp issues
// the load): all of a block's threads hold a fiber, and a stack, at once.
__global__ void add_one_in_place(ws::global_array<unsigned> out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = out[i] + 1;
}

// The same with something that is not a std::exception.
__global__ void throws_an_int_in_thread_3(ws::global_array<const int> in, ws::global_array<int> out) {
  int v = in[threadIdx.x];
  if (threadIdx.x == 3) throw 42;
  out[threadIdx.x] = v;
}

// Warp-shuffle reduction of one warp.
__global__ void shuffle_sum(ws::global_array<const int> in, ws::global_array<int> out) {
  int v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x == 0) out[0] = v;
}

// A shuffle with a full mask inside a branch only half the warp takes: an error on Volta+.
__global__ void shuffle_bad_mask(ws::global_array<const int> in, ws::global_array<int> out) {
  int v = in[threadIdx.x];
  if (threadIdx.x < 16) v += __shfl_down_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = v;
}

// A shuffle by lanes 0-19 only, with their mask: lanes 16-19 would read lanes 20-23, which do not
// take part (undefined on a GPU; the emulator gives the reader its own value).
__global__ void shuffle_partial_mask(ws::global_array<int> out) {
  const int v = 100 + int(threadIdx.x);
  int r = -1;
  if (threadIdx.x < 20) r = __shfl_down_sync(0x000fffffu, v, 4);
  out[threadIdx.x] = r;
}

// Every lane reads its right neighbour's element, then (after __syncwarp) overwrites its own:
// right only if no lane's store lands before every lane's load, as the warp instruction order
// says. The lanes do not stop at __syncwarp (it returns nothing), so this checks that running on
// past it changes nothing that memory sees.
__global__ void rotate_with_syncwarp(ws::global_array<const int> in, ws::global_array<int> out) {
  __shared__ ws::shared_array<int, 32, "s"> s;
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncwarp();
  int v = s[(t + 1) % 32];
  __syncwarp();
  s[t] = v;
  __syncwarp();
  out[t] = s[t];
}

// __syncwarp() with the full mask in a branch half the warp takes: lanes 16..31 never come.
__global__ void syncwarp_bad_mask(ws::global_array<int> out) {
  if (threadIdx.x < 16) __syncwarp();
  out[threadIdx.x] = 1;
}

// Spins on a flag that nobody sets.
__global__ void spin_forever(ws::global_array<int> flag) {
  while (flag[0] == 0) {
  }
}

// Shared atomics then one global atomic per block (seed 002, hierarchical atomics).
__global__ void hierarchical_sum(ws::global_array<const int> in, ws::global_array<int> result) {
  __shared__ ws::shared_array<int, 1, "partial_sum"> partial_sum;
  if (threadIdx.x == 0) partial_sum[0] = 0;
  __syncthreads();
  atomicAdd(&partial_sum[0], int(in[blockIdx.x * blockDim.x + threadIdx.x]));
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&result[0], int(partial_sum[0]));
}

// Dynamic shared memory (the lecture's extern __shared__ int sdata[]).
__global__ void dynamic_copy(ws::global_array<const int> in, ws::global_array<int> out) {
  ws::dynamic_shared<int, "sdata"> sdata;
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  out[tid] = sdata[blockDim.x - 1 - tid];
}

// Two views of the one dynamic shared window, with different names and element types (a kernel
// that reuses the window for another type): each access is traced under its own view.
__global__ void two_dynamic_views(ws::global_array<int> out) {
  ws::dynamic_shared<int, "words"> words;
  ws::dynamic_shared<short, "halves"> halves;
  const unsigned tid = threadIdx.x;
  words[tid] = int(tid + 100 * blockIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = halves[2 * tid];  // the low half of words[tid]
}

// Barrier loops that most threads sit out. Loop 1 has one barrier: thread 1 runs ahead through
// `rounds` arrivals at it (merged into one queued entry per 64, the queue fills at 1,024 and the
// thread comes back later). Loop 2 alternates two barriers, so a thread that runs ahead queues
// one entry per arrival, and after each release its next barrier is the other one.
__global__ void sit_out_barrier_loops(ws::global_array<int> out, unsigned rounds, unsigned rounds2,
                                      unsigned probe) {
  __shared__ ws::shared_array<int, 1, "count"> count;
  const unsigned tid = threadIdx.x;
  if (tid == 0) count[0] = 0;
  __syncthreads();
  for (unsigned r = 0; r < rounds; ++r) {
    if (tid == 0) count[0] += 1;
    __syncthreads();
  }
  if (tid == 1) out[0] = count[0];
  for (unsigned r = 0; r < rounds2; ++r) {
    if (tid == 0) count[0] += 1;
    __syncthreads();
    if (tid == blockDim.x - 1 && r == probe) out[1] = count[0];
    __syncthreads();
  }
}

// Nothing but a loop of one barrier: each thread counts its repeated arrivals inline, into its
// own queued entry (emu_hooks.h, syncthreads_repeat). A thread's queue fills at 1,024 arrivals
// and it stops there, so the next thread starts at the very barrier the last one counted into.
__global__ void barrier_loop_from_the_start(ws::global_array<int> out, unsigned rounds) {
  for (unsigned r = 0; r < rounds; ++r) __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = int(threadIdx.x);
}

// One __syncthreads() in a function template that the two halves of the block call with
// different arguments: two instantiations, one source site, one barrier.
template <int Half>
__device__ void write_then_sync(ws::shared_array<int, 64, "halves">& halves) {
  halves[threadIdx.x] = Half;
  __syncthreads();
}
__global__ void barrier_in_two_instantiations(ws::global_array<int> out) {
  __shared__ ws::shared_array<int, 64, "halves"> halves;
  if (threadIdx.x < 32) write_then_sync<1>(halves);
  else write_then_sync<2>(halves);
  out[threadIdx.x] = halves[63 - threadIdx.x];
}

// Accesses whose bank and sector counts change with a shift, a stride or the lanes past the
// first two, from loop step to loop step: per-site counters must tell the patterns apart.
__global__ void shifting_patterns(ws::global_array<const int> in, ws::global_array<int> out) {
  __shared__ ws::shared_array<int, 1024, "tile"> tile;
  const unsigned tid = threadIdx.x;
  unsigned sum = 0;  // (unsigned: some of the tile is never written, and sums of its poison overflow)
  for (unsigned k = 0; k < 6; ++k) {
    const unsigned stride = 1 + (k / 2 + blockIdx.x) % 3, shift = (k + 1) / 2 % 2 * 5;
    tile[tid * stride + shift] = int(tid + k);
    sum += unsigned(in[blockIdx.x * 64 + tid * stride + shift]);
    __syncthreads();
    if (tid < 48 - 8 * (k % 2)) sum += unsigned(int(tile[(tid * stride * 2 + shift) % 1024]));
    sum += unsigned(int(tile[tid < 2 ? tid : tid * (1 + k % 2)]));  // lanes 0 and 1 alike, the rest not
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + tid] = int(sum);
}

// Each thread adds its right-hand neighbour's element (one warp: lockstep orders the loads after
// the copy's stores) and notes how many threads of the block had started when it got past the
// step. `started` and `seen` are host memory, not arrays the emulator sees: they show the order
// in which it runs the threads. A thread that never sees the values it moves (`s[i] = a[i]`,
// `s[i] += s[j]`) need not stop at the loads.
__global__ void neighbour_sum_noting_order(ws::global_array<int> a, std::atomic<int>* started, int* seen) {
  __shared__ ws::shared_array<int, 32, "s"> s;
  unsigned tid = threadIdx.x;
  started->fetch_add(1);
  s[tid] = a[tid];
  s[tid] += s[(tid + 1) % 32];
  seen[tid] = started->load();
  a[tid] = s[tid];
}

// A warp's shuffle-down sum (lane 0 ends with the total), noting how many threads had started
// when each got past it (host memory, as in neighbour_sum_noting_order).
__global__ void shuffle_sum_noting_order(ws::global_array<int> out, std::atomic<int>* started, int* seen) {
  started->fetch_add(1);
  int v = int(threadIdx.x);
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  seen[threadIdx.x] = started->load();
  out[threadIdx.x] = v;
}

// Lanes 0-7 read a value from memory the kernel writes (each stops at its load until the warp
// issues it), the others take 0; then the warp's shuffle-down sum, which lanes 8-31 reach first.
// Host memory notes how many of lanes 0-7 had come to the sum when each got past it (as in
// neighbour_sum_noting_order). a[32 + lane] gets each lane's sum.
__global__ void late_lanes_shuffle_sum_noting_order(ws::global_array<int> a, std::atomic<int>* started, int* seen) {
  const unsigned lane = threadIdx.x;
  int v = 0;
  if (lane < 8) {
    v = a[lane];
    started->fetch_add(1);
  }
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (lane < 8) seen[lane] = started->load();
  a[32 + lane] = v;
}

// Lanes 1 and 2 load through a device function defined below the kernel (a later source position),
// so the others reach the shuffle first. Lane 0's mask names lane 2, which is still loading, so
// lane 0 waits there (as on Volta); lane 1's mask names only itself, so lane 1 issues its shuffle
// as soon as it comes, without lane 0: reading lane 0, which does not take part, it keeps its own
// value (the emulator's answer to what a GPU leaves undefined).
__device__ int load_late(ws::global_array<int> a, unsigned lane);
__global__ void shuffle_past_a_waiting_lane(ws::global_array<int> a, ws::global_array<int> out) {
  const unsigned lane = threadIdx.x;
  int v = int(lane) + 100;
  if (lane == 1 || lane == 2) v = load_late(a, lane);
  const unsigned mask = lane == 0 ? 0x5u : 1u << lane;
  v = __shfl_up_sync(mask, v, 1);
  out[lane] = v;
}
__device__ int load_late(ws::global_array<int> a, unsigned lane) {
  int x = a[lane];
  if (lane == 2) x += a[32 + lane];
  return x;
}

// Threads that stop at loads (on fibers that change hands from thread to thread) throw and catch
// exceptions of their own: v = 5 (every third) + 1 + 5 (every second) + 2.
__global__ void catches_its_own_exceptions(ws::global_array<int> a, ws::global_array<int> out) {
  const unsigned t = threadIdx.x;
  int v = 0;
  if (t % 3 == 0) v = a[t];
  try {
    if (v >= 0) throw std::runtime_error("caught in the kernel");
  } catch (const std::exception&) {
    v += 1;
  }
  if (t % 2 == 0) v += a[64 + t];
  try {
    throw 2;
  } catch (int k) {
    v += k;
  }
  out[blockIdx.x * blockDim.x + t] = v;
}

// Block 2's thread 5 reads out of bounds, after blocks 0 and 1 ran on the same worker's fibers;
// every thread holds a local that counts its destruction.
__global__ void fault_in_block_2_with_live_objects(ws::global_array<const int> in, ws::global_array<int> out,
                                                   std::atomic<int>* destroyed) {
  CountsItsDestruction guard{destroyed};
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[threadIdx.x] + out[i];  // (`out` is written: its load waits for the warp)
  if (blockIdx.x == 2 && threadIdx.x == 5) v += in[threadIdx.x + 1000];
  out[i] = v;
}

// Every lane stores a 16-byte vector into one element (a same-address race): the highest lane's
// value is left, as on a GPU. `order` puts a shuffle first (0: none, 1: down, 2: up), which
// changes the order in which the emulator runs the lanes; it must not change the winner.
__global__ void wide_store_race(ws::global_array<int4> out, int order) {
  int v = int(threadIdx.x);
  if (order == 1) v = __shfl_down_sync(0xffffffffu, v, 1);
  if (order == 2) v = __shfl_up_sync(0xffffffffu, v, 1);
  out[0] = make_int4(int(threadIdx.x), v, 0, 0);
}

// A loop whose lanes split after a shuffle: lanes with an odd sum go round again (`continue`)
// while the others store. The lanes a round behind (the storing ones) issue first, whichever
// lanes the emulator happens to run first.
__global__ void continue_after_shuffle(ws::global_array<const int> c, ws::global_array<int> e) {
  const unsigned t = threadIdx.x;
  for (unsigned i = 0; i < 2; ++i) {
    int x = c[t * 2 + i];
    x += __shfl_down_sync(0xffffffffu, x, 16);
    if (x & 1) continue;
    e[t * 2 + i] = x;
  }
}

// Every lane writes past the end of `a` (32 elements), after a plain copy or after a shuffle.
__global__ void every_lane_out_of_bounds(ws::global_array<int> a, ws::global_array<int> b, int after_shuffle) {
  const unsigned t = threadIdx.x;
  if (after_shuffle) a[t + 32] = __shfl_down_sync(0xffffffffu, int(t), 16);
  else a[t + 32] = b[t];
}

// One store site reached two ways: even lanes copy an element there, odd lanes a value (`auto`
// keeps the element references, so both stores are `dst`'s site).
__global__ void store_copy_or_value(ws::global_array<int> a, ws::global_array<int> b) {
  auto src = b[threadIdx.x];
  auto dst = a[threadIdx.x];
  if (threadIdx.x % 2 == 0) dst = src;
  else dst = 7;
}

// Two 32 KiB shared arrays: 64 KiB, over the 48 KiB a block may have.
__global__ void too_much_shared(ws::global_array<int> out) {
  __shared__ ws::shared_array<int, 8192, "first"> first;
  __shared__ ws::shared_array<int, 8192, "second"> second;
  first[threadIdx.x] = 1;
  second[threadIdx.x] = 2;
  out[threadIdx.x] = first[threadIdx.x] + second[threadIdx.x];
}

// Thread 0 writes a[0] in every iteration, thread 1 reads it in the second only, and a barrier
// ends each iteration. The warp meets at the barrier, so in the second iteration the write (first
// in the source) issues before the read, as in lockstep: the read gets 2.
__global__ void write_then_read_after_barrier(ws::global_array<int> a, ws::global_array<int> out) {
  const unsigned t = threadIdx.x;
  for (int it = 0; it < 2; ++it) {
    if (t == 0) a[0] = it + 1;
    if (t == 1 && it == 1) out[0] = a[0];
    __syncthreads();
  }
}

// The odd lanes exit at once; the even ones stop at a load, then queue a run of stores and a
// __syncwarp that cannot complete: its mask names the exited lanes (`lane30_mask` all lanes), or
// lane 30 passes a mask of its own (`lane30_mask` the even lanes) that the others' do not match.
// The even lanes resume together, so the scheduler issues their stores converged: the __syncwarp
// must still be reported, not issued with them.
__global__ void syncwarp_that_cannot_complete(ws::global_array<int> a, unsigned lane30_mask) {
  const unsigned t = threadIdx.x;
  if (t % 2) return;
  const int v = a[t];
  a[32 + t] = v;
  a[64 + t] = v + 1;
  a[96 + t] = v + 2;
  a[128 + t] = v + 3;
  __syncwarp(t == 30 ? lane30_mask : 0xffffffffu);
  a[160 + t] = v + 4;
  a[192 + t] = v + 5;
}

// A local whose destructor stores (two stores): it runs when the thread returns, or when the
// block fails and the emulator unwinds the thread's stack.
struct StoresWhenDestroyed {
  ws::global_array<int> a;
  unsigned i;
  std::atomic<int>* destroyed;
  ~StoresWhenDestroyed() {
    ++*destroyed;
    a[i] = 5;
    a[(i + 1) % 64] = 6;
  }
};

// Thread 0 stores out of bounds (the block fails); the others queue 40 stores, stopping each
// time their queue is full, so they are unwound with a full queue.
__global__ void failure_unwinds_full_queues(ws::global_array<int> a, std::atomic<int>* destroyed) {
  const unsigned t = threadIdx.x;
  StoresWhenDestroyed guard{a, t, destroyed};
  if (t == 0) a[100000] = 1;
  for (int i = 0; i < 40; ++i) a[64 + t] = i;
}

// Every lane stops at a load, then queues six stores at six sites and spins: a runaway loop the
// step budget stops, whose report says where the threads were.
__global__ void stores_then_spin(ws::global_array<int> a) {
  const unsigned t = threadIdx.x;
  int v = a[t];
  a[32 + t] = v;
  a[64 + t] = v + 1;
  a[96 + t] = v + 2;
  a[128 + t] = v + 3;
  a[160 + t] = v + 4;
  a[192 + t] = v + 5;
  for (;;) a[224 + t] = ++v;
}

// a[t] += t over a grid: the launch-level test of many launches at once.
__global__ void add_index(ws::global_array<int> a) {
  const unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  a[t] = a[t] + int(t);
}
