// The divergence demos (kernels/control/divergence.cuh): results, and the masks the slide's
// branches give each warp.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "control/divergence_reference.h"
#include "ws/run/catalog.h"

using namespace ws;

namespace {

RunResult run(const std::string& variant, const std::string& dtype = "int", uint64_t n = 1024) {
  RunConfig cfg;
  cfg.variant = variant;
  cfg.dtype = dtype;
  cfg.n = n;
  cfg.block = {256, 1, 1};
  return Catalog::instance().run("divergence", cfg, BackendKind::Emu);
}

// out[] against control/divergence_reference.h with the branch's own condition, over the
// regenerated input (the default seed).
template <class T>
void expect_reference_outputs(const RunResult& r, const std::string& variant, uint64_t n) {
  namespace ref = reference::divergence;
  const std::vector<T> in = ref::input<T>(n, RunConfig{}.seed);
  const std::vector<T> want = variant == "odd-even"  ? ref::outputs(in, 256, ref::odd_lane)
                              : variant == "threshold" ? ref::outputs(in, 256, ref::above_two)
                              : variant == "per-warp"  ? ref::outputs(in, 256, ref::warp_above_two)
                                                       : ref::loop_outputs(in, 256, ref::odd_lane, 4);
  const std::vector<T> got = r.value<T>("out");
  ASSERT_EQ(got.size(), want.size());
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) bad += !(got[i] == want[i]);
  EXPECT_EQ(bad, 0u) << variant << ": elements of out off the reference";
}

// One warp's access instructions in issue order, as "in:load:aaaaaaaa" (array, kind, mask).
std::vector<std::string> warp_order(const RunResult& r, uint32_t warp) {
  std::vector<std::string> out;
  const Trace& t = r.launches.at(0);
  char mask[9];
  for (const Event& e : t.events) {
    if (e.block != 0 || e.warp != warp || e.type != EventType::Access) continue;
    std::snprintf(mask, sizeof mask, "%08x", e.mask);
    out.push_back(t.allocations[e.alloc].name + ":" + to_string(e.kind) + ":" + mask);
  }
  return out;
}

}  // namespace

TEST(Divergence, EveryVariantComputesTheRightValues) {
  for (const std::string v : {"odd-even", "threshold", "per-warp", "loop"})
    for (const std::string dtype : {"int", "float"}) {
      const RunResult r = run(v, dtype, 1000);  // (a partial last block too)
      ASSERT_TRUE(r.refused.empty()) << r.refused;
      EXPECT_TRUE(r.passed) << v << " " << dtype << ": " << r.result << " vs " << r.expected;
      if (dtype == "int") expect_reference_outputs<int>(r, v, 1000);
      else expect_reference_outputs<float>(r, v, 1000);
    }
}

TEST(Divergence, OddEvenRunsBothHalvesInEveryWarp) {
  const RunResult r = run("odd-even");
  const std::vector<std::string> odd = {"in:load:aaaaaaaa", "out:store:aaaaaaaa"},
                                 even = {"in:load:55555555", "out:store:55555555"};
  for (uint32_t w : {0u, 7u}) {
    std::vector<std::string> want = odd;
    want.insert(want.end(), even.begin(), even.end());
    EXPECT_EQ(warp_order(r, w), want) << "warp " << w;
  }
}

TEST(Divergence, TheThresholdSplitsOnlyTheFirstWarp) {
  const RunResult r = run("threshold");
  EXPECT_EQ(warp_order(r, 0), (std::vector<std::string>{"in:load:fffffff8", "out:store:fffffff8",
                                                         "in:load:00000007", "out:store:00000007"}));
  EXPECT_EQ(warp_order(r, 1), (std::vector<std::string>{"in:load:ffffffff", "out:store:ffffffff"}));
}

TEST(Divergence, PerWarpBranchesNeverSplitAWarp) {
  const RunResult r = run("per-warp");
  for (uint32_t w = 0; w < 8; ++w)
    EXPECT_EQ(warp_order(r, w), (std::vector<std::string>{"in:load:ffffffff", "out:store:ffffffff"})) << "warp " << w;
}

TEST(Divergence, InALoopTheHalvesAlternateAndMeetAfterEachIteration) {
  const RunResult r = run("loop");  // iters = 4
  std::vector<std::string> want;
  for (int k = 0; k < 4; ++k) want.insert(want.end(), {"in:load:aaaaaaaa", "in:load:55555555"});
  want.push_back("out:store:ffffffff");
  EXPECT_EQ(warp_order(r, 0), want);
}
