// Shared-memory hazards: RAW / WAR / WAW between warps, barriers that remove them, the seeds'
// cache[2] race and its two remedies, intra-warp lockstep reliance and __syncwarp, same-instruction
// WAW, atomics, byte granularity, and a large trace for speed.
#include <gtest/gtest.h>

#include <chrono>

#include "trace_builder.h"
#include "ws/analysis/analysis.h"

using namespace ws;
using namespace ws::analysis;
using wstest::kFull;
using wstest::TraceBuilder;

namespace {

constexpr uint32_t kLane0 = 0x1u;

struct Fixture {
  TraceBuilder b{Dim3{64, 1, 1}};
  uint32_t s = b.alloc("s", MemSpace::Shared, 4, 64);
  uint32_t st = b.site(10, "s[i] = v;");
  uint32_t ld = b.site(11, "v = s[j];");
};

std::vector<const Hazard*> of_scope(const Report& r, HazardScope scope) {
  std::vector<const Hazard*> v;
  for (const Hazard& h : r.hazards)
    if (h.scope == scope) v.push_back(&h);
  return v;
}

}  // namespace

// warp 0 lane 0 (thread 0) writes s[0]; then warp 1 lane 0 (thread 32) reads it: RAW.
TEST(Hazards, RawBetweenWarps) {
  Fixture f;
  f.b.access(0, 0, f.st, f.s, AccessKind::Store, 4, kLane0, {0});
  f.b.access(0, 1, f.ld, f.s, AccessKind::Load, 4, kLane0, {0});
  const Report r = analyze(f.b.finish());
  ASSERT_EQ(r.hazards.size(), 1u);
  const Hazard& h = r.hazards[0];
  EXPECT_EQ(h.kind, HazardKind::RAW);
  EXPECT_EQ(h.scope, HazardScope::InterWarp);
  EXPECT_EQ(h.first_site, f.st);
  EXPECT_EQ(h.second_site, f.ld);
  EXPECT_EQ(h.count, 1u);
  EXPECT_EQ(h.element, "s[0]");
  EXPECT_EQ(h.first.thread, 0u);
  EXPECT_EQ(h.second.thread, 32u);
  EXPECT_EQ(h.second.thread_index.x, 32u);
  EXPECT_EQ(h.first.kind, AccessKind::Store);
  EXPECT_EQ(h.second.kind, AccessKind::Load);
  EXPECT_EQ(r.totals.hazards, 1u);
  EXPECT_NE(h.message.find("RAW hazard on s[0]"), std::string::npos) << h.message;
}

// warp 1 reads s[5], then warp 0 overwrites it: WAR.
TEST(Hazards, WarBetweenWarps) {
  Fixture f;
  f.b.access(0, 1, f.ld, f.s, AccessKind::Load, 4, kLane0, {20});
  f.b.access(0, 0, f.st, f.s, AccessKind::Store, 4, kLane0, {20});
  const Report r = analyze(f.b.finish());
  ASSERT_EQ(r.hazards.size(), 1u);
  EXPECT_EQ(r.hazards[0].kind, HazardKind::WAR);
  EXPECT_EQ(r.hazards[0].first_site, f.ld);
  EXPECT_EQ(r.hazards[0].second_site, f.st);
  EXPECT_EQ(r.hazards[0].element, "s[5]");
}

// Both warps write s[3]: WAW.
TEST(Hazards, WawBetweenWarps) {
  Fixture f;
  f.b.access(0, 0, f.st, f.s, AccessKind::Store, 4, kLane0, {12});
  f.b.access(0, 1, f.st, f.s, AccessKind::Store, 4, kLane0, {12});
  const Report r = analyze(f.b.finish());
  ASSERT_EQ(r.hazards.size(), 1u);
  EXPECT_EQ(r.hazards[0].kind, HazardKind::WAW);
  EXPECT_EQ(r.hazards[0].element, "s[3]");
}

// The same three pairs with __syncthreads() (a Barrier event per warp) between: no hazard.
TEST(Hazards, BarrierSeparates) {
  Fixture f;
  f.b.access(0, 0, f.st, f.s, AccessKind::Store, 4, kLane0, {0});
  f.b.barrier(0, {0, 1});
  f.b.access(0, 1, f.ld, f.s, AccessKind::Load, 4, kLane0, {0});   // RAW prevented
  f.b.barrier(0, {0, 1});
  f.b.access(0, 0, f.st, f.s, AccessKind::Store, 4, kLane0, {0});  // WAR prevented
  f.b.barrier(0, {0, 1});
  f.b.access(0, 1, f.st, f.s, AccessKind::Store, 4, kLane0, {0});  // WAW prevented
  const Report r = analyze(f.b.finish());
  EXPECT_TRUE(r.hazards.empty());
  EXPECT_EQ(r.totals.barriers, 6u);
}

