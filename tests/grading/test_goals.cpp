// Goals measured on real analyses of hand-built traces. Each trace is a few warp instructions
// whose lane addresses are written out, so the bank conflicts, sectors, active lanes and hazards
// they must give are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "trace_builder.h"
#include "ws/grading/goal.h"

namespace {

using ws::AccessKind;
using ws::MemSpace;
using ws::grading::Goal;
using ws::grading::GoalResult;
using ws::grading::Metric;
using wstest::kFull;

// One block of 64 threads (2 warps):
//   line 10  sdata[2*s*tid] (s = 1): warp 0 reads words 0, 2, ..., 62 -> banks 0, 2, .., 30 each
//            twice: 2 wavefronts, 1 conflict, 2-way. Then with s = 4: words 0, 8, .., 248 -> banks
//            0, 8, 16, 24, eight words each: 8 wavefronts, 7 conflicts, 8-way.
//   line 12  in[i]: warp 0 and 1 read 32 consecutive floats each: 4 sectors a request.
//            out[i * 32]: warp 0 writes 32 floats 128 bytes apart: 32 sectors in 1 request.
//   line 14  atomicAdd(&bins[0], 1) by the 16 lanes of warp 1's lower half.
struct Traced {
  std::vector<ws::analysis::Report> reports;
  ws::RunResult run;
};

Traced example() {
  wstest::TraceBuilder b({64, 1, 1});
  const uint32_t sdata = b.alloc("sdata", MemSpace::Shared, 4, 256);
  const uint32_t in = b.alloc("in", MemSpace::Global, 4, 64, 1 << 20);
  const uint32_t out = b.alloc("out", MemSpace::Global, 4, 2048, 2 << 20);
  const uint32_t bins = b.alloc("bins", MemSpace::Global, 4, 16, 3 << 20);
  const uint32_t tree = b.site(10, "    sdata[index] += sdata[index + s];");
  const uint32_t copy = b.site(12, "  out[i * 32] = in[i];");
  const uint32_t atom = b.site(14, "  atomicAdd(&bins[0], 1);");
  b.access_fn(0, 0, tree, sdata, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * 2 * l; });
  b.access_fn(0, 0, tree, sdata, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * 8 * l; });
  b.access_fn(0, 0, copy, in, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * l; });
  b.access_fn(0, 1, copy, in, AccessKind::Load, 4, kFull, [](uint32_t l) { return 4ull * (32 + l); });
  b.access_fn(0, 0, copy, out, AccessKind::Store, 4, kFull, [](uint32_t l) { return 128ull * l; });
  b.access_fn(0, 1, atom, bins, AccessKind::Atomic, 4, 0x0000ffffu, [](uint32_t) { return 0ull; });
  Traced t;
  t.reports.push_back(ws::analysis::analyze(b.finish()));
  t.run.completed = t.run.passed = true;
  return t;
}

GoalResult grade_one(const Goal& g, const Traced& t) {
  const std::vector<GoalResult> r = ws::grading::grade(std::span<const Goal>(&g, 1), t.run, t.reports);
  EXPECT_EQ(r.size(), 1u);
  return r.front();
}

Goal goal(Metric m, std::optional<double> max, std::optional<double> min = {}) {
  Goal g;
  g.metric = m;
  g.max = max;
  g.min = min;
  return g;
}

