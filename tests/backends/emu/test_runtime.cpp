// Results and determinism of the emulator: lockstep semantics, shuffles, atomics, threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <thread>
#include <tuple>

#include "emu_test_util.h"
#include "ws/rules/global_sectors.h"
#include "ws/rules/shared_banks.h"
#include "shuffle_cases.cuh"
#include "test_kernels.cuh"

using namespace ws;

TEST(EmuRuntime, UnrolledLastWarpIsRightUnderLockstep) {
  emu::Memory mem;
  auto input = test::iota_input(256 * 3);
  auto in = mem.upload<int>("in", input);
  auto out = mem.alloc<int>("out", 3);
  auto r = emu::launch(mem, test::options(3, 256), {}, [=] { unrolled_last_warp<256>(in, out); });
  ASSERT_TRUE(r.ok());
  auto got = mem.download(out);
  for (int b = 0; b < 3; ++b)
    EXPECT_EQ(got[b], std::accumulate(input.begin() + b * 256, input.begin() + (b + 1) * 256, 0));
}

// Deferred loads: with them a thread runs past `s[i] = a[i]` and `s[i] += s[j]` without stopping
// (the first thread to run is past the step before a second one starts); without, every thread
// stops at the first load. The values are the lockstep ones either way.
TEST(EmuRuntime, DeferredLoadsLetAThreadRunOnWithTheSameValues) {
  for (bool defer : {true, false}) {
    emu::Memory mem;
    auto input = test::iota_input(32, 10);
    auto a = mem.upload<int>("a", input);
    std::atomic<int> started{0};
    std::vector<int> seen(32, -1);
    emu::LaunchOptions opt = test::options(1, 32);
    opt.defer_loads = defer;
    auto r = emu::launch(mem, opt, {}, [&, a] { neighbour_sum_noting_order(a, &started, seen.data()); });
    ASSERT_TRUE(r.ok());
    const std::vector<int> got = mem.download(a);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(got[i], input[i] + input[(i + 1) % 32]) << "defer " << defer << ", thread " << i;
    EXPECT_EQ(*std::min_element(seen.begin(), seen.end()), defer ? 1 : 32);
    EXPECT_EQ(*std::max_element(seen.begin(), seen.end()), 32);
  }
}

// Eager shuffles: a shuffle down reads higher lanes, so a warp's highest lane runs first and every
// lane finds its source already there: the first thread to run is past all five shuffles before a
// second one starts. Without, every thread stops at the first shuffle. The values are PTX's
// either way (a source past the warp's end gives the lane its own value).
TEST(EmuRuntime, EagerShufflesLetAThreadRunOnWithTheSameValues) {
  std::vector<int> want(32);
  for (int i = 0; i < 32; ++i) want[i] = i;
  for (int offset = 16; offset > 0; offset /= 2) {
    const std::vector<int> before = want;
    for (int i = 0; i < 32; ++i) want[i] += before[i + offset < 32 ? i + offset : i];
  }
  ASSERT_EQ(want[0], 496);
  for (bool eager : {true, false}) {
    emu::Memory mem;
    auto out = mem.alloc<int>("out", 32);
    std::atomic<int> started{0};
    std::vector<int> seen(32, -1);
    emu::LaunchOptions opt = test::options(1, 32);
    opt.eager_shuffles = eager;
    auto r = emu::launch(mem, opt, {}, [&, out] { shuffle_sum_noting_order(out, &started, seen.data()); });
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(mem.download(out), want) << "eager " << eager;
    EXPECT_EQ(*std::min_element(seen.begin(), seen.end()), eager ? 1 : 32);
  }
}

