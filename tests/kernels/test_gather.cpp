// gather: new_array[i] = prev_array[indices[i]] for every index pattern, and the sectors each warp
// reads from prev_array, counted here from the indices: 4 per warp for identity, swapped
// neighbours and blocked runs, about one per lane for a random permutation.
#include <set>

#include "catalog_cases.h"
#include "common/reference.h"
#include "memory/gather_reference.h"

using namespace ws;
using ws::test::Case;

namespace {

std::vector<Case> cases() {
  std::vector<Case> v;
  for (int p = 0; p < 4; ++p)
    for (uint64_t n : {4096u, 5000u, 37u})
      for (const char* dt : {"float", "int"}) v.push_back({"shuffle", n, {128, 1, 1}, dt, {{"indices", p}}});
  v.push_back({"shuffle", 1000, {100, 1, 1}, "float", {{"indices", 3}}});
  return v;
}

class GatherPatterns : public testing::TestWithParam<Case> {};

}  // namespace

TEST_P(GatherPatterns, MovesEveryElementToItsPlace) {
  const Case& c = GetParam();
  const RunResult r = test::run_case("gather", c);
  test::expect_pass(r);
  const auto idx = reference::gather::indices(c.n, reference::gather::Pattern(c.params.at("indices")), test::kSeed);
  if (c.dtype == "int") {
    const auto prev = random_input<int>(c.n, test::kSeed, -9, 9);
    std::vector<int> want(c.n);
    for (uint64_t i = 0; i < c.n; ++i) want[i] = prev[idx[i]];
    test::expect_elements<int>(r, "new_array", want);
  } else {
    const auto prev = random_input<float>(c.n, test::kSeed, -9, 9);
    std::vector<float> want(c.n);
    for (uint64_t i = 0; i < c.n; ++i) want[i] = prev[idx[i]];
    test::expect_elements<float>(r, "new_array", want);
  }
}

INSTANTIATE_TEST_SUITE_P(Emu, GatherPatterns, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(GatherIndices, EveryPatternIsAPermutation) {
  for (int p = 0; p < 4; ++p)
    for (uint64_t n : {1u, 2u, 31u, 4096u, 5001u}) {
      auto idx = reference::gather::indices(n, reference::gather::Pattern(p), 11);
      std::sort(idx.begin(), idx.end());
      for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(idx[i], i) << "pattern " << p << ", n " << n;
    }
}

TEST(GatherSectors, TheIndicesDecideHowManySectorsAWarpReads) {
  const uint64_t n = 4096;
  for (int p = 0; p < 4; ++p) {
    const RunResult r = test::run_case("gather", {"shuffle", n, {256, 1, 1}, "float", {{"indices", p}}}, {});
    test::expect_pass(r);
    const auto idx = reference::gather::indices(n, reference::gather::Pattern(p), test::kSeed);
    uint64_t want = 0;  // distinct 32-byte sectors of each warp's 32 floats
    for (uint64_t w = 0; w < n / 32; ++w) {
      std::set<uint64_t> sectors;
      for (uint64_t l = 0; l < 32; ++l) sectors.insert(uint64_t(idx[w * 32 + l]) * 4 / 32);
      want += sectors.size();
    }
    const test::SiteSum s = test::site_sum(test::analyze_launch(r), "prev_array", MemSpace::Global, AccessKind::Load);
    EXPECT_EQ(s.instructions, n / 32);
    EXPECT_EQ(s.sectors, want) << "pattern " << p;
    if (p < 3) EXPECT_EQ(s.sectors, 4 * (n / 32)) << "pattern " << p;
    else EXPECT_GT(s.sectors, 28 * (n / 32)) << "random: nearly a sector per lane";
  }
}