TEST(Goals, BankConflictsAreSummedInScopeAndTheWorstLineIsNamed) {
  const Traced t = example();
  Goal g = goal(Metric::BankConflicts, 0);
  g.scope.array = "sdata";
  const GoalResult r = grade_one(g, t);
  EXPECT_TRUE(r.measured);
  EXPECT_FALSE(r.held);
  EXPECT_EQ(r.value, 1 + 7);  // 2-way then 8-way
  EXPECT_EQ(r.line, 10u);
  EXPECT_NE(r.detail.find("8-way bank conflicts"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("sdata[index] += sdata[index + s]"), std::string::npos) << r.detail;
  g.max = 8;
  EXPECT_TRUE(grade_one(g, t).held);

  Goal ways = goal(Metric::BankWays, 4);
  EXPECT_EQ(grade_one(ways, t).value, 8);
  EXPECT_FALSE(grade_one(ways, t).held);
}

TEST(Goals, SectorsPerRequestIsTheWorstSiteInScope) {
  const Traced t = example();
  Goal all = goal(Metric::SectorsPerRequest, 4);
  const GoalResult r = grade_one(all, t);
  EXPECT_EQ(r.value, 32);  // out[i * 32]: 32 lanes on 32 sectors, one request
  EXPECT_FALSE(r.held);
  EXPECT_EQ(r.line, 12u);
  Goal loads = all;
  loads.scope.access = "load";
  EXPECT_EQ(grade_one(loads, t).value, 4);  // in[i]: 8 sectors over 2 requests
  EXPECT_TRUE(grade_one(loads, t).held);
  Goal of_in = all;
  of_in.scope.array = "in";
  EXPECT_TRUE(grade_one(of_in, t).held);
}

TEST(Goals, SimdEfficiencyCountsActiveLanesOverTheInstructionsInScope) {
  const Traced t = example();
  // 6 instructions: five with 32 lanes and the atomic with 16: (5*32 + 16) / (6*32) = 91.67%.
  Goal g = goal(Metric::SimdEfficiency, {}, 95);
  const GoalResult r = grade_one(g, t);
  EXPECT_NEAR(r.value, 100.0 * (5 * 32 + 16) / (6 * 32), 1e-9);
  EXPECT_FALSE(r.held);
  EXPECT_EQ(r.line, 14u);  // the line that leaves lanes idle
  Goal tree = g;
  tree.scope.line_text = "sdata[index]";
  EXPECT_NEAR(grade_one(tree, t).value, 100.0, 1e-9);
  EXPECT_TRUE(grade_one(tree, t).held);
}

TEST(Goals, GlobalAtomicsCountLaneAccesses) {
  const Traced t = example();
  const GoalResult r = grade_one(goal(Metric::GlobalAtomics, 15), t);
  EXPECT_EQ(r.value, 16);
  EXPECT_FALSE(r.held);
  EXPECT_EQ(r.line, 14u);
  EXPECT_TRUE(grade_one(goal(Metric::GlobalAtomics, 16), t).held);
}

// A scope that names nothing that ran cannot hold: the student renamed the array, or the line is
// gone. The goal says what it looked for.
TEST(Goals, NothingInScopeIsNotMeasuredAndDoesNotHold) {
  const Traced t = example();
  Goal g = goal(Metric::BankConflicts, 0);
  g.scope.array = "tile";
  const GoalResult r = grade_one(g, t);
  EXPECT_FALSE(r.measured);
  EXPECT_FALSE(r.held);
  EXPECT_NE(r.detail.find("tile"), std::string::npos) << r.detail;
}

// Two warps write and read one shared word with no barrier between: one racing pair. Lanes 0
// and 1 of one warp doing the same: a lockstep pair.
TEST(Goals, RacesAndLockstepRacesAreHazardPairs) {
  wstest::TraceBuilder b({64, 1, 1});
  const uint32_t s = b.alloc("partial", MemSpace::Shared, 4, 64);
  const uint32_t w = b.site(20, "  partial[t] = v;");
  const uint32_t rd = b.site(21, "  v += partial[t + 32];");
  b.access(0, 0, w, s, AccessKind::Store, 4, 0x1u, {0});
  b.access(0, 1, rd, s, AccessKind::Load, 4, 0x1u, {0});
  b.access(0, 0, w, s, AccessKind::Store, 4, 0x1u, {64});
  b.access(0, 0, rd, s, AccessKind::Load, 4, 0x2u, {64});
  Traced t;
  t.reports.push_back(ws::analysis::analyze(b.finish()));
  t.run.completed = t.run.passed = true;
  const GoalResult races = grade_one(goal(Metric::Races, 0), t);
  EXPECT_EQ(races.value, 1);
  EXPECT_FALSE(races.held);
  EXPECT_EQ(races.line, 21u);
  EXPECT_NE(races.detail.find("no __syncthreads()"), std::string::npos) << races.detail;
  const GoalResult lock = grade_one(goal(Metric::LockstepRaces, 0), t);
  EXPECT_EQ(lock.value, 1);
  EXPECT_NE(lock.detail.find("__syncwarp()"), std::string::npos) << lock.detail;
}

TEST(Goals, ResultAndBarrierDivergenceComeFromTheRun) {
  Traced t = example();
  const Goal result = goal(Metric::Result, {});
  EXPECT_TRUE(grade_one(result, t).held);
  t.run.passed = false;
  t.run.result = "sum = 7";
  t.run.expected = "sum = 8";
  const GoalResult failed = grade_one(result, t);
  EXPECT_FALSE(failed.held);
  EXPECT_EQ(failed.value_text, "FAIL");
  EXPECT_NE(failed.detail.find("sum = 8"), std::string::npos);

  EXPECT_TRUE(grade_one(goal(Metric::BarrierDivergence, 0), t).held);
  ws::Diagnostic d;
  d.code = "barrier-divergence";
  d.message = "barrier divergence in block 0: threads 0-15 wait at line 30, threads 16-63 do not";
  d.site = 0;
  t.reports.front().diagnostics.push_back(d);
  t.run.completed = false;
  const GoalResult bd = grade_one(goal(Metric::BarrierDivergence, 0), t);
  EXPECT_EQ(bd.value, 1);
  EXPECT_FALSE(bd.held);
  EXPECT_NE(bd.detail.find("barrier divergence in block 0"), std::string::npos);
  EXPECT_FALSE(grade_one(result, t).held);
  EXPECT_EQ(grade_one(result, t).value_text, "did not finish");
}

// A GPU's time against the ceiling's time for the same bytes: held at or under max; no
// measurement (no GPU here) skips it; a GPU that could not time it fails with why.
TEST(Goals, GpuTimeIsTheKernelsTimeOverTheCeilingsTime) {
  Traced t = example();
  Goal g = goal(Metric::GpuTime, 1.5);
  g.n = 8192;
  ws::grading::GpuTime fast{.ok = true, .why_not = "", .ms = 0.6, .ceiling_ms = 0.5, .bytes = 500'000'000};
  std::vector<GoalResult> r = ws::grading::grade(std::vector<Goal>{g}, t.run, t.reports, std::vector{fast});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].held);
  EXPECT_NEAR(r[0].value, 0.6 / 0.5, 1e-12);
  EXPECT_EQ(r[0].value_text, "1.20x the copy");
  EXPECT_EQ(r[0].bound_text, "<= 1.50x the copy");
  EXPECT_NE(r[0].detail.find("0.600 ms"), std::string::npos) << r[0].detail;
  ws::grading::GpuTime slow = fast;
  slow.ms = 0.8;  // 1.6x
  EXPECT_FALSE(ws::grading::grade(std::vector<Goal>{g}, t.run, t.reports, std::vector{slow})[0].held);

  const GoalResult none = ws::grading::grade(std::vector<Goal>{g}, t.run, t.reports)[0];
  EXPECT_TRUE(none.skipped);
  EXPECT_FALSE(none.held);
  EXPECT_NE(none.detail.find("there is none here"), std::string::npos) << none.detail;

  ws::grading::GpuTime fault{.ok = false, .why_not = "an illegal address", .ms = 0, .ceiling_ms = 0, .bytes = 0};
  const GoalResult failed = ws::grading::grade(std::vector<Goal>{g}, t.run, t.reports, std::vector{fault})[0];
  EXPECT_FALSE(failed.skipped);
  EXPECT_FALSE(failed.held);
  EXPECT_NE(failed.detail.find("an illegal address"), std::string::npos) << failed.detail;
}

TEST(Goals, MetricsAreNamedAndBoundsWritten) {
  for (const ws::grading::MetricInfo& m : ws::grading::metrics()) {
    ASSERT_TRUE(ws::grading::metric_named(m.name).has_value()) << m.name;
    EXPECT_EQ(*ws::grading::metric_named(m.name), m.metric);
  }
  EXPECT_FALSE(ws::grading::metric_named("conflicts").has_value());
  EXPECT_EQ(ws::grading::bound_text(goal(Metric::SimdEfficiency, {}, 90)), ">= 90%");
  EXPECT_EQ(ws::grading::bound_text(goal(Metric::BankConflicts, 0)), "<= 0");
  EXPECT_EQ(ws::grading::bound_text(goal(Metric::Result, {})), "passes");
}

}  // namespace
