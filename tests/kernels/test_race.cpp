// race: the seed's cache[2] example. The analysis reports exactly the slides' hazards: without a
// barrier read-after-write, with one barrier write-after-read, with two none -- as real races when
// the two threads are in different warps, as lockstep-only hazards when they share a warp.
#include "catalog_cases.h"
#include "reduction/race_reference.h"

#include <set>

using namespace ws;
using ws::test::Case;
using analysis::HazardKind;
using analysis::HazardScope;

namespace {

std::vector<Case> cases() {
  std::vector<Case> v;
  for (std::string var : {"0", "1", "2"})
    for (int64_t placement : {0, 1})
      for (uint64_t n : {16u, 38u, 2u})
        for (uint32_t b : {64u, 128u}) v.push_back({var, n, {b, 1, 1}, "float", {{"placement", placement}}});
  v.push_back({"2", 10, {2, 1, 1}, "int", {{"placement", 1}}});  // the slide's two-thread block
  return v;
}

class RaceVariants : public testing::TestWithParam<Case> {};

struct Seen {
  bool raw = false, war = false, waw = false;
};

Seen hazards(const analysis::Report& rep, HazardScope scope) {
  Seen s;
  for (const analysis::Hazard& h : rep.hazards) {
    if (h.scope != scope) continue;
    EXPECT_EQ(rep.allocations.at(h.alloc).name, "cache");
    if (h.kind == HazardKind::RAW) s.raw = true;
    if (h.kind == HazardKind::WAR) s.war = true;
    if (h.kind == HazardKind::WAW) s.waw = true;
  }
  return s;
}

}  // namespace

TEST_P(RaceVariants, ReportsTheSlidesHazards) {
  const Case& c = GetParam();
  const RunResult r = test::run_case("race", c);
  ASSERT_TRUE(r.refused.empty()) << r.refused;
  ASSERT_TRUE(r.completed);
  // The final remedy is correct; the emulator's schedule (warps take turns) happens to give the
  // right y for the racy ones too, which is why a race is "probably hard to find".
  if (c.variant == "2") {
    EXPECT_TRUE(r.passed) << r.result << " vs " << r.expected;
    // y against the pair products of the regenerated x (reduction/race_reference.h).
    if (c.dtype == "int") test::expect_elements(r, "y", reference::race::pair_products(reference::race::input<int>(c.n, test::kSeed)));
    else test::expect_elements(r, "y", reference::race::pair_products(reference::race::input<float>(c.n, test::kSeed)));
  }
  const analysis::Report rep = test::analyze_launch(r);
  const bool different_warps = c.params.at("placement") == 0;
  const Seen real = hazards(rep, HazardScope::InterWarp);
  const Seen lockstep = hazards(rep, HazardScope::IntraWarpLockstep);
  const Seen& expected_scope = different_warps ? real : lockstep;
  const Seen& other_scope = different_warps ? lockstep : real;
  EXPECT_FALSE(other_scope.raw || other_scope.war || other_scope.waw);
  EXPECT_FALSE(expected_scope.waw);
  const bool loops = c.n >= 4;  // with one pair there is no next iteration to overwrite cache[]
  if (c.variant == "0") {
    EXPECT_TRUE(expected_scope.raw);  // "Read-after-write hazard!"
    EXPECT_EQ(expected_scope.war, loops);
  } else if (c.variant == "1") {
    EXPECT_FALSE(expected_scope.raw);  // the barrier orders the store before the loads...
    EXPECT_EQ(expected_scope.war, loops);  // "...Write-after-read hazard!"
  } else {
    EXPECT_FALSE(expected_scope.raw || expected_scope.war);
    EXPECT_EQ(rep.totals.hazards + rep.totals.lockstep_hazards, 0u);
  }
  // Per element (the memory heatmap's hazard colours): the two threads share both words of
  // cache[2] (each writes one and reads both), so where there are races both elements have them,
  // of the scope the placement gives, and the pairs add up to the run's.
  uint64_t race_pairs = 0, lockstep_pairs = 0;
  std::set<uint64_t> elements;
  for (const analysis::ElementHazards& e : rep.hazard_elements) {
    EXPECT_EQ(rep.allocations.at(e.alloc).name, "cache");
    elements.insert(e.element);
    race_pairs += e.races, lockstep_pairs += e.lockstep;
  }
  EXPECT_EQ(race_pairs, rep.totals.hazards);
  EXPECT_EQ(lockstep_pairs, rep.totals.lockstep_hazards);
  if (c.variant == "2" || (c.variant == "1" && !loops)) EXPECT_TRUE(elements.empty());
  else EXPECT_EQ(elements, (std::set<uint64_t>{0, 1}));
  EXPECT_EQ(different_warps ? lockstep_pairs : race_pairs, 0u);
}

INSTANTIATE_TEST_SUITE_P(Emu, RaceVariants, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(RaceRefusals, ConstraintsAreNamed) {
  EXPECT_NE(test::refusal("race", {"0", 15, {64, 1, 1}, "float", {}}).find("n must be even"), std::string::npos);
  EXPECT_NE(test::refusal("race", {"0", 1, {64, 1, 1}, "float", {}}).find("n must be even and at least 2"), std::string::npos);
  EXPECT_NE(test::refusal("race", {"0", 16, {32, 1, 1}, "float", {{"placement", 0}}}).find("at least 33 threads"),
            std::string::npos);
  EXPECT_NE(test::refusal("race", {"0", 16, {64, 1, 1}, "float", {{"placement", 2}}}).find("out of range"), std::string::npos);
}
