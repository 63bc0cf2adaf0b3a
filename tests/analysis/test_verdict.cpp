// One verdict for a run (FAULT, RACE, FAIL, LOCKSTEP ONLY, PASS) from its check and its hazards,
// with the first pair said in words: what the lab's badge, `warpscope run` and its JSON show.
#include <gtest/gtest.h>

#include "trace_builder.h"
#include "ws/analysis/verdict.h"

using namespace ws;
using namespace ws::analysis;
using wstest::TraceBuilder;

namespace {

constexpr uint32_t kLane0 = 0x1u, kLane1 = 0x2u;

// Thread 0 writes s[0] at line 10; then thread `reader` (another warp: 32; the same warp: 1)
// reads it at line 11, with no barrier between.
Report store_then_load(uint32_t reader_warp, uint32_t reader_mask) {
  TraceBuilder b{Dim3{64, 1, 1}};
  const uint32_t s = b.alloc("s", MemSpace::Shared, 4, 64);
  const uint32_t st = b.site(10, "s[i] = v;");
  const uint32_t ld = b.site(11, "v = s[0];");
  b.access(0, 0, st, s, AccessKind::Store, 4, kLane0, {0});
  b.access(0, reader_warp, ld, s, AccessKind::Load, 4, reader_mask, {0});
  return analyze(b.finish());
}

}  // namespace

TEST(Verdict, ARaceBetweenWarpsIsARaceEvenWhenTheResultIsRight) {
  const Report r = store_then_load(1, kLane0);
  const RunVerdict v = verdict(true, true, {&r, 1});
  EXPECT_EQ(v.verdict, Verdict::Race);
  EXPECT_STREQ(v.word, "RACE");
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.races, 1u);
  ASSERT_NE(v.first, nullptr);
  EXPECT_EQ(v.sentence.rfind("thread (0,0,0) writes s[0] at ", 0), 0u) << v.sentence;
  EXPECT_NE(v.sentence.find("thread (32,0,0) reads it at "), std::string::npos) << v.sentence;
  EXPECT_NE(v.sentence.find("different warps, no __syncthreads() between (the result came out right this time)"),
            std::string::npos)
      << v.sentence;
  // A wrong result does not hide the race: the race is why.
  EXPECT_EQ(verdict(true, false, {&r, 1}).verdict, Verdict::Race);
}

TEST(Verdict, LanesOfOneWarpSharingAWordAreRightOnlyInLockstep) {
  const Report r = store_then_load(0, kLane1);
  const RunVerdict v = verdict(true, true, {&r, 1});
  EXPECT_EQ(v.verdict, Verdict::LockstepOnly);
  EXPECT_STREQ(v.word, "LOCKSTEP ONLY");
  EXPECT_EQ(v.races, 0u);
  EXPECT_EQ(v.lockstep, 1u);
  EXPECT_NE(v.sentence.find("thread (1,0,0) reads it"), std::string::npos) << v.sentence;
  EXPECT_NE(v.sentence.find("same warp, no __syncwarp() between"), std::string::npos) << v.sentence;
  // Wrong and lockstep-only: the result is what failed.
  EXPECT_EQ(verdict(true, false, {&r, 1}).verdict, Verdict::Fail);
}

TEST(Verdict, WithoutHazardsTheCheckDecidesAndAFaultComesFirst) {
  const Report clean = store_then_load(0, 0);  // the reader's mask is empty: no access, no hazard
  EXPECT_EQ(verdict(true, true, {&clean, 1}).verdict, Verdict::Pass);
  EXPECT_TRUE(verdict(true, true, {&clean, 1}).sentence.empty());
  EXPECT_EQ(verdict(true, false, {&clean, 1}).verdict, Verdict::Fail);
  const Report race = store_then_load(1, kLane0);
  const RunVerdict f = verdict(false, false, {&race, 1});
  EXPECT_EQ(f.verdict, Verdict::Fault);
  EXPECT_STREQ(f.word, "FAULT");
  EXPECT_EQ(verdict(true, true, {}).verdict, Verdict::Pass);  // nothing recorded (gpu-fast): the check decides
}

TEST(Verdict, ARunThatRecordedNoLaunchSaysWhyItStopped) {
  Diagnostic crash;
  crash.code = "run-process-ended";
  crash.message = "the run process ended during the run of deep on emu, by signal 11 (Segmentation fault)";
  Diagnostic note;
  note.severity = Severity::Warning;
  note.message = "not the reason";
  const Diagnostic errors[] = {note, crash};
  const RunVerdict v = verdict(false, false, {}, errors);
  EXPECT_EQ(v.verdict, Verdict::Fault);
  EXPECT_EQ(v.sentence, crash.message);
  EXPECT_EQ(verdict(false, false, {}).sentence, "the kernel stopped before it finished");  // nothing says why
}
