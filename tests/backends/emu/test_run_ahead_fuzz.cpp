// Random kernels, run with the emulator's run-ahead (deferred loads, eager shuffles) and its
// converged issue in each of the modes of emu_test_util.h: every run must give the results,
// memory, diagnostics, warp instructions and lane offsets of the run where threads stop at every
// load and shuffle and the scheduler moves each lane on by itself. The kernels mix what
// makes lanes run in different orders and passes: divergent branches, loops with per-lane trip
// counts and `continue`, shuffles of every kind, width and source (masks of all the lanes, of the
// lanes still in a loop, or random ones), lanes that wait at a shuffle for slower lanes, barrier
// loops that some threads sit out, votes and __syncwarp. Each kernel's branches are chosen by a
// control array in host memory (read at once, not traced), from fixed seeds: the runs repeat.
// (A review ran 11,000 such kernels; CI runs a few hundred of each.)
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "emu_test_util.h"
#include "ws/kernel.cuh"

using namespace ws;

namespace {

// [SECTION] Kernels

// `ctl`: 4 words per thread per iteration, then 1 per thread for the tail. Branches, a store that
// some lanes make, shuffles down/xor/indexed/up with per-lane deltas and widths, a barrier that
// thread 0's word decides for the whole block, optional random partial masks, a ballot.
__global__ void branches_and_shuffles(const int* ctl, int iters, int partial, ws::global_array<int> mem,
                                      ws::global_array<int> out) {
  __shared__ ws::shared_array<int, 128, "sh"> sh;
  const unsigned t = threadIdx.x, lane = t % 32, base = t - lane, n = blockDim.x;
  const unsigned lanes = std::min(32u, n - base);
  const unsigned all = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  // Unsigned: the sums wrap (on the GPU as here) instead of overflowing a signed int.
  unsigned v = t * 7 + 1 + blockIdx.x * 1000;
  sh[t] = v;
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    const int* c = ctl + (size_t(it) * n + t) * 4;
    const int k = c[0];
    if (k & 1) v += mem[t];
    if (k & 2) mem[n + t] = v;
    if (k & 4) sh[t] = v;
    v += __shfl_down_sync(all, v, unsigned(c[1] & 31), 1 << ((c[1] >> 5) % 6));
    if (k & 8) v += mem[2 * n + (t ^ 1) % n];
    v ^= __shfl_xor_sync(all, v, c[2] & 31);
    if (ctl[size_t(it) * n * 4] & 16) __syncthreads();
    if (k & 32) v += sh[(t + 1) % n];
    v += __shfl_sync(all, v, c[3] & 31, 16);
    __syncwarp(all);
    if (k & 64) mem[n + t] = int(v * 3);
    v += __shfl_up_sync(all, v, unsigned((c[1] >> 8) & 31));
    if (partial) {
      unsigned m = 0;
      for (unsigned j = 0; j < lanes; ++j)
        if (ctl[(size_t(it) * n + base + j) * 4] & 256) m |= 1u << j;
      if (k & 256) v += __shfl_xor_sync(m, v, 1);
    }
    v += unsigned(std::popcount(__ballot_sync(all, v & 1)));
  }
  const int tail = ctl[size_t(iters) * n * 4 + t];
  for (int s = 0; s < 3; ++s) {
    if (tail & (1 << s)) {
      v += mem[t];
      mem[t] = int(v);
    }
    __syncthreads();
  }
  v += __shfl_down_sync(all, v, 1);
  out[blockIdx.x * n + t] = int(v);
}

// Lanes whose word has bit 0 go through slower_path, whose body lies further down this file: the
// others reach the shuffles first (a smaller source position) and wait there for them. Masks are
// every lane of the warp, or random ones that name at least the lane itself.
__device__ int slower_path(ws::global_array<int> mem, unsigned t, int k, unsigned m);
__global__ void lanes_that_wait(const int* ctl, int iters, int random_masks, ws::global_array<int> mem,
                                ws::global_array<int> out) {
  const unsigned t = threadIdx.x, lane = t % 32, base = t - lane, n = blockDim.x;
  const unsigned lanes = std::min(32u, n - base);
  const unsigned all = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  // Unsigned: the sums wrap (on the GPU as here) instead of overflowing a signed int.
  unsigned v = t * 7 + 1 + blockIdx.x * 1000;
  for (int it = 0; it < iters; ++it) {
    const int* c = ctl + (size_t(it) * n + t) * 4;
    const int k = c[0];
    const unsigned m = random_masks ? (unsigned(c[3]) | (1u << lane)) & all : all;
    if (k & 1) v += slower_path(mem, t, k, m);
    if (k & 4) mem[n + t] = v;
    v += __shfl_down_sync(m, v, unsigned(c[1] & 31), 1 << ((c[1] >> 5) % 6));
    if (k & 2) mem[n + t] = v;
    v ^= __shfl_xor_sync(m, v, c[2] & 31);
    if (k & 8) v += mem[2 * n + (t ^ 1) % n];
    v += __shfl_sync(m, v, c[3] & 31, 16);
    v += __shfl_up_sync(m, v, unsigned((c[1] >> 8) & 31));
  }
  out[blockIdx.x * n + t] = v;
}