// Lanes that stop at a load and run again later read, at once, the lanes that went ahead to the
// shuffles and wait there: the lanes a shuffle reads issue it together with them (their queued
// operations from there on are the same), so a lane whose source lane is from an earlier run pass
// need not stop either. Lane 7 runs first and gets past all five shuffles before lane 6 starts.
TEST(EmuRuntime, LanesThatRunLaterTakeShuffleValuesFromLanesWaitingThere) {
  std::vector<int> a(64, 0);
  for (int i = 0; i < 8; ++i) a[i] = 10 + i;
  std::vector<int> v(32, 0);
  for (int i = 0; i < 8; ++i) v[i] = a[i];
  for (int offset = 16; offset > 0; offset /= 2) {
    const std::vector<int> before = v;
    for (int i = 0; i < 32; ++i) v[i] += before[i + offset < 32 ? i + offset : i];
  }
  ASSERT_EQ(v[0], 10 + 11 + 12 + 13 + 14 + 15 + 16 + 17);
  for (bool eager : {true, false}) {
    emu::Memory mem;
    auto arr = mem.upload<int>("a", a);
    std::atomic<int> started{0};
    std::vector<int> seen(8, -1);
    emu::LaunchOptions opt = test::options(1, 32);
    opt.eager_shuffles = eager;
    auto r = emu::launch(mem, opt, {}, [&, arr] { late_lanes_shuffle_sum_noting_order(arr, &started, seen.data()); });
    ASSERT_TRUE(r.ok());
    const std::vector<int> got = mem.download(arr);
    EXPECT_EQ(std::vector<int>(got.begin() + 32, got.end()), v) << "eager " << eager;
    EXPECT_EQ(*std::min_element(seen.begin(), seen.end()), eager ? 1 : 8);
  }
}

// A lane may take a waiting lane's shuffle value at once only where the warp would issue the two
// together: lane 0 waits for lane 2 (its mask names it), lane 1's mask leaves lane 0 out, so
// lane 1 issues alone and keeps its own value, eager or not.
TEST(EmuRuntime, ALaneDoesNotReadAWaitingLaneItsMaskLeavesOut) {
  std::vector<int> a(64, 0);
  a[1] = 7, a[2] = 8, a[34] = 9;
  std::vector<std::vector<uint32_t>> shuffle_masks;
  for (bool eager : {true, false}) {
    emu::Memory mem;
    auto arr = mem.upload<int>("a", a);
    auto out = mem.alloc<int>("out", 32);
    emu::LaunchOptions opt = test::options(1, 32);
    opt.eager_shuffles = eager;
    auto r = emu::launch(mem, opt, {}, [=] { shuffle_past_a_waiting_lane(arr, out); });
    ASSERT_TRUE(r.ok());
    const std::vector<int> got = mem.download(out);
    EXPECT_EQ(got[0], 100) << "eager " << eager;  // no lane below it
    EXPECT_EQ(got[1], 7) << "eager " << eager;    // its own value: lane 0 is not taking part
    EXPECT_EQ(got[2], 17) << "eager " << eager;   // its own (8 + 9): lane 1 issued before it
    EXPECT_EQ(got[3], 17) << "eager " << eager;   // lane 2's
    shuffle_masks.push_back(test::masks(test::events_at(r.trace, "v = __shfl_up_sync(mask, v, 1);", EventType::WarpSync,
                                            AccessKind::Load, 0, 0)));
  }
  EXPECT_EQ(shuffle_masks[0], shuffle_masks[1]);
  EXPECT_EQ(shuffle_masks[0], (std::vector<uint32_t>{0x2u, 0xfffffffdu}));
}

// A same-address store of a 16-byte vector by every lane (the lanes write it themselves as they
// resume): the highest lane's value is left, whatever order the emulator ran the lanes in.
TEST(EmuRuntime, TheHighestLaneWinsAWideStoreRaceInEveryRunOrder) {
  for (const test::RunAhead mode : test::kRunAheadModes) {
    for (int order : {0, 1, 2}) {
      emu::Memory mem;
      auto out = mem.alloc<int4>("out", 1);
      auto r = emu::launch(mem, test::options(1, 32, mode), {}, [=] { wide_store_race(out, order); });
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(mem.download(out)[0].x, 31) << test::to_string(mode) << ", shuffle first: " << order;
    }
  }
}

TEST(EmuRuntime, ShuffleReduction) {
  emu::Memory mem;
  auto input = test::iota_input(32);
  auto in = mem.upload<int>("in", input);
  auto out = mem.alloc<int>("out", 1);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { shuffle_sum(in, out); });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(mem.download(out)[0], std::accumulate(input.begin(), input.end(), 0));
  int shuffles = 0;
  for (const Event& e : r.trace.events)
    if (e.type == EventType::WarpSync) {
      ++shuffles;
      EXPECT_EQ(WarpOp(e.op), WarpOp::ShflDown);
      EXPECT_EQ(e.mask, 0xffffffffu);
      EXPECT_EQ(e.aux(), 0xffffffffu);
    }
  EXPECT_EQ(shuffles, 5);
}

