// Global memory: sectors (32 B), lines (128 B), bytes requested vs moved; and atomic contention.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <vector>

#include "lanes.h"
#include "ws/rules/atomic_contention.h"
#include "ws/rules/global_sectors.h"

using ws::rules::global_access_metrics;
using wstest::kFull;

namespace {
// Base 0x10000: 128-byte aligned, as cudaMalloc's 256-byte alignment guarantees.
constexpr uint64_t kBase = 0x10000;
std::vector<uint64_t> addr(uint32_t mask, std::function<uint64_t(uint32_t)> f) {
  return wstest::lane_list(mask, [&](uint32_t t) { return kBase + f(t); });
}
}  // namespace

// a[t], 4-byte, aligned: bytes 0..127 -> sectors 0..3, line 0: 4 sectors, 1 line, 128/128 = 100%.
TEST(Global, CoalescedAligned) {
  const auto g = global_access_metrics(4, kFull, addr(kFull, [](uint32_t t) { return 4ull * t; }));
  EXPECT_EQ(g.requests, 1u);
  EXPECT_EQ(g.sectors, 4u);
  EXPECT_EQ(g.lines, 1u);
  EXPECT_EQ(g.bytes_requested, 128u);
  EXPECT_EQ(g.bytes_moved, 128u);
  EXPECT_DOUBLE_EQ(g.efficiency, 1.0);
  EXPECT_EQ(g.lane_sector[0], 0);
  EXPECT_EQ(g.lane_sector[8], 1);
  EXPECT_EQ(g.lane_sector[31], 3);
  EXPECT_EQ(g.sector_addresses.front(), kBase);
}

// a[t+1]: bytes 4..131 -> sectors 0..4 (5), lines 0 and 1 (2); 128/160 = 80%. (Slide: "5x32B / 2x128B")
TEST(Global, MisalignedBy4) {
  const auto g = global_access_metrics(4, kFull, addr(kFull, [](uint32_t t) { return 4ull * t + 4; }));
  EXPECT_EQ(g.sectors, 5u);
  EXPECT_EQ(g.lines, 2u);
  EXPECT_EQ(g.bytes_moved, 160u);
  EXPECT_DOUBLE_EQ(g.efficiency, 0.8);
}

// a[2t]: bytes 0..251 in 8-byte steps -> sectors 0..7 (8), 2 lines; 128/256 = 50%.
TEST(Global, Stride2) {
  const auto g = global_access_metrics(4, kFull, addr(kFull, [](uint32_t t) { return 8ull * t; }));
  EXPECT_EQ(g.sectors, 8u);
  EXPECT_EQ(g.lines, 2u);
  EXPECT_DOUBLE_EQ(g.efficiency, 0.5);
}

// a[32t] (ints): one lane per 128-byte line -> 32 sectors, 32 lines; 128/1024 = 12.5%.
// (Slide: "32x32B / 32x128B")
TEST(Global, Stride32) {
  const auto g = global_access_metrics(4, kFull, addr(kFull, [](uint32_t t) { return 128ull * t; }));
  EXPECT_EQ(g.sectors, 32u);
  EXPECT_EQ(g.lines, 32u);
  EXPECT_DOUBLE_EQ(g.efficiency, 0.125);
  EXPECT_EQ(g.lane_sector[31], 31);
}

// float4 a[t]: 512 consecutive bytes -> 16 sectors, 4 lines, 100%. double a[t]: 8 sectors, 2 lines.
TEST(Global, WideLoads) {
  const auto g16 = global_access_metrics(16, kFull, addr(kFull, [](uint32_t t) { return 16ull * t; }));
  EXPECT_EQ(g16.sectors, 16u);
  EXPECT_EQ(g16.lines, 4u);
  EXPECT_EQ(g16.bytes_requested, 512u);
  EXPECT_DOUBLE_EQ(g16.efficiency, 1.0);
  const auto g8 = global_access_metrics(8, kFull, addr(kFull, [](uint32_t t) { return 8ull * t; }));
  EXPECT_EQ(g8.sectors, 8u);
  EXPECT_EQ(g8.lines, 2u);
}