// Different threads, different elements, no barrier: nothing to report. And the same thread
// reading what it wrote is never a hazard.
TEST(Hazards, NoFalsePositives) {
  Fixture f;
  f.b.access_fn(0, 0, f.st, f.s, AccessKind::Store, 4, kFull, [](uint32_t l) { return 4ull * l; });
  f.b.access_fn(0, 1, f.st, f.s, AccessKind::Store, 4, kFull, [](uint32_t l) { return 128 + 4ull * l; });
  f.b.access_fn(0, 0, f.ld, f.s, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * l; });
  f.b.access_fn(0, 1, f.ld, f.s, AccessKind::Load, 4, kFull, [](uint32_t l) { return 128 + 4ull * l; });
  EXPECT_TRUE(analyze(f.b.finish()).hazards.empty());
}

// The seeds' race (000_*: "Race Conditions"), with the two threads in different warps as on the
// slide "execution in different warps": thread A = warp 0 lane 0 owns cache[0], thread B = warp 1
// lane 0 owns cache[1]:
//   for (i = 0; i < 3; i++) { cache[me] = x[2i+me]; [B1] y[2i+me] = cache[0] * cache[1]; [B2] }
// Issue order per iteration: A store, B store, [B1], A ld0, A ld1, B ld0, B ld1, [B2].
//   no barrier : A reads cache[1] that B wrote -> RAW (store -> ld1), B reads cache[0] -> RAW
//                (store -> ld0), 3 iterations each; from i = 1 on, each store overwrites what the
//                other thread read -> WAR (ld0 -> store) and WAR (ld1 -> store), 2 each.
//   B1 only    : loads are in the next barrier interval: no RAW; the next iteration's store is in
//                the loads' interval -> the two WARs remain (the slide's "write-after-read hazard!").
//   B1 and B2  : the final remedy: nothing.
namespace {
Report seeds_race(int barriers) {
  TraceBuilder b(Dim3{64, 1, 1});
  const uint32_t cache = b.alloc("cache", MemSpace::Shared, 4, 2, 0, "float");
  const uint32_t st = b.site(7, "      cache[threadIdx.x] = x[ 2*i + threadIdx.x];", 7);
  const uint32_t ld0 = b.site(9, "      y[2*i + threadIdx.x] = cache[0] * cache[1];", 30);
  const uint32_t ld1 = b.site(9, "      y[2*i + threadIdx.x] = cache[0] * cache[1];", 41);
  for (int i = 0; i < 3; ++i) {
    b.access(0, 0, st, cache, AccessKind::Store, 4, kLane0, {0});
    b.access(0, 1, st, cache, AccessKind::Store, 4, kLane0, {4});
    if (barriers >= 1) b.barrier(0, {0, 1});
    for (uint32_t w = 0; w < 2; ++w) {
      b.access(0, w, ld0, cache, AccessKind::Load, 4, kLane0, {0});
      b.access(0, w, ld1, cache, AccessKind::Load, 4, kLane0, {4});
    }
    if (barriers >= 2) b.barrier(0, {0, 1});
  }
  return analyze(b.finish());
}
const Hazard* find(const Report& r, HazardKind k, uint32_t first, uint32_t second) {
  for (const Hazard& h : r.hazards)
    if (h.kind == k && h.first_site == first && h.second_site == second) return &h;
  return nullptr;
}
}  // namespace