TEST(EmuRuntime, SyncwarpKeepsTheWarpsInstructionOrder) {
  emu::Memory mem;
  auto input = test::iota_input(32, 100);
  auto in = mem.upload<int>("in", input);
  auto out = mem.alloc<int>("out", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { rotate_with_syncwarp(in, out); });
  ASSERT_TRUE(r.ok());
  const std::vector<int> got = mem.download(out);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(got[t], input[(t + 1) % 32]) << "lane " << t;
  // Warp 0 issues, in this order: the global load, the shared store, __syncwarp, the shared
  // load, __syncwarp, the shared store, __syncwarp, the shared load, the global store; every
  // one with all 32 lanes.
  std::vector<std::string> order;
  for (const Event& e : r.trace.events) {
    EXPECT_EQ(e.mask, 0xffffffffu);
    if (e.type == EventType::WarpSync) order.push_back("sync");
    else if (e.type == EventType::Access) order.push_back(std::string(to_string(e.space)) + " " + to_string(e.kind));
  }
  const std::vector<std::string> want = {"global load", "shared store", "sync", "shared load", "sync",
                                         "shared store", "sync", "shared load", "global store"};
  EXPECT_EQ(order, want);
}

// Thread stacks are bounded by their budget (a quarter of the run's memory limit): what they can
// take, workers x threads x stack size, stays within it; each gets up to 256 KiB, fewer workers
// run before a stack goes under 32 KiB, and a block whose stacks do not fit even so is refused.
TEST(EmuRuntime, ThreadStacksAreSharedOutWithinTheirBudget) {
  constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;
  const emu::StackPlan roomy = emu::plan_stacks(2, 256, 1024 * MiB);  // 2 x 256 x 256 KiB = 128 MiB fit
  EXPECT_EQ(roomy.workers, 2u);
  EXPECT_EQ(roomy.stack_bytes, 256 * KiB);
  EXPECT_TRUE(roomy.refused.empty());
  const emu::StackPlan shared = emu::plan_stacks(4, 256, 40 * MiB);  // 40 MiB / 1024 stacks = 40 KiB
  EXPECT_EQ(shared.workers, 4u);
  EXPECT_EQ(shared.stack_bytes, 40 * KiB);
  const emu::StackPlan fewer = emu::plan_stacks(2, 256, 8 * MiB);  // 16 KiB each at 2 workers: 1 at 32 KiB
  EXPECT_EQ(fewer.workers, 1u);
  EXPECT_EQ(fewer.stack_bytes, 32 * KiB);
  const emu::StackPlan odd = emu::plan_stacks(3, 100, 10 * MiB);  // 10 MiB / 300 = 34.1 KiB: 32 KiB (pages)
  EXPECT_EQ(odd.workers, 3u);
  EXPECT_EQ(odd.stack_bytes, 32 * KiB);
  EXPECT_LE(uint64_t(odd.workers) * 100 * odd.stack_bytes, 10 * MiB);
  const emu::StackPlan refused = emu::plan_stacks(2, 1024, 16 * MiB);  // 1024 x 32 KiB = 32 MiB
  EXPECT_NE(refused.refused.find("a block of 1024 threads needs 32.0 MB for its thread stacks"), std::string::npos)
      << refused.refused;
  EXPECT_NE(refused.refused.find("more than the 16.0 MB they may take"), std::string::npos) << refused.refused;
  EXPECT_EQ(emu::plan_stacks(8, 1024, 0).stack_bytes, 256 * KiB);  // no budget: the most
}

// Every worker maps a stack (and a guard page) per thread of the block: 64 workers of 1024
// threads would need 131072 mappings, past Linux's default limit of 65530, and mmap would fail.
TEST(EmuRuntime, WorkersAreCappedSoThatTheirStacksStayWithinTheMappingLimit) {
  EXPECT_EQ(emu::launch_workers(64, 64, 1024), 16u);   // 16 x 1024 = 16384 stacks
  EXPECT_EQ(emu::launch_workers(64, 1000, 256), 64u);  // 64 x 256 fit
  EXPECT_EQ(emu::launch_workers(128, 1000, 256), 64u);
  EXPECT_EQ(emu::launch_workers(8, 3, 256), 3u);       // no more workers than blocks
  EXPECT_EQ(emu::launch_workers(1, 0, 1024), 1u);
  EXPECT_GE(emu::launch_workers(0, 1000, 32), 1u);     // 0: one per hardware thread
  // And a launch that asks for too many still runs, on fewer workers.
  emu::Memory mem;
  auto out = mem.alloc<unsigned>("out", 64 * 1024);
  auto r = emu::launch(mem, test::options(64, 1024, 64), {}, [=] { write_global_index(out); });
  ASSERT_TRUE(r.ok()) << (r.trace.diagnostics.empty() ? "" : r.trace.diagnostics[0].message);
  const std::vector<unsigned> got = mem.download(out);
  for (unsigned i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], i);
}

