// workqueue: every variant does every item (results computed here), the queue hands each item out
// once (n + one failed take per thread), and with skewed work the one-item-per-thread kernel's
// lanes idle beside the long items.
#include "atomics/work_queue_reference.h"
#include "catalog_cases.h"

using namespace ws;
using ws::test::Case;

namespace {

const char* const kVariants[] = {"static", "static-loop", "queue", "queue-warp"};

// do_work, written again: x -> x * 1664525 + c[k % 16], in 32-bit unsigned arithmetic.
std::vector<unsigned> results(uint64_t n, int work) {
  const auto w = reference::work_queue::work(n, reference::work_queue::Work(work), test::kSeed);
  std::vector<unsigned> out(n);
  for (uint64_t q = 0; q < n; ++q) {
    uint32_t x = uint32_t(q);
    for (uint32_t k = 0; k < w[q]; ++k) x = x * 1664525u + (1013904223u + 2654435761u * (k % 16));
    out[q] = x;
  }
  return out;
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (const char* var : kVariants)
    for (int work = 0; work < 3; ++work)
      for (uint64_t n : {2048u, 1000u, 37u}) v.push_back({var, n, {64, 1, 1}, "int", {{"work", work}}});
  v.push_back({"queue", 3000, {96 + 3, 1, 1}, "int", {{"max_blocks", 7}}});
  v.push_back({"static-loop", 3000, {96 + 3, 1, 1}, "int", {{"max_blocks", 1}}});
  return v;
}

class WorkQueueVariants : public testing::TestWithParam<Case> {};

}  // namespace

TEST_P(WorkQueueVariants, DoesEveryItem) {
  const Case& c = GetParam();
  const RunResult r = test::run_case("workqueue", c);
  test::expect_pass(r);
  test::expect_elements<unsigned>(r, "output", results(c.n, int(c.params.count("work") ? c.params.at("work") : 1)));
}

INSTANTIATE_TEST_SUITE_P(Emu, WorkQueueVariants, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

// Each item is taken once; every thread makes one more take that finds the queue empty.
TEST(WorkQueue, EveryThreadTakesUntilTheQueueIsEmpty) {
  const uint64_t n = 3000;
  const uint32_t grid = 5, block = 64;
  const RunResult r = test::run_case("workqueue", {"queue", n, {block, 1, 1}, "int", {{"max_blocks", grid}}}, {});
  test::expect_pass(r);
  const analysis::Report rep = test::analyze_launch(r);
  EXPECT_EQ(rep.totals.atomics_global.lane_accesses, n + uint64_t(grid) * block);
  // 32 items per take: one lane per warp takes, ceil(n / 32) successful takes plus one per warp.
  const RunResult w = test::run_case("workqueue", {"queue-warp", n, {block, 1, 1}, "int", {{"max_blocks", grid}}}, {});
  test::expect_pass(w);
  const analysis::Report wrep = test::analyze_launch(w);
  EXPECT_EQ(wrep.totals.atomics_global.lane_accesses, (n + 31) / 32 + uint64_t(grid) * block / 32);
  EXPECT_EQ(wrep.totals.atomics_global.max_same_address, 1u);
}

// Equal work keeps all 32 lanes in every round; skewed work leaves lanes idle beside the long
// items (active lanes per coefficient load well under 32).
TEST(WorkQueue, SkewedWorkLeavesLanesIdleWhenEachThreadHasOneItem) {
  auto lanes_per_round = [](int work) {
    const RunResult r = test::run_case("workqueue", {"static", 2048, {128, 1, 1}, "int", {{"work", work}}}, {});
    const analysis::Report rep = test::analyze_launch(r);
    const test::SiteSum s = test::site_sum(rep, "coeffs", MemSpace::Global, AccessKind::Load);
    uint64_t lanes = 0;
    for (const analysis::SiteMetrics& m : rep.sites)
      if (m.alloc < rep.allocations.size() && rep.allocations[m.alloc].name == "coeffs") lanes += m.lane_accesses;
    return double(lanes) / double(s.instructions);
  };
  EXPECT_DOUBLE_EQ(lanes_per_round(0), 32.0);
  EXPECT_LT(lanes_per_round(1), 16.0);
  EXPECT_LT(lanes_per_round(2), 16.0);
}

TEST(WorkQueue, Refusals) {
  EXPECT_NE(test::refusal("workqueue", {"queue-warp", 2048, {48, 1, 1}, "int", {}}).find("multiple of 32"), std::string::npos);
  EXPECT_NE(test::refusal("workqueue", {"static", 2048, {32, 2, 1}, "int", {}}).find("1D blocks"), std::string::npos);
}