TEST(Hazards, SeedsCacheRace) {
  const uint32_t st = 0, ld0 = 1, ld1 = 2;  // site indices in order of creation
  const Report none = seeds_race(0);
  ASSERT_EQ(none.hazards.size(), 4u);
  for (const Hazard& h : none.hazards) EXPECT_EQ(h.scope, HazardScope::InterWarp);
  ASSERT_TRUE(find(none, HazardKind::RAW, st, ld1));
  EXPECT_EQ(find(none, HazardKind::RAW, st, ld1)->count, 3u);
  EXPECT_EQ(find(none, HazardKind::RAW, st, ld1)->element, "cache[1]");
  EXPECT_EQ(find(none, HazardKind::RAW, st, ld1)->second.thread, 0u);  // A reads B's cache[1]
  ASSERT_TRUE(find(none, HazardKind::RAW, st, ld0));
  EXPECT_EQ(find(none, HazardKind::RAW, st, ld0)->count, 3u);
  ASSERT_TRUE(find(none, HazardKind::WAR, ld0, st));
  EXPECT_EQ(find(none, HazardKind::WAR, ld0, st)->count, 2u);
  ASSERT_TRUE(find(none, HazardKind::WAR, ld1, st));

  const Report one = seeds_race(1);
  ASSERT_EQ(one.hazards.size(), 2u);
  EXPECT_TRUE(find(one, HazardKind::WAR, ld0, st));
  EXPECT_TRUE(find(one, HazardKind::WAR, ld1, st));
  EXPECT_EQ(find(one, HazardKind::WAR, ld0, st)->element, "cache[0]");
  EXPECT_EQ(find(one, HazardKind::WAR, ld0, st)->count, 2u);

  EXPECT_TRUE(seeds_race(2).hazards.empty());
}

// Same warp, different instructions, no __syncwarp: lane 0 writes s[0], then lane 1 reads it.
// Reported apart ("safe only under lockstep"). A __syncwarp() whose member mask covers both lanes
// clears it; one that covers only lane 0 does not.
TEST(Hazards, IntraWarpLockstep) {
  auto run = [](int sync) {
    TraceBuilder b(Dim3{32, 1, 1});
    const uint32_t s = b.alloc("s", MemSpace::Shared, 4, 32);
    const uint32_t st = b.site(1, "s[t] = v;"), ld = b.site(2, "w = s[t - 1];"), sw = b.site(3, "__syncwarp();");
    b.access(0, 0, st, s, AccessKind::Store, 4, 0x1u, {0}, kFlagVolatile);
    if (sync == 1) b.warp_op(0, 0, sw, WarpOp::SyncWarp, kFull, kFull);
    if (sync == 2) b.warp_op(0, 0, sw, WarpOp::SyncWarp, 0x1u, 0x1u);
    b.access(0, 0, ld, s, AccessKind::Load, 4, 0x2u, {0}, kFlagVolatile);
    return analyze(b.finish());
  };
  const Report r = run(0);
  ASSERT_EQ(r.hazards.size(), 1u);
  EXPECT_EQ(r.hazards[0].scope, HazardScope::IntraWarpLockstep);
  EXPECT_EQ(r.hazards[0].kind, HazardKind::RAW);
  EXPECT_EQ(r.hazards[0].volatile_count, 1u);
  EXPECT_TRUE(r.hazards[0].first.is_volatile);
  EXPECT_EQ(r.totals.hazards, 0u);
  EXPECT_EQ(r.totals.lockstep_hazards, 1u);
  EXPECT_NE(r.hazards[0].message.find("needs __syncwarp/volatile on Volta+"), std::string::npos);
  EXPECT_NE(format_table(r).find("Safe only under lockstep"), std::string::npos);
  EXPECT_TRUE(run(1).hazards.empty());
  EXPECT_EQ(run(2).hazards.size(), 1u);
}

// The seeds' "unsafe further refinement": the last 6 steps of a reduction in warp 0 without
// barriers (volatile sdata). Every hazard is intra-warp (lockstep), none between warps; all
// accesses are volatile. The Volta-safe form (__syncwarp after the loads and after the store)
// has none.
TEST(Hazards, WarpSynchronousReduction) {
  auto run = [](bool syncwarp) {
    TraceBuilder b(Dim3{64, 1, 1});
    const uint32_t s = b.alloc("sdata", MemSpace::Shared, 4, 64);
    const uint32_t a = b.site(40, "sdata[tid] += sdata[tid + d];", 24), c = b.site(40, "sdata[tid] += sdata[tid + d];", 9);
    const uint32_t sw = b.site(41, "__syncwarp();");
    for (uint32_t d = 32; d >= 1; d /= 2) {
      b.access_fn(0, 0, a, s, AccessKind::Load, 4, kFull, [&](uint32_t l) { return 4ull * (l + d); }, kFlagVolatile);
      b.access_fn(0, 0, c, s, AccessKind::Load, 4, kFull, [&](uint32_t l) { return 4ull * l; }, kFlagVolatile);
      if (syncwarp) b.warp_op(0, 0, sw, WarpOp::SyncWarp, kFull, kFull);
      b.access_fn(0, 0, c, s, AccessKind::Store, 4, kFull, [&](uint32_t l) { return 4ull * l; }, kFlagVolatile);
      if (syncwarp) b.warp_op(0, 0, sw, WarpOp::SyncWarp, kFull, kFull);
    }
    return analyze(b.finish());
  };
  const Report r = run(false);
  EXPECT_TRUE(of_scope(r, HazardScope::InterWarp).empty());
  const auto lock = of_scope(r, HazardScope::IntraWarpLockstep);
  ASSERT_FALSE(lock.empty());
  bool war = false, raw = false;
  for (const Hazard* h : lock) {
    EXPECT_EQ(h->volatile_count, h->count);
    war |= h->kind == HazardKind::WAR;  // lane 16 overwrites sdata[16] that lane 0 read (d = 16)
    raw |= h->kind == HazardKind::RAW;  // lane 0 reads sdata[8] that lane 8 wrote (d = 8)
  }
  EXPECT_TRUE(war);
  EXPECT_TRUE(raw);
  EXPECT_TRUE(run(true).hazards.empty());
}

