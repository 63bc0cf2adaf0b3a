// The viewer's arrangements (views.h) on hand-built traces: timeline columns aligned at barriers,
// bank rows, element counts up to a playback position.
#include "trace_builder.h"

#include "ws/analysis/views.h"

#include <gtest/gtest.h>

#include <bit>

using ws::AccessKind;
using ws::MemSpace;
using namespace ws::analysis;
using wstest::kFull;
using wstest::TraceBuilder;

namespace {

// Two warps of one block: warp 0 issues 3 instructions before the barrier, warp 1 issues 1; after
// it, each issues 2. Block 1 has one instruction.
ws::Trace two_warps() {
  TraceBuilder b({64, 1, 1}, {2, 1, 1});
  uint32_t s = b.alloc("s", MemSpace::Shared, 4, 64);
  uint32_t site = b.site(10, "s[t] = 1;");
  auto st = [&](uint32_t blk, uint32_t w, uint32_t mask) {
    b.access_fn(blk, w, site, s, AccessKind::Store, 4, mask, [&](uint32_t l) { return 4ull * (32 * w + l); });
  };
  st(0, 0, kFull);
  st(0, 1, 0x0000ffffu);
  st(0, 0, 0x55555555u);
  st(0, 0, 0x11111111u);
  b.barrier(0, {0, 1});
  st(0, 1, kFull);
  st(0, 0, kFull);
  st(0, 1, kFull);
  st(0, 0, 1u);
  st(1, 0, kFull);
  return b.finish();
}

}  // namespace

TEST(Views, BlockEventsRange) {
  ws::Trace t = two_warps();
  auto [f0, l0] = block_events(t, 0);
  EXPECT_EQ(f0, 0u);
  EXPECT_EQ(l0, 10u);
  auto [f1, l1] = block_events(t, 1);
  EXPECT_EQ(f1, 10u);
  EXPECT_EQ(l1, 11u);
  auto [f2, l2] = block_events(t, 7);
  EXPECT_EQ(f2, l2);
}

// Aligned: interval 0 is 3 wide (warp 0's 3 instructions), the barrier is column 3, interval 1
// starts at column 4 for both warps.
TEST(Views, TimelineAlignsBarriers) {
  ws::Trace t = two_warps();
  BlockTimeline tl = block_timeline(t, 0);
  ASSERT_EQ(tl.warps, 2u);
  EXPECT_EQ(tl.columns, 6u);
  ASSERT_EQ(tl.barrier_columns.size(), 1u);
  EXPECT_EQ(tl.barrier_columns[0], 3u);
  ASSERT_EQ(tl.per_warp[0].size(), 6u);
  EXPECT_EQ(tl.per_warp[0][2].column, 2u);
  EXPECT_EQ(tl.per_warp[0][3].column, 3u);  // the barrier
  EXPECT_EQ(t.events[tl.per_warp[0][3].event].type, ws::EventType::Barrier);
  EXPECT_EQ(tl.per_warp[0][4].column, 4u);
  ASSERT_EQ(tl.per_warp[1].size(), 4u);
  EXPECT_EQ(tl.per_warp[1][0].column, 0u);
  EXPECT_EQ(tl.per_warp[1][1].column, 3u);
  EXPECT_EQ(tl.per_warp[1][2].column, 4u);
  EXPECT_EQ(tl.per_warp[1][3].column, 5u);
  // 8 instructions: 32+16+16+8+32+32+32+1 active lanes.
  EXPECT_EQ(tl.instructions, 8u);
  EXPECT_EQ(tl.active_lanes, 169u);
  EXPECT_NEAR(tl.simd_efficiency(), 169.0 / 256.0, 1e-12);
}

