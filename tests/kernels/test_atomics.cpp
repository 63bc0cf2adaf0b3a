// atomics: every max, sum and count-6s variant gives the reference; the racy `*sum +=` loses
// updates; the analysis shows the contention the lecture talks about.
#include "atomics/atomics_reference.h"
#include "catalog_cases.h"
#include "reduction/reduce_reference.h"

using namespace ws;
using ws::test::Case;

namespace {

std::vector<Case> cases() {
  std::vector<Case> v;
  for (std::string var : {"max", "max-regional", "max-reduce", "add", "hier", "6cpu", "6barrier", "6atomic"})
    for (uint64_t n : {4096u, 5000u, 37u})
      for (uint32_t b : {64u, 256u}) {
        v.push_back({var, n, {b, 1, 1}, "int", {}});
        if (var == "add" || var == "hier") v.push_back({var, n, {b, 1, 1}, "float", {}});
      }
  v.push_back({"max-regional", 5000, {128, 1, 1}, "int", {{"regions", 1}}});
  v.push_back({"max-regional", 5000, {128, 1, 1}, "int", {{"regions", 1000}}});
  v.push_back({"add", 1000, {96, 1, 1}, "int", {}});  // any block size
  return v;
}

class AtomicsVariants : public testing::TestWithParam<Case> {};

// A sum of atomics adds in any order: the any-order bound.
template <class T>
void expect_reference_sum(const RunResult& r, uint64_t n) {
  const std::vector<T> x = reference::reduce::input<T>(n, test::kSeed);
  test::expect_scalar<T>(r, "sum", reference::sum(x), sum_error_bound(n, reference::abs_sum(x), SumOrder::Arbitrary));
}

}  // namespace

// What each variant found against the answer for the regenerated input (atomics_reference.h).
TEST_P(AtomicsVariants, MatchesReference) {
  const Case& c = GetParam();
  const RunResult r = test::run_case("atomics", c);
  test::expect_pass(r);
  if (c.variant.rfind("max", 0) == 0)
    test::expect_scalar<int>(r, "max", reference::atomics::maximum(reference::atomics::max_input(c.n, test::kSeed)), 0);
  else if (c.variant[0] == '6')
    test::expect_scalar<int>(r, "number of 6s", reference::atomics::count(reference::atomics::count_input(c.n, test::kSeed), 6), 0);
  else if (c.dtype == "float")
    expect_reference_sum<float>(r, c.n);
  else
    expect_reference_sum<int>(r, c.n);
}

