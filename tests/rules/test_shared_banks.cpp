// Shared-memory banks, multicast, phases and wavefronts, against hand-derived answers.
// Rule (ws/rules/shared_banks.h): bank = (address/4) % 32; per phase, wavefronts = the largest number of
// distinct 4-byte words one bank must serve; ideal = phases with an active lane.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <vector>

#include "lanes.h"
#include "ws/rules/shared_banks.h"

using ws::rules::shared_bank_metrics;
using wstest::kFull;

namespace {

std::vector<uint64_t> lanes(uint32_t mask, std::function<uint64_t(uint32_t)> f) {
  return wstest::lane_list(mask, f);
}

struct StrideCase {
  uint32_t stride, wavefronts, conflicts;
};

}  // namespace

// One warp reads s[t*stride] (4-byte): lane t -> word t*stride -> bank (t*stride) % 32.
// The 32 lanes fall on 32/gcd(stride,32) banks, gcd(stride,32) distinct words each, so
// wavefronts = gcd(stride, 32), conflicts = gcd - 1. ncu on an H200: 1->0/1, 2->1/2, 8->7/8,
// 32->31/32, 33->0/1.
TEST(Banks, StrideTable) {
  const StrideCase cases[] = {{1, 1, 0},   {2, 2, 1},    {4, 4, 3},  {8, 8, 7},
                              {16, 16, 15}, {32, 32, 31}, {33, 1, 0}};
  for (const auto& c : cases) {
    const auto a = lanes(kFull, [&](uint32_t t) { return 4ull * t * c.stride; });
    const auto m = shared_bank_metrics(4, kFull, a);
    EXPECT_EQ(m.wavefronts, c.wavefronts) << "stride " << c.stride;
    EXPECT_EQ(m.conflicts, c.conflicts) << "stride " << c.stride;
    EXPECT_EQ(m.ideal_wavefronts, 1u);
    EXPECT_EQ(m.max_ways, c.wavefronts);
    // The cheap counter used by analyze() must agree with the detailed one.
    const auto k = ws::rules::shared_bank_counts(4, kFull, a);
    EXPECT_EQ(k.wavefronts, c.wavefronts);
    EXPECT_EQ(k.bank_ways, m.bank_ways);
    EXPECT_EQ(k.bank_words, m.bank_words);
  }
}

// Stride 2 in detail, as the access map draws it: words 0,2,...,62. Bank 0 gets words 0 (lane 0)
// and 32 (lane 16); odd banks get nothing. Lane 16's word is the second word of bank 0 -> wavefront 1.
TEST(Banks, Stride2Detail) {
  const auto m = shared_bank_metrics(4, kFull, lanes(kFull, [](uint32_t t) { return 8ull * t; }));
  EXPECT_EQ(m.bank_ways[0], 2);
  EXPECT_EQ(m.bank_ways[1], 0);
  EXPECT_EQ(m.bank_words[30], 2);
  EXPECT_EQ(m.lane_wavefront[0], 0);
  EXPECT_EQ(m.lane_wavefront[15], 0);
  EXPECT_EQ(m.lane_wavefront[16], 1);
  EXPECT_EQ(m.lane_wavefront[31], 1);
  ASSERT_EQ(m.words.size(), 32u);
  // words sorted by (wavefront, bank): row 0 = words 0..30 (even), row 1 = words 32..62
  EXPECT_EQ(m.words[0].word, 0u);
  EXPECT_EQ(m.words[0].wavefront, 0);
  EXPECT_EQ(m.words[16].word, 32u);
  EXPECT_EQ(m.words[16].wavefront, 1);
  EXPECT_EQ(m.words[16].lanes, 1u << 16);
}

// Multicast: all 32 lanes read s[0] -> one word -> 1 wavefront, no conflict; the word's lane mask
// is the whole warp.
TEST(Banks, MulticastSameWord) {
  const auto m = shared_bank_metrics(4, kFull, lanes(kFull, [](uint32_t) { return 0ull; }));
  EXPECT_EQ(m.wavefronts, 1u);
  EXPECT_EQ(m.conflicts, 0u);
  ASSERT_EQ(m.words.size(), 1u);
  EXPECT_EQ(m.words[0].lanes, kFull);
  // Pairs of lanes on the same word (s[t/2]): 16 words, banks 0..15, still 1 wavefront.
  EXPECT_EQ(shared_bank_metrics(4, kFull, lanes(kFull, [](uint32_t t) { return 4ull * (t / 2); })).wavefronts, 1u);
}