// A GPU trace of a divergent warp at __syncthreads(): Volta+ arrives group by group, so warp 0 has
// two barrier records (same site, masks 0000ffff and ffff0000). Aligned, they are ONE barrier
// column and both warps' next instruction lines up after it.
TEST(Views, TimelineMergesABarrierReachedInGroups) {
  TraceBuilder b({64, 1, 1});
  uint32_t s = b.alloc("s", MemSpace::Shared, 4, 64);
  uint32_t site = b.site(7, "s[t]");
  b.access_fn(0, 0, site, s, AccessKind::Store, 4, kFull, [](uint32_t l) { return 4ull * l; });
  b.access_fn(0, 1, site, s, AccessKind::Store, 4, kFull, [](uint32_t l) { return 4ull * (l + 32); });
  b.barrier(0, {0}, 0x0000ffffu);
  b.barrier(0, {0}, 0xffff0000u);
  b.barrier(0, {1});
  b.access_fn(0, 0, site, s, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * l; });
  b.access_fn(0, 1, site, s, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * (l + 32); });
  ws::Trace t = b.finish();
  BlockTimeline tl = block_timeline(t, 0);
  ASSERT_EQ(tl.barrier_columns.size(), 1u);
  EXPECT_EQ(tl.barrier_columns[0], 1u);
  EXPECT_EQ(tl.columns, 3u);
  ASSERT_EQ(tl.per_warp[0].size(), 4u);  // store, 2 barrier records, load
  EXPECT_EQ(tl.per_warp[0][1].column, 1u);
  EXPECT_EQ(tl.per_warp[0][2].column, 1u);
  EXPECT_EQ(tl.per_warp[0][3].column, 2u);
  EXPECT_EQ(tl.per_warp[1][2].column, 2u);  // warp 1's load lines up with warp 0's
  // As reduce 1 records on an H100: the idle lanes (55555555 off) reach the barrier first, then
  // the working group does its shared access and arrives: still one barrier, the access before it.
  TraceBuilder b3({32, 1, 1});
  uint32_t s3 = b3.alloc("s", MemSpace::Shared, 4, 32);
  b3.barrier(0, {0}, 0xaaaaaaaau);
  b3.access_fn(0, 0, site, s3, AccessKind::Load, 4, 0x55555555u, [](uint32_t l) { return 4ull * l; });
  b3.barrier(0, {0}, 0x55555555u);
  b3.access_fn(0, 0, site, s3, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * l; });
  ws::Trace t3 = b3.finish();
  BlockTimeline tl3 = block_timeline(t3, 0);
  ASSERT_EQ(tl3.barrier_columns.size(), 1u);
  EXPECT_EQ(tl3.barrier_columns[0], 1u);      // after the one access of interval 0
  EXPECT_EQ(tl3.per_warp[0][0].column, 0u);   // the working group's load
  EXPECT_EQ(tl3.per_warp[0].back().column, 2u);
  // Two barriers in a row that are really two (the second mask overlaps the first): two columns.
  TraceBuilder b2({32, 1, 1});
  b2.alloc("s", MemSpace::Shared, 4, 32);
  b2.barrier(0, {0});
  b2.barrier(0, {0});
  EXPECT_EQ(block_timeline(b2.finish(), 0).barrier_columns.size(), 2u);
}

// Real time (GPU traces): records at 1000, 1300 and 5000 ns span 4001 ns: 5 ns columns (the
// smallest 1-2-5 width within 2000 columns), at columns 0, 60 and 800.
TEST(Views, TimelineInNanoseconds) {
  TraceBuilder b({32, 1, 1});
  uint32_t s = b.alloc("s", MemSpace::Shared, 4, 32);
  uint32_t site = b.site(2, "s[t]");
  b.access_fn(0, 0, site, s, AccessKind::Store, 4, kFull, [](uint32_t l) { return 4ull * l; }).time = 1000;
  b.barrier(0, {0});
  b.access_fn(0, 0, site, s, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * l; }).time = 5000;
  ws::Trace t = b.finish();
  t.events[1].time = 1300;  // the barrier record
  BlockTimeline tl = block_timeline(t, 0, TimelineMode::Time);
  EXPECT_EQ(tl.time0, 1000u);
  EXPECT_EQ(tl.ns_per_column, 5u);
  EXPECT_EQ(tl.columns, 801u);  // ceil(4001 / 5)
  ASSERT_EQ(tl.per_warp[0].size(), 3u);
  EXPECT_EQ(tl.per_warp[0][0].column, 0u);
  EXPECT_EQ(tl.per_warp[0][1].column, 60u);
  EXPECT_EQ(tl.per_warp[0][2].column, 800u);
  ASSERT_EQ(tl.barrier_columns.size(), 1u);
  EXPECT_EQ(tl.barrier_columns[0], 60u);
}