TEST(EmuRuntime, HierarchicalAtomics) {
  emu::Memory mem;
  auto input = test::iota_input(128 * 4);
  auto in = mem.upload<int>("in", input);
  auto result = mem.alloc<int>("result", 1);
  mem.fill(result, 0);
  auto r = emu::launch(mem, test::options(4, 128, 2), {}, [=] { hierarchical_sum(in, result); });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(mem.download(result)[0], std::accumulate(input.begin(), input.end(), 0));
  int shared_atomics = 0;
  for (const Event& e : r.trace.events)
    if (e.type == EventType::Access && e.kind == AccessKind::Atomic && e.space == MemSpace::Shared) {
      ++shared_atomics;
      EXPECT_EQ(AtomicOp(e.op), AtomicOp::Add);
      for (uint64_t off : r.trace.lanes(e)) EXPECT_EQ(off, 0u);  // every lane hits partial_sum[0]
    }
  EXPECT_EQ(shared_atomics, 4 * 4);  // 4 warps in each of 4 blocks
}

TEST(EmuRuntime, DynamicSharedMemory) {
  emu::Memory mem;
  auto input = test::iota_input(64);
  auto in = mem.upload<int>("in", input);
  auto out = mem.alloc<int>("out", 64);
  auto opt = test::options(1, 64);
  opt.dynamic_shared_bytes = 64 * sizeof(int);
  auto r = emu::launch(mem, opt, {}, [=] { dynamic_copy(in, out); });
  ASSERT_TRUE(r.ok()) << r.trace.diagnostics.at(0).message;
  auto got = mem.download(out);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(got[i], input[63 - i]);
  bool named = false;
  for (const Allocation& a : r.trace.allocations)
    if (a.name == "sdata" && a.space == MemSpace::Shared && a.extent == 64) named = true;
  EXPECT_TRUE(named);
  // Without the dynamic shared memory the launch reports what is missing.
  auto r2 = emu::launch(mem, test::options(1, 64), {}, [=] { dynamic_copy(in, out); });
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.trace.diagnostics.at(0).code, "no-dynamic-shared-memory");
}

TEST(EmuRuntime, TwoViewsOfTheDynamicWindowKeepTheirOwnNameAndExtent) {
  // Every thread binds its own view objects; the worker hands the last bound view to the next
  // thread without a call, which must not give one view's allocation or extent to the other.
  emu::Memory mem;
  auto out = mem.alloc<int>("out", 3 * 64);
  auto opt = test::options(3, 64);
  opt.dynamic_shared_bytes = 64 * sizeof(int);
  auto r = emu::launch(mem, opt, {}, [=] { two_dynamic_views(out); });
  ASSERT_TRUE(r.ok()) << r.trace.diagnostics.at(0).message;
  auto got = mem.download(out);
  for (int b = 0; b < 3; ++b)
    for (int t = 0; t < 64; ++t) EXPECT_EQ(got[b * 64 + t], t + 100 * b) << "block " << b << " thread " << t;
  uint32_t words = Event::kNoAlloc, halves = Event::kNoAlloc;
  for (uint32_t i = 0; i < r.trace.allocations.size(); ++i) {
    const Allocation& a = r.trace.allocations[i];
    if (a.name == "words") {
      words = i;
      EXPECT_EQ(a.extent, 64u);
      EXPECT_EQ(a.elem_size, 4u);
    }
    if (a.name == "halves") {
      halves = i;
      EXPECT_EQ(a.extent, 128u);
      EXPECT_EQ(a.elem_size, 2u);
    }
  }
  ASSERT_NE(words, Event::kNoAlloc);
  ASSERT_NE(halves, Event::kNoAlloc);
  int shared_stores = 0, shared_loads = 0;
  for (const Event& e : r.trace.events) {
    if (e.type != EventType::Access || e.space != MemSpace::Shared) continue;
    if (e.kind == AccessKind::Store) {
      ++shared_stores;
      EXPECT_EQ(e.alloc, words);
    } else if (e.kind == AccessKind::Load) {
      ++shared_loads;
      EXPECT_EQ(e.alloc, halves);
      EXPECT_EQ(e.width, 2);
    }
  }
  EXPECT_EQ(shared_stores, 3 * 2);  // two warps in each of three blocks
  EXPECT_EQ(shared_loads, 3 * 2);
}