// Two lanes of one store instruction writing the same word: WAW in the same instruction.
TEST(Hazards, SameInstructionWaw) {
  Fixture f;
  f.b.access(0, 0, f.st, f.s, AccessKind::Store, 4, 0x3u, {8, 8});
  const Report r = analyze(f.b.finish());
  ASSERT_EQ(r.hazards.size(), 1u);
  EXPECT_EQ(r.hazards[0].kind, HazardKind::WAW);
  EXPECT_EQ(r.hazards[0].scope, HazardScope::SameInstruction);
  EXPECT_EQ(r.hazards[0].first.thread, 0u);
  EXPECT_EQ(r.hazards[0].second.thread, 1u);
  EXPECT_EQ(r.hazards[0].element, "s[2]");
  // A load instruction with all lanes on one word is a broadcast, never a hazard.
  Fixture g;
  g.b.access_fn(0, 0, g.ld, g.s, AccessKind::Load, 4, kFull, [](uint32_t) { return 0ull; });
  EXPECT_TRUE(analyze(g.b.finish()).hazards.empty());
}

// Atomics vs atomics: never a hazard (even across warps); an atomic vs a plain load is.
TEST(Hazards, Atomics) {
  Fixture f;
  const uint32_t at = f.b.site(12, "atomicAdd(&s[0], 1);");
  f.b.access(0, 0, at, f.s, AccessKind::Atomic, 4, kFull, std::vector<uint64_t>(32, 0));
  f.b.access(0, 1, at, f.s, AccessKind::Atomic, 4, kFull, std::vector<uint64_t>(32, 0));
  EXPECT_TRUE(analyze(f.b.t).hazards.empty());
  // thread 0 (warp 0) reads s[0]; its last writer is warp 1's lane 31 (thread 63), an atomic.
  f.b.access(0, 0, f.ld, f.s, AccessKind::Load, 4, kLane0, {0});
  const Report r = analyze(f.b.finish());
  ASSERT_EQ(r.hazards.size(), 1u);
  EXPECT_EQ(r.hazards[0].kind, HazardKind::RAW);
  EXPECT_EQ(r.hazards[0].scope, HazardScope::InterWarp);
  EXPECT_EQ(r.hazards[0].first_site, at);
  EXPECT_EQ(r.hazards[0].first.kind, AccessKind::Atomic);
  EXPECT_EQ(r.hazards[0].first.thread, 63u);
}

// In global memory the atomicCAS loop's first read of a word other warps update atomically is not
// a race, either way round; a plain store against those atomics is.
TEST(Hazards, AGlobalReadBesideAtomicsIsTheCasLoopsNotARace) {
  TraceBuilder b{Dim3{64, 1, 1}};
  const uint32_t g = b.alloc("acc", MemSpace::Global, 8, 1);
  const uint32_t read = b.site(20, "old = *address;");
  const uint32_t cas = b.site(21, "atomicCAS(address, assumed, v);");
  const uint32_t store = b.site(22, "*address = 0;");
  b.access(0, 0, read, g, AccessKind::Load, 8, kLane0, {0});
  b.access(0, 1, cas, g, AccessKind::Atomic, 8, kLane0, {0});
  b.access(0, 0, read, g, AccessKind::Load, 8, kLane0, {0});
  EXPECT_TRUE(analyze(b.t).hazards.empty());
  b.access(0, 0, store, g, AccessKind::Store, 8, kLane0, {0});
  const Report r = analyze(b.finish());
  ASSERT_EQ(r.hazards.size(), 1u);
  EXPECT_EQ(r.hazards[0].kind, HazardKind::WAW);
  EXPECT_EQ(r.hazards[0].first_site, cas);
  EXPECT_EQ(r.hazards[0].second_site, store);
}