// Issue clock: one column per distinct time; the barrier (two events, one time in a real trace;
// the builder gives them consecutive times) is still a column of its own.
TEST(Views, TimelineIssueClock) {
  ws::Trace t = two_warps();
  t.events[5].time = t.events[4].time;  // one release time for both warps, like the emulator
  BlockTimeline tl = block_timeline(t, 0, TimelineMode::IssueClock);
  EXPECT_EQ(tl.columns, 9u);
  ASSERT_EQ(tl.barrier_columns.size(), 1u);
  EXPECT_EQ(tl.barrier_columns[0], 4u);
  EXPECT_EQ(tl.per_warp[1][0].column, 1u);
}

// Stride-2 words: banks 0, 2, ..., 30 serve 2 words each, odd banks none.
TEST(Views, BankRowsCountWords) {
  TraceBuilder b({32, 1, 1});
  uint32_t s = b.alloc("s", MemSpace::Shared, 4, 64);
  uint32_t g = b.alloc("g", MemSpace::Global, 4, 64, 4096);
  uint32_t site = b.site(3, "s[2*t]");
  b.access_fn(0, 0, site, s, AccessKind::Load, 4, kFull, [](uint32_t l) { return 8ull * l; });
  b.access_fn(0, 0, site, g, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * l; });
  b.access_fn(0, 0, site, s, AccessKind::Store, 4, kFull, [](uint32_t l) { return 4ull * l; });
  ws::Trace t = b.finish();
  auto rows = bank_rows(t);
  ASSERT_EQ(rows.size(), 2u);  // the global load is not a bank row
  EXPECT_EQ(rows[0].event, 0u);
  EXPECT_EQ(rows[0].words[0], 2);
  EXPECT_EQ(rows[0].words[1], 0);
  EXPECT_EQ(rows[0].ways[30], 2);
  EXPECT_EQ(rows[0].wavefronts, 2);
  EXPECT_EQ(rows[0].conflicts, 1);
  EXPECT_EQ(rows[1].event, 2u);
  EXPECT_EQ(rows[1].words[5], 1);
  EXPECT_EQ(rows[1].conflicts, 0);
  EXPECT_EQ(bank_rows(t, {.block = 0, .warp = 1}).size(), 0u);
}

TEST(Views, ElementCountsUpToAnEvent) {
  ws::Trace t = two_warps();
  // Events 0..2: warp 0 stores s[0..31], warp 1 stores s[32..47], warp 0 stores the even of s[0..31].
  ElementCounts c = element_counts(t, 0, 0, 3);
  ASSERT_EQ(c.stores.size(), 64u);
  EXPECT_EQ(c.stores[0], 2u);
  EXPECT_EQ(c.stores[1], 1u);
  EXPECT_EQ(c.stores[47], 1u);
  EXPECT_EQ(c.stores[48], 0u);
  EXPECT_EQ(c.max_total, 2u);
  EXPECT_EQ(c.loads[0], 0u);
  // Only block 1 (its one store of s[0..31]).
  ElementCounts c1 = element_counts(t, 0, 0, t.events.size(), {.block = 1});
  EXPECT_EQ(c1.stores[0], 1u);
  EXPECT_EQ(c1.stores[40], 0u);
  // An unknown allocation gives no elements.
  EXPECT_TRUE(element_counts(t, 9, 0, 3).stores.empty());
}