// Same bank, different words: lane 1 reads word 32 (bank 0) instead of word 1; every other lane t
// reads word t. Bank 0 must serve words 0 and 32 -> 2 wavefronts, 1 conflict.
TEST(Banks, SameBankDifferentWords) {
  const auto m = shared_bank_metrics(4, kFull, lanes(kFull, [](uint32_t t) { return t == 1 ? 128ull : 4ull * t; }));
  EXPECT_EQ(m.wavefronts, 2u);
  EXPECT_EQ(m.conflicts, 1u);
  EXPECT_EQ(m.lane_wavefront[1], 1);
  EXPECT_EQ(m.bank_ways[0], 2);
  EXPECT_EQ(m.bank_ways[1], 0);
}

// 8-byte (double) s[t]: lane t -> words 2t, 2t+1. Half-warp 0 (lanes 0-15) covers words 0..31, one
// per bank -> 1 wavefront; half-warp 1 covers words 32..63 -> 1. Total 2 = ideal 2 -> 0 conflicts.
TEST(Banks, DoubleIsTwoPhases) {
  const auto m = shared_bank_metrics(8, kFull, lanes(kFull, [](uint32_t t) { return 8ull * t; }));
  EXPECT_EQ(m.phases, 2u);
  EXPECT_EQ(m.wavefronts, 2u);
  EXPECT_EQ(m.ideal_wavefronts, 2u);
  EXPECT_EQ(m.conflicts, 0u);
  EXPECT_EQ(m.lane_wavefront[15], 0);
  EXPECT_EQ(m.lane_wavefront[16], 1);
  EXPECT_EQ(m.bank_words[0], 2);  // word 0 (phase 0) and word 32 (phase 1)
  EXPECT_EQ(m.bank_ways[0], 1);
}

// double s[2t]: lane t -> words 4t, 4t+1. In half-warp 0, lanes 0 and 8 both hit bank 0 (words 0
// and 32): 2 wavefronts per phase -> 4, ideal 2 -> 2 conflicts.
TEST(Banks, DoubleStride2) {
  const auto m = shared_bank_metrics(8, kFull, lanes(kFull, [](uint32_t t) { return 16ull * t; }));
  EXPECT_EQ(m.wavefronts, 4u);
  EXPECT_EQ(m.conflicts, 2u);
}

// Lanes of different phases never conflict: double s[t % 16] -> both half-warps read words 0..31.
TEST(Banks, DoublePhasesDoNotConflict) {
  const auto m = shared_bank_metrics(8, kFull, lanes(kFull, [](uint32_t t) { return 8ull * (t % 16); }));
  EXPECT_EQ(m.wavefronts, 2u);
  EXPECT_EQ(m.conflicts, 0u);
}

// 16-byte (float4) s[t]: lane t -> words 4t..4t+3. Quarter-warp q (8 lanes) covers 32 consecutive
// words -> 1 wavefront each; 4 quarters -> 4 wavefronts, ideal 4, 0 conflicts.
TEST(Banks, Float4IsFourPhases) {
  const auto m = shared_bank_metrics(16, kFull, lanes(kFull, [](uint32_t t) { return 16ull * t; }));
  EXPECT_EQ(m.phases, 4u);
  EXPECT_EQ(m.wavefronts, 4u);
  EXPECT_EQ(m.ideal_wavefronts, 4u);
  EXPECT_EQ(m.conflicts, 0u);
  EXPECT_EQ(m.lane_wavefront[7], 0);
  EXPECT_EQ(m.lane_wavefront[8], 1);
  EXPECT_EQ(m.lane_wavefront[31], 3);
  for (int b = 0; b < 32; ++b) {
    EXPECT_EQ(m.bank_words[b], 4) << b;
    EXPECT_EQ(m.bank_ways[b], 1) << b;
  }
  // float4 s[2t]: quarter 0 lanes 0..7 -> words 8t..8t+3: lanes 0 and 4 share banks 0-3 -> 2 per
  // quarter -> 8 wavefronts, 4 conflicts.
  const auto m2 = shared_bank_metrics(16, kFull, lanes(kFull, [](uint32_t t) { return 32ull * t; }));
  EXPECT_EQ(m2.wavefronts, 8u);
  EXPECT_EQ(m2.conflicts, 4u);
}