// Broadcast: all lanes read a[0] -> 1 sector; requested 128 B over 32 moved = 400% (like nvprof's
// gld_efficiency), but only 4 distinct bytes.
TEST(Global, BroadcastAndSingleLane) {
  const auto g = global_access_metrics(4, kFull, addr(kFull, [](uint32_t) { return 0ull; }));
  EXPECT_EQ(g.sectors, 1u);
  EXPECT_EQ(g.bytes_unique, 4u);
  EXPECT_DOUBLE_EQ(g.efficiency, 4.0);
  // one active lane -> 1 request, 1 sector
  const auto one = global_access_metrics(4, 0x1u, addr(0x1u, [](uint32_t) { return 64ull; }));
  EXPECT_EQ(one.requests, 1u);
  EXPECT_EQ(one.sectors, 1u);
  EXPECT_EQ(one.lane_sector[1], -1);
  // the cheap counter agrees
  const auto c = ws::rules::global_access_counts(4, addr(kFull, [](uint32_t t) { return 4ull * t + 4; }));
  EXPECT_EQ(c.sectors, 5u);
  EXPECT_EQ(c.lines, 2u);
}

// A misaligned 16-byte access straddling a sector boundary touches 2 sectors.
TEST(Global, StraddlingAccess) {
  const auto g = global_access_metrics(16, 0x1u, addr(0x1u, [](uint32_t) { return 24ull; }));
  EXPECT_EQ(g.sectors, 2u);
  EXPECT_EQ(g.lines, 1u);
}

// atomicAdd(&count, 1) from all 32 lanes: 32 lanes on one address -> serialized 32-way.
TEST(Atomics, AllSameAddress) {
  const auto a = ws::rules::atomic_contention(kFull, addr(kFull, [](uint32_t) { return 0ull; }));
  EXPECT_EQ(a.max_same_address, 32u);
  EXPECT_EQ(a.distinct_addresses, 1u);
  // histogram into 2 bins by parity: 16 lanes each
  const auto h = ws::rules::atomic_contention(kFull, addr(kFull, [](uint32_t t) { return 4ull * (t % 2); }));
  EXPECT_EQ(h.max_same_address, 16u);
  EXPECT_EQ(h.distinct_addresses, 2u);
  // all different
  const auto d = ws::rules::atomic_contention(kFull, addr(kFull, [](uint32_t t) { return 4ull * t; }));
  EXPECT_EQ(d.max_same_address, 1u);
  EXPECT_EQ(d.distinct_addresses, 32u);
}

// global_access_counts (analyze()'s and the emulator's per-instruction count) skips its sort when
// the lanes' sectors already come in order; in any order it must count what the detailed rule
// counts.
TEST(Global, CountsAgreeWithTheDetailedRuleInAnyLaneOrder) {
  std::mt19937 rng(2026);
  const uint32_t widths[] = {1, 2, 4, 8, 16};
  for (int round = 0; round < 4000; ++round) {
    const uint32_t width = widths[rng() % 5];
    const uint32_t mask = round % 3 == 0 ? 0xffffffffu : uint32_t(rng());
    const uint64_t base = 4096 + (rng() % 64) * (round % 5 == 0 ? 1 : width);
    const uint32_t stride = rng() % 3 == 0 ? 0 : 1 + rng() % 64;
    std::vector<uint64_t> a;
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t t = uint32_t(std::countr_zero(m));
      a.push_back(round % 4 == 3 ? base + width * (rng() % 512) : base + uint64_t(width) * stride * t);
    }
    if (round % 2) std::shuffle(a.begin(), a.end(), rng);
    const auto g = ws::rules::global_access_metrics(width, mask, a);
    const auto c = ws::rules::global_access_counts(width, a);
    ASSERT_EQ(c.sectors, g.sectors) << "round " << round;
    ASSERT_EQ(c.lines, g.lines) << "round " << round;
  }
}