TEST(EmuRuntime, SameTraceWhateverTheWorkerCount) {
  auto run = [](unsigned workers) {
    emu::Memory mem;
    auto in = mem.upload<int>("in", test::iota_input(256 * 8));
    auto out = mem.alloc<int>("out", 8);
    return emu::launch(mem, test::options(8, 256, workers), {}, [=] { seq_reduce<256>(in, out); });
  };
  auto a = run(1), b = run(2), c = run(4);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  for (auto* other : {&b, &c}) {
    ASSERT_EQ(a.trace.events.size(), other->trace.events.size());
    EXPECT_EQ(a.trace.lane_offsets, other->trace.lane_offsets);
    for (size_t i = 0; i < a.trace.events.size(); ++i) {
      EXPECT_EQ(a.trace.events[i].block, other->trace.events[i].block);
      EXPECT_EQ(a.trace.events[i].mask, other->trace.events[i].mask);
      EXPECT_EQ(a.trace.events[i].site, other->trace.events[i].site);
    }
  }
}

TEST(EmuRuntime, RecordChosenBlocksAndCap) {
  emu::Memory mem;
  auto in = mem.upload<int>("in", test::iota_input(256 * 4));
  auto out = mem.alloc<int>("out", 4);
  auto opt = test::options(4, 256);
  opt.record.blocks = {2};
  auto r = emu::launch(mem, opt, {}, [=] { seq_reduce<256>(in, out); });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.trace.recorded_blocks, std::vector<uint32_t>{2});
  for (const Event& e : r.trace.events) EXPECT_EQ(e.block, 2u);
  EXPECT_EQ(r.trace.unrecorded_events, 3 * r.trace.events.size());
  EXPECT_FALSE(r.trace.truncated);

  opt.record.blocks.clear();
  opt.record.max_events = 100;
  auto capped = emu::launch(mem, opt, {}, [=] { seq_reduce<256>(in, out); });
  EXPECT_TRUE(capped.trace.truncated);
  EXPECT_EQ(capped.trace.events.size(), 100u);
  EXPECT_EQ(capped.trace.dropped_events, 4 * r.trace.events.size() - 100);
  EXPECT_TRUE(capped.ok());  // truncation is not a kernel error
}

// The barrier bookkeeping touches only the lanes a release lets go; this checks it against what
// the kernel computes and against the count of releases, with threads that run far ahead.
TEST(EmuRuntime, ThreadsThatSitOutBarrierLoopsWaitForEveryRelease) {
  emu::Memory mem;
  auto out = mem.alloc<int>("out", 2);
  const unsigned rounds = 1500, rounds2 = 40, probe = 25;
  auto r = emu::launch(mem, test::options(2, 64), {},
                       [=] { sit_out_barrier_loops(out, rounds, rounds2, probe); });
  ASSERT_TRUE(r.ok()) << (r.trace.diagnostics.empty() ? "" : r.trace.diagnostics[0].message);
  const auto got = mem.download(out);
  EXPECT_EQ(got[0], int(rounds));
  EXPECT_EQ(got[1], int(rounds + probe + 1));
  for (uint32_t block = 0; block < 2; ++block)
    for (uint32_t warp = 0; warp < 2; ++warp) {
      uint32_t barriers = 0;
      for (const Event& e : r.trace.events)
        if (e.block == block && e.warp == warp && e.type == EventType::Barrier) {
          ++barriers;
          EXPECT_EQ(e.mask, 0xffffffffu);
        }
      EXPECT_EQ(barriers, 1 + rounds + 2 * rounds2) << "block " << block << " warp " << warp;
    }
}

