// single_pass: one launch sums everything (the last block to finish adds the partial sums) and
// leaves the counter at 0 for the next launch.
#include "catalog_cases.h"
#include "reduction/reduce_reference.h"

using namespace ws;
using ws::test::Case;

namespace {

std::vector<Case> cases() {
  std::vector<Case> v;
  for (uint64_t n : {4096u, 5000u, 37u})
    for (uint32_t b : {64u, 256u})
      for (std::string t : {"float", "int"}) v.push_back({"fence", n, {b, 1, 1}, t, {}});
  v.push_back({"fence", 1, {64, 1, 1}, "int", {}});
  v.push_back({"fence", 100000, {128, 1, 1}, "float", {{"max_blocks", 7}}});  // grid-stride slices
  return v;
}

class SinglePass : public testing::TestWithParam<Case> {};

// The sum against the exact sum of the regenerated input (the sum reduction's).
template <class T>
void expect_reference_sum(const RunResult& r, uint64_t n) {
  const std::vector<T> x = reference::reduce::input<T>(n, test::kSeed);
  test::expect_scalar<T>(r, "sum", reference::sum(x), sum_error_bound(n, reference::abs_sum(x), SumOrder::Tree));
}

}  // namespace

TEST_P(SinglePass, MatchesReferenceInOneLaunch) {
  const RunResult r = test::run_case("single_pass", GetParam());
  test::expect_pass(r);
  if (GetParam().dtype == "int") expect_reference_sum<int>(r, GetParam().n);
  else expect_reference_sum<float>(r, GetParam().n);
  EXPECT_EQ(r.launches.size(), 1u);
  // The fence and the ticket are in the trace: one fence and one atomic per block (block 0 here).
  const analysis::Report rep = test::analyze_launch(r);
  EXPECT_EQ(rep.totals.fences, 1u);
  EXPECT_EQ(rep.totals.atomics_global.instructions, 1u);
}

INSTANTIATE_TEST_SUITE_P(Emu, SinglePass, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(SinglePassRefusals, ConstraintsAreNamed) {
  EXPECT_NE(test::refusal("single_pass", {"fence", 100, {96, 1, 1}, "float", {}}).find("power of two"), std::string::npos);
  EXPECT_NE(test::refusal("single_pass", {"fence", 100, {64, 1, 1}, "float", {{"max_blocks", 0}}}).find("out of range"),
            std::string::npos);
}