// `ctl`: 8 words per thread. Loops with per-lane trip counts (0-3), an if/else in the loop,
// `continue`, shuffles whose mask is exactly the lanes still in the loop (or those of them that
// did not `continue`) and whose source is one of them, then barrier loops that some threads sit
// out, and whole-warp shuffles.
__global__ void divergent_loops(const int* ctl, ws::global_array<int> mem, ws::global_array<int> out) {
  __shared__ ws::shared_array<int, 128, "shc"> sh;
  const unsigned t = threadIdx.x, lane = t % 32, base = t - lane, n = blockDim.x;
  const unsigned lanes = std::min(32u, n - base);
  const unsigned all = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  const int* c = ctl + t * 8;
  const int trips = c[0] % 4;
  int v = int(t) * 5 + 3;
  sh[t] = v;
  __syncthreads();
  for (int i = 0; i < trips; ++i) {
    unsigned m = 0;  // the lanes of the warp still in the loop
    for (unsigned j = 0; j < lanes; ++j)
      if (ctl[(base + j) * 8] % 4 > i) m |= 1u << j;
    if ((c[1] >> i) & 1) {
      v += mem[t];
      mem[n + t] = v;
    } else {
      mem[2 * n + t] = v;
      if ((c[2] >> i) & 1) v += sh[(t + 3) % n];
    }
    unsigned pick = unsigned(c[3] >> (i * 5)) % unsigned(std::popcount(m)), src = 0;
    for (unsigned left = m;; left &= left - 1)
      if (pick-- == 0) {
        src = unsigned(std::countr_zero(left));
        break;
      }
    v += __shfl_sync(m, v, int(src));
    if ((c[4] >> i) & 1) continue;
    if ((c[5] >> i) & 1) sh[t] = v;
    unsigned stay = 0;  // those of them that did not `continue`
    for (unsigned j = 0; j < lanes; ++j)
      if ((m >> j & 1) && !((ctl[(base + j) * 8 + 4] >> i) & 1)) stay |= 1u << j;
    v ^= __shfl_sync(stay, v, std::countr_zero(stay));
  }
  for (int s = 0; s < 4; ++s) {
    if ((c[6] >> s) & 1) {
      v += mem[t];
      mem[t] = int(v);
    }
    __syncthreads();
  }
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(all, v, unsigned(d));
  if ((c[7] & 3) == 0) v += mem[n + (t ^ 2) % n];
  v += __shfl_xor_sync(all, v, unsigned(c[7] >> 2) & 31);
  out[blockIdx.x * n + t] = v;
}

// `ctl`: 4 words per thread. Long runs of what a lane queues without stopping (stores, shuffles
// down that every lane takes at once, __syncwarp, fences), so that a warp's lanes queue the same
// operations and the scheduler issues them converged; now and then one lane of a warp does one
// more store (it differs from the others from there on) or stops at a load, per the warp's first
// lane's words; lanes may end the loop early (per lane); some trials shuffle with xor, where lanes
// wait for each other; block-wide barriers at steps that thread 0's last word picks.
__global__ void long_straight_runs(const int* ctl, int shuffles, ws::global_array<int> mem, ws::global_array<int> out) {
  const unsigned t = threadIdx.x, lane = t % 32, base = t - lane, n = blockDim.x;
  const unsigned lanes = std::min(32u, n - base);
  const int* c = ctl + t * 4;
  const int* w = ctl + base * 4;  // the warp's first lane's words
  const int steps = 4 + c[0] % 9;  // per lane: lanes that end early leave the others' masks
  int v = int(t) * 3 + 1 + int(blockIdx.x) * 100;
  for (int s = 0; s < 12; ++s) {
    unsigned m = 0;  // the lanes of the warp still in the loop
    for (unsigned j = 0; j < lanes; ++j)
      if (4 + ctl[(base + j) * 4] % 9 > s) m |= 1u << j;
    if (s >= steps) break;
    mem[n + t] = v;
    if (unsigned(w[1] >> (2 * s)) % 128 == lane) mem[2 * n + t] = v + s;  // one lane in 4: one more store
    if (unsigned(w[2] >> (2 * s)) % 256 == lane) v += mem[t];             // one lane in 8: a load that stops
    if (shuffles == 2) v += __shfl_xor_sync(m, v, 1u << (s % 5)) & 0xffff;
    if (s % 4 == 3) __syncwarp(m);
    if (s % 5 == 2) __threadfence_block();
    if (shuffles) v += __shfl_down_sync(m, v, 1u + unsigned(s % 3)) & 0xff;
    mem[n + t] = v ^ s;
    if ((ctl[3] >> (s + 16)) & 1) __syncthreads();  // (thread 0's word: the same for all)
  }
  out[blockIdx.x * n + t] = v;
}