// The inline count of a repeated barrier must go into the running thread's own queue, also
// when the thread before it stopped with that same barrier newest in its queue.
TEST(EmuRuntime, EachThreadCountsItsOwnArrivalsAtARepeatedBarrier) {
  emu::Memory mem;
  auto out = mem.alloc<int>("out", 2 * 64);
  const unsigned rounds = 1500;
  auto r = emu::launch(mem, test::options(2, 64), {}, [=] { barrier_loop_from_the_start(out, rounds); });
  ASSERT_TRUE(r.ok()) << (r.trace.diagnostics.empty() ? "" : r.trace.diagnostics[0].message);
  const auto got = mem.download(out);
  for (int i = 0; i < 2 * 64; ++i) EXPECT_EQ(got[i], i % 64) << "thread " << i % 64 << " of block " << i / 64;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> barriers;  // (block, warp) -> releases seen
  for (const Event& e : r.trace.events)
    if (e.type == EventType::Barrier) ++barriers[{e.block, e.warp}];
  ASSERT_EQ(barriers.size(), 4u);
  for (const auto& [where, n] : barriers) EXPECT_EQ(n, rounds) << "block " << where.first << " warp " << where.second;
}

TEST(EmuRuntime, OneBarrierInTwoTemplateInstantiationsReleases) {
  emu::Memory mem;
  auto out = mem.alloc<int>("out", 64);
  auto r = emu::launch(mem, test::options(1, 64), {}, [=] { barrier_in_two_instantiations(out); });
  ASSERT_TRUE(r.ok()) << (r.trace.diagnostics.empty() ? "" : r.trace.diagnostics[0].message);
  const auto got = mem.download(out);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(got[t], 63 - t < 32 ? 1 : 2) << "thread " << t;
}

// The per-site counters of unrecorded blocks (count_every_block) against the analysis' rules on
// a full recording of the same launch, site by site. The emulator reuses a site's counts when a
// warp repeats its last lane pattern; shifting_patterns makes that pattern change under it.
TEST(EmuRuntime, PerSiteCountersOfEveryBlockMatchTheRulesOnAFullTrace) {
  emu::Memory mem;
  auto in = mem.upload<int>("in", test::iota_input(4096));
  auto out = mem.alloc<int>("out", 4 * 64);
  auto opt = test::options(4, 64);
  const auto full = emu::launch(mem, opt, {}, [=] { shifting_patterns(in, out); });
  opt.record.blocks = {1};
  opt.record.count_every_block = true;
  const auto counted = emu::launch(mem, opt, {}, [=] { shifting_patterns(in, out); });
  ASSERT_TRUE(full.ok() && counted.ok());
  ASSERT_FALSE(counted.trace.site_counters.empty());

  std::map<std::tuple<std::string, AccessKind, MemSpace>, SiteCounters> want;
  for (const Event& e : full.trace.events) {
    if (e.type != EventType::Access) continue;
    const auto lanes = full.trace.lanes(e);
    const std::vector<uint64_t> offsets(lanes.begin(), lanes.end());
    SiteCounters& c = want[{full.trace.sites.at(e.site).text, e.kind, e.space}];
    ++c.instructions;
    c.lanes += offsets.size();
    if (e.space == MemSpace::Shared) {
      const auto sc = rules::shared_bank_counts(e.width, e.mask, offsets);
      c.wavefronts += sc.wavefronts, c.ideal_wavefronts += sc.ideal_wavefronts;
    } else {
      const auto gc = rules::global_access_counts(e.width, offsets);
      c.sectors += gc.sectors, c.lines += gc.lines;
    }
  }
  ASSERT_EQ(counted.trace.site_counters.size(), want.size());
  uint64_t conflicts = 0;
  for (const SiteCounters& got : counted.trace.site_counters) {
    const std::string& text = counted.trace.sites.at(got.site).text;
    const auto it = want.find({text, got.kind, got.space});
    ASSERT_NE(it, want.end()) << text;
    const SiteCounters& w = it->second;
    EXPECT_EQ(got.instructions, w.instructions) << text;
    EXPECT_EQ(got.lanes, w.lanes) << text;
    EXPECT_EQ(got.wavefronts, w.wavefronts) << text;
    EXPECT_EQ(got.ideal_wavefronts, w.ideal_wavefronts) << text;
    EXPECT_EQ(got.sectors, w.sectors) << text;
    EXPECT_EQ(got.lines, w.lines) << text;
    conflicts += got.wavefronts - got.ideal_wavefronts;
  }
  EXPECT_GT(conflicts, 0u);  // the strides do conflict: the test would see a memo that ignores them
}