// char s[t]: lane t -> byte t -> word t/4: 8 words, 4 lanes each (multicast) -> 1 wavefront.
// short s[t]: word t/2: 16 words, 2 lanes each -> 1 wavefront. (4-way / 2-way only on cc 1.x.)
TEST(Banks, CharAndShortMulticast) {
  const auto c = shared_bank_metrics(1, kFull, lanes(kFull, [](uint32_t t) { return uint64_t(t); }));
  EXPECT_EQ(c.wavefronts, 1u);
  EXPECT_EQ(c.conflicts, 0u);
  EXPECT_EQ(c.words.size(), 8u);
  EXPECT_EQ(c.words[0].lanes, 0xfu);
  const auto s = shared_bank_metrics(2, kFull, lanes(kFull, [](uint32_t t) { return 2ull * t; }));
  EXPECT_EQ(s.wavefronts, 1u);
  EXPECT_EQ(s.conflicts, 0u);
  EXPECT_EQ(s.words.size(), 16u);
  // char s[32*t] (stride of 32 bytes = 8 words): words 8t -> banks 0,8,16,24, 8 words each -> 8-way.
  const auto c8 = shared_bank_metrics(1, kFull, lanes(kFull, [](uint32_t t) { return 32ull * t; }));
  EXPECT_EQ(c8.wavefronts, 8u);
}

// The seeds' struct myType { float f; char c; }: sizeof == 8 (padded), so myTypes[t].f is at
// byte 8t (word 2t) and .c at byte 8t+4 (word 2t+1). Either member: lanes t and t+16 hit the same
// bank with different words -> 2-way: 2 wavefronts, 1 conflict (the slide's "bank conflicts").
// struct vector { float x, y, z; } (sizeof 12): vectors[t].x at word 3t, stride 3 -> conflict-free.
TEST(Banks, StructMembers) {
  const auto f = shared_bank_metrics(4, kFull, lanes(kFull, [](uint32_t t) { return 8ull * t; }));
  EXPECT_EQ(f.wavefronts, 2u);
  EXPECT_EQ(f.conflicts, 1u);
  const auto c = shared_bank_metrics(1, kFull, lanes(kFull, [](uint32_t t) { return 8ull * t + 4; }));
  EXPECT_EQ(c.wavefronts, 2u);
  EXPECT_EQ(c.conflicts, 1u);
  EXPECT_EQ(c.bank_ways[1], 2);  // words 1 and 33
  const auto v = shared_bank_metrics(4, kFull, lanes(kFull, [](uint32_t t) { return 12ull * t; }));
  EXPECT_EQ(v.wavefronts, 1u);
  const auto vz = shared_bank_metrics(4, kFull, lanes(kFull, [](uint32_t t) { return 12ull * t + 8; }));
  EXPECT_EQ(vz.wavefronts, 1u);
}

// An access that straddles two words (misaligned 4-byte at byte 2) touches both.
TEST(Banks, MisalignedTouchesTwoWords) {
  const uint64_t a[] = {2};
  const auto m = shared_bank_metrics(4, 0x1u, a);
  ASSERT_EQ(m.words.size(), 2u);
  EXPECT_EQ(m.words[0].word, 0u);
  EXPECT_EQ(m.words[1].word, 1u);
  EXPECT_EQ(m.wavefronts, 1u);
}