// Byte granularity: char c[4]; thread 0 writes c[0], thread 32 writes c[1] (same word, different
// bytes): no hazard. Thread 64 then reads c[0]: RAW against thread 0 only.
TEST(Hazards, BytesNotWords) {
  TraceBuilder b(Dim3{96, 1, 1});
  const uint32_t c = b.alloc("c", MemSpace::Shared, 1, 4, 0, "char");
  const uint32_t st = b.site(1, "c[k] = 1;"), ld = b.site(2, "x = c[0];");
  b.access(0, 0, st, c, AccessKind::Store, 1, kLane0, {0});
  b.access(0, 1, st, c, AccessKind::Store, 1, kLane0, {1});
  b.access(0, 2, ld, c, AccessKind::Load, 1, kLane0, {0});
  const Report r = analyze(b.finish());
  ASSERT_EQ(r.hazards.size(), 1u);
  EXPECT_EQ(r.hazards[0].kind, HazardKind::RAW);
  EXPECT_EQ(r.hazards[0].first.thread, 0u);
  EXPECT_EQ(r.hazards[0].second.thread, 64u);
  EXPECT_EQ(r.hazards[0].element, "c[0]");
}

TEST(Hazards, CanBeTurnedOff) {
  Fixture f;
  f.b.access(0, 0, f.st, f.s, AccessKind::Store, 4, kLane0, {0});
  f.b.access(0, 1, f.ld, f.s, AccessKind::Load, 4, kLane0, {0});
  Options o;
  o.hazards = false;
  const Report r = analyze(f.b.finish(), o);
  EXPECT_TRUE(r.hazards.empty());
  EXPECT_FALSE(r.hazards_checked);
}

// Hazards are per block: block 1's read of s[0] does not race with block 0's write.
TEST(Hazards, BlocksAreSeparate) {
  TraceBuilder b(Dim3{64, 1, 1}, Dim3{2, 1, 1});
  const uint32_t s = b.alloc("s", MemSpace::Shared, 4, 64);
  const uint32_t st = b.site(1, "s[0] = 1;"), ld = b.site(2, "x = s[0];");
  b.access(0, 0, st, s, AccessKind::Store, 4, kLane0, {0});
  b.access(1, 1, ld, s, AccessKind::Load, 4, kLane0, {0});
  EXPECT_TRUE(analyze(b.finish()).hazards.empty());
}

// Speed: 4M lane accesses (1024 blocks x 4 warps x 32 instructions x 32 lanes), a barrier every 4
// instructions, full analysis with hazards. A 16M-lane trace takes about 4x this.
TEST(Hazards, LargeTraceIsFast) {
  TraceBuilder b(Dim3{128, 1, 1}, Dim3{1024, 1, 1});
  const uint32_t s = b.alloc("tile", MemSpace::Shared, 4, 1024);
  const uint32_t st = b.site(1, "tile[i] = v;"), ld = b.site(2, "v = tile[j];");
  b.t.events.reserve(1024 * 4 * 40);
  b.t.lane_offsets.reserve(size_t(1024) * 4 * 32 * 32);
  for (uint32_t blk = 0; blk < 1024; ++blk)
    for (uint32_t k = 0; k < 32; ++k) {
      for (uint32_t w = 0; w < 4; ++w)
        b.access_fn(blk, w, k % 2 ? ld : st, s, k % 2 ? AccessKind::Load : AccessKind::Store, 4, kFull,
                    [&](uint32_t l) { return 4ull * ((w * 32 + l + k * 128) % 1024); });
      if (k % 4 == 3) b.barrier(blk, {0, 1, 2, 3});
    }
  const Trace t = b.finish();
  ASSERT_EQ(t.lane_access_count(), size_t(1024) * 4 * 32 * 32);
  const auto t0 = std::chrono::steady_clock::now();
  const Report r = analyze(t);
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("analyze: %zu lane accesses in %.3f s\n", size_t(t.lane_access_count()), sec);
  EXPECT_EQ(r.totals.shared[kSt].instructions, 1024u * 4 * 16);
  EXPECT_LT(sec, 20.0);
}