TEST(EmuRuntime, AShuffleFromALaneOutsideTheMaskGivesTheReadersOwnValue) {
  emu::Memory mem;
  auto out = mem.alloc<int>("out", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { shuffle_partial_mask(out); });
  ASSERT_TRUE(r.ok()) << r.trace.diagnostics.at(0).message;
  const std::vector<int> got = mem.download(out);
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(got[t], t < 16 ? 104 + t : t < 20 ? 100 + t : -1) << "lane " << t;
}

// Every shuffle mode, offsets past the warp and negative ones, every segment width: the lanes
// get what PTX's shfl.sync says (tests/backends/gpu holds the same reference against a GPU).
// (With eager shuffles, where a lane takes its result from a lane that has already been there,
// and without.)
TEST(EmuRuntime, ShufflesFollowPtxForEveryModeOffsetAndWidth) {
  for (bool eager : {true, false}) {
    SCOPED_TRACE(eager ? "eager shuffles" : "every lane waits for the issue");
    emu::Memory mem;
    const std::vector<int> cases = shuffle_cases::all_cases();
    const unsigned count = unsigned(cases.size() / 3), threads = 64;
    auto c = mem.upload<int>("cases", cases);
    auto out = mem.alloc<int>("out", count * threads);
    emu::LaunchOptions opt = test::options(1, threads);
    opt.eager_shuffles = eager;
    auto r = emu::launch(mem, opt, {}, [=] { shuffle_every_mode(c, out, count); });
    ASSERT_TRUE(r.ok());
    const std::vector<int> got = mem.download(out), want = shuffle_cases::expected(cases, threads);
    ASSERT_EQ(got.size(), want.size());
    int wrong = 0;
    for (size_t i = 0; i < got.size() && wrong < 10; ++i) {
      const size_t k = i / threads;
      if (got[i] != want[i]) ++wrong;
      EXPECT_EQ(got[i], want[i]) << "mode " << cases[3 * k] << " operand " << cases[3 * k + 1] << " width "
                                 << cases[3 * k + 2] << " thread " << i % threads;
    }
    // The worked example of shuffle_cases.cuh, spelled out.
    auto at = [&](int mode, int arg, int width, int t) {
      for (size_t k = 0; k < count; ++k)
        if (cases[3 * k] == mode && cases[3 * k + 1] == arg && cases[3 * k + 2] == width) return got[k * threads + t];
      return -1;
    };
    EXPECT_EQ(at(shuffle_cases::kXor, 16, 16, 20), 1004);   // lane 20 reads lane 4 (earlier segment)
    EXPECT_EQ(at(shuffle_cases::kXor, 16, 16, 4), 1004);    // lane 4 keeps its own (later segment)
    EXPECT_EQ(at(shuffle_cases::kDown, 33, 32, 5), 1006);   // an offset of 33 moves by 1
    EXPECT_EQ(at(shuffle_cases::kUp, 1, 8, 40), 1040);      // lane 8 of warp 1 is first in its segment
    EXPECT_EQ(at(shuffle_cases::kIdx, -1, 32, 3), 1031);    // source lane -1 is lane 31
  }
}

// Launches from three threads at once, each with one to three workers: each launch gets helper
// threads of its own (helper_threads.h) and lane storage of its own (LaneArray), whatever the
// others hold, and every result is right.
TEST(EmuRuntime, LaunchesFromSeveralThreadsAtOnceEachGetTheirOwnWorkers) {
  std::atomic<int> wrong{0};
  auto launches = [&](int seed) {
    for (int i = 0; i < 60; ++i) {
      const uint32_t block = std::vector<uint32_t>{32, 1024, 96, 256, 512, 64}[size_t(i + seed) % 6];
      const uint32_t grid = 1 + uint32_t(i % 5);
      emu::Memory mem;
      auto a = mem.upload<int>("a", std::vector<int>(size_t(block) * grid, 1));
      auto r = emu::launch(mem, test::options(grid, block, unsigned(1 + i % 3)), {}, [=] { add_index(a); });
      const std::vector<int> got = mem.download(a);
      bool right = r.ok();
      for (size_t t = 0; t < got.size(); ++t) right = right && got[t] == 1 + int(t);
      if (!right) ++wrong;
    }
  };
  std::thread t1(launches, 0), t2(launches, 3), t3(launches, 1);
  t1.join();
  t2.join();
  t3.join();
  EXPECT_EQ(wrong.load(), 0);
}