// [SECTION] Running and comparing

struct Run {
  bool ok = false;
  std::vector<int> out, mem;
  std::vector<Event> events;
  std::vector<uint64_t> lanes;
  std::vector<std::string> diagnostics;
};

// Two blocks of `block` threads; `mem` holds 3 ints per thread, `out` one.
template <class Call>
Run run(uint32_t block, test::RunAhead mode, Call call) {
  emu::Memory memory;
  std::vector<int> init(3 * block);
  for (size_t i = 0; i < init.size(); ++i) init[i] = int(i * 2654435761u % 97);
  auto mem = memory.upload<int>("mem", init);
  auto out = memory.alloc<int>("out", 2 * block);
  const emu::LaunchResult r = emu::launch(memory, test::options(2, block, mode), {}, [=] { call(mem, out); });
  Run got;
  got.ok = r.ok();
  got.out = memory.download(out);
  got.mem = memory.download(mem);
  got.events = r.trace.events;
  got.lanes = r.trace.lane_offsets;
  for (const Diagnostic& d : r.trace.diagnostics) got.diagnostics.push_back(d.code + ": " + d.message);
  return got;
}

std::string describe(const Event& e) {
  std::ostringstream s;
  s << "type " << int(e.type) << " kind " << int(e.kind) << " width " << int(e.width) << " op " << int(e.op)
    << " block " << e.block << " warp " << e.warp << " site " << e.site << " alloc " << e.alloc << " mask "
    << std::hex << e.mask << std::dec << " step " << e.step << " time " << e.time << " lanes from " << e.lane_begin;
  return s.str();
}

// Whether `got` is `want` in everything a user sees; the first difference is reported.
::testing::AssertionResult same_run(const Run& want, const Run& got) {
  if (want.ok != got.ok) return ::testing::AssertionFailure() << "ok " << want.ok << " vs " << got.ok;
  if (want.diagnostics != got.diagnostics)
    return ::testing::AssertionFailure() << "diagnostics differ: "
                                         << (want.diagnostics.empty() ? "none" : want.diagnostics[0]) << " vs "
                                         << (got.diagnostics.empty() ? "none" : got.diagnostics[0]);
  if (want.ok && want.out != got.out) return ::testing::AssertionFailure() << "results differ";
  if (want.ok && want.mem != got.mem) return ::testing::AssertionFailure() << "memory differs";
  if (want.events.size() != got.events.size())
    return ::testing::AssertionFailure() << want.events.size() << " vs " << got.events.size() << " events";
  for (size_t i = 0; i < want.events.size(); ++i)
    if (describe(want.events[i]) != describe(got.events[i]))
      return ::testing::AssertionFailure() << "event " << i << ":\n  " << describe(want.events[i]) << "\n  "
                                           << describe(got.events[i]);
  if (want.lanes != got.lanes) return ::testing::AssertionFailure() << "lane offsets differ";
  return ::testing::AssertionSuccess();
}

// Runs `trials` kernels made by make(trial, rng) in every run-ahead mode against the run with none.
template <class Make>
void expect_same_in_every_mode(uint32_t seed, int trials, Make make) {
  std::mt19937 rng(seed);
  int failures = 0;
  for (int trial = 0; trial < trials && failures < 3; ++trial) {
    std::vector<int> ctl;
    const auto [block, call] = make(trial, rng, ctl);
    const Run want = run(block, test::kNoRunAhead, call);
    for (const test::RunAhead mode : test::kRunAheadModes) {
      if (!mode.defer_loads && !mode.eager_shuffles && !mode.converged_issue) continue;  // (that is `want`)
      const ::testing::AssertionResult same = same_run(want, run(block, mode, call));
      if (!same) ++failures;
      EXPECT_TRUE(same) << "trial " << trial << ", block " << block << ", " << test::to_string(mode);
    }
  }
}