// Per element: conflicts (other words in the same bank and pass) and the first event to touch it.
TEST(Views, ElementConflictsAndFirstTouch) {
  TraceBuilder b({32, 1, 1});
  uint32_t s = b.alloc("s", MemSpace::Shared, 4, 128, 0);
  uint32_t site = b.site(5, "s[2*t]");
  // Event 0: lanes store s[2l] (stride 2: words 0 and 32 share bank 0, ... 2-way everywhere).
  b.access_fn(0, 0, site, s, AccessKind::Store, 4, kFull, [](uint32_t l) { return 8ull * l; });
  // Event 1: lanes load s[l + 64] (stride 1: conflict free).
  b.access_fn(0, 0, site, s, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * (l + 64); });
  ws::Trace t = b.finish();
  ElementCounts c = element_counts(t, 0, 0, t.events.size());
  EXPECT_EQ(c.conflicts[0], 1u);   // word 0 waited for word 32 (bank 0, 2 ways)
  EXPECT_EQ(c.conflicts[62], 1u);  // the last stored element
  EXPECT_EQ(c.conflicts[1], 0u);   // untouched
  EXPECT_EQ(c.conflicts[64], 0u);  // stride-1 load
  EXPECT_EQ(c.max_conflicts, 1u);
  EXPECT_EQ(c.first_touch[0], 0);
  EXPECT_EQ(c.first_touch[64], 1);
  EXPECT_EQ(c.first_touch[1], -1);
  EXPECT_EQ(c.max_first_touch, 1);
}

// 32 lanes x 4 bytes from byte 4 of a 128-byte line: 5 sectors; the first misses its 4 first
// bytes, the last uses only its first 4.
TEST(Views, SectorByteMasks) {
  TraceBuilder b({32, 1, 1});
  uint32_t g = b.alloc("g", MemSpace::Global, 4, 64, 4096);
  uint32_t site = b.site(3, "g[t+1]");
  b.access_fn(0, 0, site, g, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * (l + 1); });
  ws::Trace t = b.finish();
  auto m = metrics_of(t, t.events[0]);
  auto masks = sector_byte_masks(m);
  ASSERT_EQ(masks.size(), 5u);
  EXPECT_EQ(masks[0], 0xfffffff0u);
  EXPECT_EQ(masks[1], 0xffffffffu);
  EXPECT_EQ(masks[4], 0x0000000fu);
  uint64_t used = 0;
  for (uint32_t x : masks) used += uint64_t(std::popcount(x));
  EXPECT_EQ(used, m.global.bytes_unique);
}

// Lanes grouped by what they did: an if/else on odd and even lanes puts the even lanes (the if's)
// in a solid block above the odd ones (the else's); a nested split splits the block again; a warp
// that never splits keeps lane order.
TEST(Views, GroupedLanesMakeEachBranchASolidBlock) {
  TraceBuilder b({64, 1, 1});
  uint32_t s = b.alloc("s", MemSpace::Shared, 4, 64);
  uint32_t site = b.site(10, "s[t] = 1;");
  auto st = [&](uint32_t w, uint32_t mask) {
    b.access_fn(0, w, site, s, AccessKind::Store, 4, mask, [&](uint32_t l) { return 4ull * (32 * w + l); });
  };
  st(0, kFull);
  st(0, 0x55555555u);  // if: even lanes
  st(0, 0x11111111u);  //   nested: lanes 0, 4, 8, ...
  st(0, 0xaaaaaaaau);  // else: odd lanes
  st(1, kFull);
  const ws::Trace t = b.finish();
  const BlockTimeline tl = block_timeline(t, 0);
  const auto g = grouped_lanes(t, tl, 0);
  // Expected from the masks by hand: multiples of 4, then the other even lanes, then the odd ones.
  std::vector<uint8_t> want;
  for (int l = 0; l < 32; l += 4) want.push_back(uint8_t(l));
  for (int l = 2; l < 32; l += 4) want.push_back(uint8_t(l));
  for (int l = 1; l < 32; l += 2) want.push_back(uint8_t(l));
  EXPECT_EQ(std::vector<uint8_t>(g.begin(), g.end()), want);
  const auto flat = grouped_lanes(t, tl, 1);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(flat[size_t(l)], l);
}