// Partial masks: ideal = phases with at least one active lane.
TEST(Banks, PartialMasks) {
  // stride 2, lanes 0-15 only: words 0,2,..,30 -> 16 different banks -> 1 wavefront, 0 conflicts.
  auto m = shared_bank_metrics(4, 0x0000ffffu, lanes(0x0000ffffu, [](uint32_t t) { return 8ull * t; }));
  EXPECT_EQ(m.wavefronts, 1u);
  EXPECT_EQ(m.conflicts, 0u);
  EXPECT_EQ(m.lane_wavefront[16], -1);  // inactive
  // stride 2, lanes 0 and 16: words 0 and 32, both bank 0 -> 2 wavefronts, 1 conflict.
  m = shared_bank_metrics(4, 0x00010001u, lanes(0x00010001u, [](uint32_t t) { return 8ull * t; }));
  EXPECT_EQ(m.wavefronts, 2u);
  EXPECT_EQ(m.conflicts, 1u);
  // double, lanes 0-15 only: one active half-warp -> ideal 1, 1 wavefront.
  m = shared_bank_metrics(8, 0x0000ffffu, lanes(0x0000ffffu, [](uint32_t t) { return 8ull * t; }));
  EXPECT_EQ(m.ideal_wavefronts, 1u);
  EXPECT_EQ(m.wavefronts, 1u);
  // double, lanes 0 and 16 (words 0-1 and 32-33, same banks but different phases): ideal 2, 2, 0.
  m = shared_bank_metrics(8, 0x00010001u, lanes(0x00010001u, [](uint32_t t) { return 8ull * t; }));
  EXPECT_EQ(m.ideal_wavefronts, 2u);
  EXPECT_EQ(m.wavefronts, 2u);
  EXPECT_EQ(m.conflicts, 0u);
  // float4, lanes 0-7 only: 1 quarter -> 1 wavefront, ideal 1.
  m = shared_bank_metrics(16, 0x000000ffu, lanes(0x000000ffu, [](uint32_t t) { return 16ull * t; }));
  EXPECT_EQ(m.wavefronts, 1u);
  EXPECT_EQ(m.ideal_wavefronts, 1u);
  // float4, lanes 0, 8, 16, 24 reading the same 16 bytes: 4 quarters, 1 each -> 4 / ideal 4.
  m = shared_bank_metrics(16, 0x01010101u, lanes(0x01010101u, [](uint32_t) { return 0ull; }));
  EXPECT_EQ(m.wavefronts, 4u);
  EXPECT_EQ(m.conflicts, 0u);
}

// shared_bank_counts (what analyze() and the emulator's per-site counters run on every
// instruction) takes shortcuts for one-wavefront patterns; on any pattern it must give exactly the
// detailed rule's numbers, bank by bank. Random words, random masks, every width, with the
// shortcut's own cases (own banks, one word, a misaligned byte) mixed in.
TEST(Banks, CountsAgreeWithTheDetailedRuleOnRandomPatterns) {
  std::mt19937 rng(2026);
  const uint32_t widths[] = {1, 2, 4, 8, 16};
  for (int round = 0; round < 4000; ++round) {
    const uint32_t width = widths[rng() % 5];
    const uint32_t mask = round % 3 == 0 ? kFull : uint32_t(rng());
    const int shape = round % 4;
    const uint32_t stride = 1 + rng() % 40, word = rng() % 64;
    const auto a = lanes(mask, [&](uint32_t t) -> uint64_t {
      switch (shape) {
        case 0: return uint64_t(width) * stride * t;                      // strided
        case 1: return 4ull * word + (width < 4 ? width * (t % 2) : 0);  // one word (or two halves)
        case 2: return 4ull * ((t * 33 + word) % 32) + (width == 1 ? t % 4 : 0);  // own banks
        default: return uint64_t(width) * (rng() % 256) + (rng() % 8 == 0 ? 1 : 0);  // random, some misaligned
      }
    });
    const auto m = shared_bank_metrics(width, mask, a);
    const auto k = ws::rules::shared_bank_counts(width, mask, a);
    ASSERT_EQ(k.wavefronts, m.wavefronts) << "round " << round << " width " << width << " shape " << shape;
    ASSERT_EQ(k.ideal_wavefronts, m.ideal_wavefronts) << "round " << round;
    ASSERT_EQ(k.max_ways, m.max_ways) << "round " << round;
    ASSERT_EQ(k.bank_ways, m.bank_ways) << "round " << round;
    ASSERT_EQ(k.bank_words, m.bank_words) << "round " << round;
    // The emulator's per-site counters use the twin without per-bank arrays.
    const auto w = ws::rules::shared_wavefront_counts(width, mask, a);
    ASSERT_EQ(w.wavefronts, m.wavefronts) << "round " << round << " width " << width << " shape " << shape;
    ASSERT_EQ(w.ideal_wavefronts, m.ideal_wavefronts) << "round " << round;
    ASSERT_EQ(w.max_ways, m.max_ways) << "round " << round;
  }
}