INSTANTIATE_TEST_SUITE_P(Emu, AtomicsVariants, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(AtomicsBroken, RacySumLosesUpdates) {
  for (uint32_t b : {64u, 256u}) {
    const RunResult r = test::run_case("atomics", {"6racy", 4096, {b, 1, 1}, "int", {}});
    ASSERT_TRUE(r.refused.empty()) << r.refused;
    ASSERT_TRUE(r.completed);
    EXPECT_FALSE(r.passed) << r.result << " vs " << r.expected;  // lanes of a warp load the same old *sum
  }
}

// The racy sum is a global race the analysis names: warps that write sum[0] with no barrier
// between (inter-warp), and the 32 lanes of one store on one word (same instruction). The remedies
// have none: a barrier orders 6barrier's d_out, and atomics never race with atomics.
TEST(AtomicsBroken, RacySumIsAGlobalRaceAndItsRemediesAreNot) {
  const RunResult r = test::run_case("atomics", {"6racy", 4096, {64, 1, 1}, "int", {}});
  ASSERT_TRUE(r.completed);
  const analysis::Report rep = test::analyze_launch(r);
  bool inter_warp = false, same_instruction = false;
  for (const analysis::Hazard& h : rep.hazards) {
    EXPECT_EQ(h.space, MemSpace::Global);
    EXPECT_EQ(h.element, "sum[0]");
    inter_warp |= h.scope == analysis::HazardScope::InterWarp;
    same_instruction |= h.scope == analysis::HazardScope::SameInstruction && h.kind == analysis::HazardKind::WAW;
  }
  EXPECT_TRUE(inter_warp);
  EXPECT_TRUE(same_instruction);
  for (const char* v : {"6barrier", "6atomic", "add", "hier", "max"}) {
    const RunResult ok = test::run_case("atomics", {v, 4096, {64, 1, 1}, "int", {}});
    EXPECT_TRUE(test::analyze_launch(ok).hazards.empty()) << v;
  }
}

// Blocks are not compared with each other: the last block of reduce 10 reads the partial sums the
// other blocks wrote (ordered by __threadfence() and the atomic ticket), every block recorded.
TEST(GlobalHazards, BlocksOrderedByFenceAndTicketAreNotARace) {
  const RunResult r = test::run_case("reduce", {"10", 1 << 14, {128, 1, 1}, "int", {{"max_blocks", 8}}}, {});
  ASSERT_TRUE(r.passed) << r.result;
  for (size_t l = 0; l < r.launches.size(); ++l) EXPECT_TRUE(test::analyze_launch(r, l).hazards.empty()) << "launch " << l;
}

TEST(AtomicsContention, OneWordVersusHierarchical) {
  // add: every lane of a warp atomically updates the same global word: 32 on one address.
  const analysis::Report add = test::analyze_launch(test::run_case("atomics", {"add", 256, {64, 1, 1}, "int", {}}));
  EXPECT_EQ(add.totals.atomics_global.max_same_address, 32u);
  EXPECT_EQ(add.totals.atomics_global.instructions, 2u);  // block 0: 2 warps
  EXPECT_EQ(add.totals.atomics_shared.instructions, 0u);
  // hier: the contention moves to the shared partial sum; one global atomic per block.
  const analysis::Report hier = test::analyze_launch(test::run_case("atomics", {"hier", 256, {64, 1, 1}, "int", {}}));
  EXPECT_EQ(hier.totals.atomics_shared.max_same_address, 32u);
  EXPECT_EQ(hier.totals.atomics_shared.instructions, 2u);
  EXPECT_EQ(hier.totals.atomics_global.instructions, 1u);
  EXPECT_EQ(hier.totals.atomics_global.max_same_address, 1u);
  EXPECT_EQ(hier.totals.hazards, 0u);  // the barriers order the init, the atomics and the read
  // max-reduce uses no atomics at all.
  const analysis::Report red = test::analyze_launch(test::run_case("atomics", {"max-reduce", 256, {64, 1, 1}, "int", {}}));
  EXPECT_EQ(red.totals.atomics_global.instructions + red.totals.atomics_shared.instructions, 0u);
}

TEST(AtomicsRefusals, ConstraintsAreNamed) {
  EXPECT_NE(test::refusal("atomics", {"max", 100, {64, 1, 1}, "float", {}}).find("no float overload"), std::string::npos);
  // One thread a block: the relaunches on the block maxima would never end.
  EXPECT_NE(test::refusal("atomics", {"max-reduce", 100, {1, 1, 1}, "int", {}}).find("power of two from 2"), std::string::npos);
  EXPECT_NE(test::refusal("atomics", {"6atomic", 100, {64, 1, 1}, "float", {}}).find("needs dtype int"), std::string::npos);
  EXPECT_NE(test::refusal("atomics", {"max-reduce", 100, {96, 1, 1}, "int", {}}).find("power of two"), std::string::npos);
  EXPECT_NE(test::refusal("atomics", {"6cpu", 5'000'000, {64, 1, 1}, "int", {}}).find("ONE block"), std::string::npos);
  EXPECT_NE(test::refusal("atomics", {"max-regional", 100, {64, 1, 1}, "int", {{"regions", 0}}}).find("out of range"),
            std::string::npos);
}