constexpr int kTrials = 300;

}  // namespace

// [SECTION] Tests

TEST(RunAheadFuzz, BranchesShufflesAndBarriers) {
  expect_same_in_every_mode(12345, kTrials, [](int trial, std::mt19937& rng, std::vector<int>& ctl) {
    const uint32_t block = std::vector<uint32_t>{32, 64, 48, 96, 128}[trial % 5];
    const int iters = 1 + trial % 3, partial = (trial / 5) % 2, sparse = trial % 7 < 3;
    ctl.resize(size_t(iters) * block * 4 + block);
    for (int& c : ctl) {
      int x = int(rng());
      if (sparse) x &= int(rng()) | 0x7fff00;  // fewer low bits: fewer branches taken
      c = x & 0x7fffffff;
    }
    const int* words = ctl.data();
    return std::pair{block, [=](ws::global_array<int> m, ws::global_array<int> o) {
                       branches_and_shuffles(words, iters, partial, m, o);
                     }};
  });
}

TEST(RunAheadFuzz, LanesThatWaitAtShufflesForSlowerLanes) {
  expect_same_in_every_mode(777, kTrials, [](int trial, std::mt19937& rng, std::vector<int>& ctl) {
    const uint32_t block = std::vector<uint32_t>{32, 64, 48}[trial % 3];
    const int iters = 1 + trial % 3, random_masks = (trial / 3) % 2;
    ctl.resize(size_t(iters) * block * 4 + block);
    for (size_t i = 0; i < ctl.size(); ++i) {
      int x = int(rng());
      if (trial % 4 == 0) x &= int(rng()) | ~63;
      if (random_masks && i % 4 == 3) x |= int(rng()) | int(rng());  // dense masks
      ctl[i] = x & 0x7fffffff;
      if (random_masks && i % 4 == 3 && trial % 5 < 3) ctl[i] = -1;  // the whole warp
    }
    const int* words = ctl.data();
    return std::pair{block, [=](ws::global_array<int> m, ws::global_array<int> o) {
                       lanes_that_wait(words, iters, random_masks, m, o);
                     }};
  });
}

TEST(RunAheadFuzz, DivergentLoopsWithTheirLanesMasks) {
  expect_same_in_every_mode(4242, kTrials, [](int trial, std::mt19937& rng, std::vector<int>& ctl) {
    const uint32_t block = std::vector<uint32_t>{32, 64, 48, 96}[trial % 4];
    ctl.resize(size_t(block) * 8);
    for (int& c : ctl) c = int(rng() & 0x7fffffff);
    if (trial % 3 == 0)
      for (unsigned t = 0; t < block; ++t) ctl[t * 8 + 6] &= int(rng());  // fewer barrier-loop loads
    const int* words = ctl.data();
    return std::pair{block, [=](ws::global_array<int> m, ws::global_array<int> o) { divergent_loops(words, m, o); }};
  });
}

TEST(RunAheadFuzz, LongStraightRunsThatTheSchedulerIssuesConverged) {
  expect_same_in_every_mode(2026, kTrials, [](int trial, std::mt19937& rng, std::vector<int>& ctl) {
    const uint32_t block = std::vector<uint32_t>{32, 64, 48, 96}[trial % 4];
    ctl.resize(size_t(block) * 4);
    for (int& c : ctl) c = int(rng() & 0x7fffffff);
    for (unsigned t = 0; t < block; ++t)
      if (trial % 3 == 0) ctl[t * 4] = 8;  // every lane runs every step
    // Barriers only where every thread runs every step (else the block stops at one: barrier
    // divergence), and not always.
    if (trial % 3 != 0 || trial % 4 < 2) ctl[3] &= 0xffff;
    const int* words = ctl.data();
    const int shuffles = (trial / 4) % 3;  // none, down (taken at once), down and xor (lanes wait)
    return std::pair{block, [=](ws::global_array<int> m, ws::global_array<int> o) {
                       long_straight_runs(words, shuffles, m, o);
                     }};
  });
}

namespace {
__device__ int slower_path(ws::global_array<int> mem, unsigned t, int k, unsigned m) {
  int x = mem[t];
  if (k & 16) x += mem[2 * blockDim.x + t] + int(m & 1);
  if (k & 32) mem[blockDim.x + t] = x;
  return x;
}
}  // namespace
