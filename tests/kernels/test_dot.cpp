// dot: both correct variants give the reference for every size and block (the kernel's x . y
// against reduction/dot_reference.h's, over the regenerated inputs); the broken ones give what the
// slides promise: a race the analysis reports, and barrier divergence (not a hang).
#include "catalog_cases.h"
#include "reduction/dot_reference.h"

using namespace ws;
using ws::test::Case;

namespace {

std::vector<Case> cases() {
  std::vector<Case> v;
  for (std::string var : {"cpu", "gpu"})
    for (uint64_t n : {4096u, 5000u, 37u})  // regular, irregular, smaller than one block
      for (uint32_t b : {64u, 256u})
        for (std::string t : {"float", "int"}) v.push_back({var, n, {b, 1, 1}, t, {}});
  // More partial sums than one block of the second kernel: it runs twice.
  v.push_back({"gpu", 70000, {64, 1, 1}, "float", {}});
  return v;
}

class DotVariants : public testing::TestWithParam<Case> {};

// Finished on the GPU: a tree over all n products. Finished by the host: a tree per block, then a
// chain of nBlocks additions, in any order.
template <class T>
void expect_reference_dot(const RunResult& r, const Case& c) {
  const auto in = reference::dot::inputs<T>(c.n, test::kSeed);
  const reference::dot::Product d = reference::dot::product(in.x, in.y);
  const uint32_t blocks = uint32_t((c.n + c.block.x - 1) / c.block.x);
  const double bound = c.variant == "gpu" ? sum_error_bound(c.n, d.abs_sum, SumOrder::Tree)
                                          : sum_error_bound(reference::dot::host_terms(c.block.x, blocks), d.abs_sum,
                                                            SumOrder::Arbitrary);
  test::expect_scalar<T>(r, "x . y", d.value, bound);
}

}  // namespace

TEST_P(DotVariants, MatchesReference) {
  const RunResult r = test::run_case("dot", GetParam());
  test::expect_pass(r);
  if (GetParam().dtype == "int") expect_reference_dot<int>(r, GetParam());
  else expect_reference_dot<float>(r, GetParam());
  // cpu: dotprod only; gpu: dotprod, then sum_partials once per pass over the partial sums.
  const Case& c = GetParam();
  const uint64_t partials = (c.n + c.block.x - 1) / c.block.x;
  EXPECT_EQ(r.launches.size(), c.variant == "cpu" ? 1u : partials <= c.block.x ? 2u : 3u);
}

INSTANTIATE_TEST_SUITE_P(Emu, DotVariants, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(DotBroken, CorrectVersionHasNoHazard) {
  const RunResult r = test::run_case("dot", {"cpu", 1000, {128, 1, 1}, "float", {}});
  test::expect_pass(r);
  const analysis::Report rep = test::analyze_launch(r);
  EXPECT_EQ(rep.totals.hazards, 0u);
  EXPECT_EQ(rep.totals.lockstep_hazards, 0u);
}

TEST(DotBroken, MissingSyncthreadsIsAnInterWarpRace) {
  for (uint32_t b : {64u, 256u}) {
    const RunResult r = test::run_case("dot", {"nosync", 1000, {b, 1, 1}, "float", {}});
    ASSERT_TRUE(r.refused.empty()) << r.refused;
    ASSERT_TRUE(r.completed);  // a race is not a fault: the kernel runs to its end
    const analysis::Report rep = test::analyze_launch(r);
    bool inter_warp_on_cache = false;
    for (const analysis::Hazard& h : rep.hazards)
      if (h.scope == analysis::HazardScope::InterWarp && rep.allocations.at(h.alloc).name == "cache" &&
          (h.kind == analysis::HazardKind::RAW || h.kind == analysis::HazardKind::WAR))
        inter_warp_on_cache = true;
    EXPECT_TRUE(inter_warp_on_cache) << "block " << b << ": " << rep.hazards.size() << " hazards";
    EXPECT_GT(rep.totals.hazards, 0u);
  }
}

TEST(DotBroken, BarrierInsideIfIsBarrierDivergence) {
  for (uint64_t n : {1000u, 37u}) {
    const RunResult r = test::run_case("dot", {"divergent-barrier", n, {64, 1, 1}, "int", {}});
    ASSERT_TRUE(r.refused.empty()) << r.refused;
    EXPECT_FALSE(r.completed);
    EXPECT_FALSE(r.passed);
    ASSERT_FALSE(r.errors.empty());
    EXPECT_EQ(r.errors[0].code, "barrier-divergence") << r.errors[0].message;
    EXPECT_NE(r.errors[0].message.find("__syncthreads()"), std::string::npos) << r.errors[0].message;
  }
}

TEST(DotRefusals, ConstraintsAreNamed) {
  EXPECT_NE(test::refusal("dot", {"cpu", 100, {96, 1, 1}, "float", {}}).find("not a power of two"), std::string::npos);
  EXPECT_NE(test::refusal("dot", {"gpu", 100, {1, 1, 1}, "float", {}}).find("use 2 threads or more"), std::string::npos);
  EXPECT_NE(test::refusal("dot", {"cpu", 100, {16, 16, 1}, "float", {}}).find("1D blocks"), std::string::npos);
  EXPECT_NE(test::refusal("dot", {"cpu", 30'000'000, {256, 1, 1}, "int", {}}).find("overflow"), std::string::npos);
  EXPECT_NE(test::refusal("dot", {"cpu", 100, {64, 1, 1}, "double", {}}).find("does not take dtype"), std::string::npos);
}
