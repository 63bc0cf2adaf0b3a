// histogram: every variant counts every picture right; the analysis shows the contention the
// lecture talks about (32 lanes on one bin for one colour; one lane per colour once aggregated;
// the per-pixel atomics moved to shared memory when privatised); named inputs resolve.
#include <algorithm>
#include <map>
#include <set>

#include "atomics/histogram_reference.h"
#include "catalog_cases.h"

using namespace ws;
using ws::test::Case;

namespace {

const char* const kVariants[] = {"global", "shared", "warp"};

// The bins counted here with a map, not with the reference's counting loop.
std::vector<unsigned> counted(uint64_t n, uint32_t bins, int input) {
  std::map<int, unsigned> m;
  for (int c : reference::histogram::colors(n, bins, reference::histogram::Input(input), test::kSeed)) ++m[c];
  std::vector<unsigned> h(bins, 0);
  for (const auto& [c, k] : m) h.at(size_t(c)) = k;
  return h;
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (const char* var : kVariants)
    for (int input = 0; input < 4; ++input)
      for (uint64_t n : {4096u, 5000u, 37u})
        for (uint32_t b : {64u, 256u}) v.push_back({var, n, {b, 1, 1}, "int", {{"input", input}}});
  for (const char* var : kVariants) {
    v.push_back({var, 3000, {128, 1, 1}, "int", {{"bins", 1}}});
    v.push_back({var, 3000, {128, 1, 1}, "int", {{"bins", 4096}, {"input", 2}}});
  }
  v.push_back({"global", 1000, {96 + 1, 1, 1}, "int", {}});  // any block size
  v.push_back({"shared", 10000, {96 + 1, 1, 1}, "int", {{"max_blocks", 3}}});
  return v;
}

class HistogramVariants : public testing::TestWithParam<Case> {};

}  // namespace

TEST_P(HistogramVariants, CountsEveryBin) {
  const Case& c = GetParam();
  const RunResult r = test::run_case("histogram", c);
  test::expect_pass(r);
  const auto bins = c.params.count("bins") ? uint32_t(c.params.at("bins")) : 256u;
  const int input = c.params.count("input") ? int(c.params.at("input")) : 0;
  test::expect_elements<unsigned>(r, "buckets", counted(c.n, bins, input));
}

INSTANTIATE_TEST_SUITE_P(Emu, HistogramVariants, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(HistogramInputs, EachPictureIsWhatItsNameSays) {
  using reference::histogram::Input;
  const uint64_t n = 1 << 14;
  const auto one = reference::histogram::colors(n, 256, Input::OneColour, 3);
  EXPECT_TRUE(std::all_of(one.begin(), one.end(), [](int c) { return c == 128; }));
  const auto sorted = reference::histogram::colors(n, 256, Input::Sorted, 3);
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
  // The image: its four dominant colours hold most pixels; the uniform picture's busiest four bins don't.
  auto top4 = [](const std::vector<int>& c) {
    std::map<int, uint64_t> m;
    for (int x : c) ++m[x];
    std::vector<uint64_t> k;
    for (const auto& [x, cnt] : m) k.push_back(cnt);
    std::sort(k.rbegin(), k.rend());
    return k[0] + k[1] + k[2] + k[3];
  };
  EXPECT_GT(top4(reference::histogram::colors(n, 256, Input::Image, 3)), n / 2);
  EXPECT_LT(top4(reference::histogram::colors(n, 256, Input::Uniform, 3)), n / 16);
  for (int i = 0; i < 4; ++i)
    for (int c : reference::histogram::colors(999, 17, Input(i), 5)) ASSERT_TRUE(c >= 0 && c < 17) << i;
}

// One colour everywhere: the slide's kernel puts all 32 lanes of a warp on one bin, one
// instruction per warp; aggregated, one lane per warp adds 32; privatised, the 32-lane atomics are
// shared ones and each block adds its one bin to global memory once.
TEST(HistogramContention, OneColourQueuesTheWholeWarpUnlessAggregatedOrPrivatised) {
  const uint64_t n = 4096;
  const uint32_t block = 128, warps = uint32_t(n / 32), blocks = uint32_t(n / block);
  const Case one{"global", n, {block, 1, 1}, "int", {{"input", 1}}};
  Case c = one;
  const analysis::Report g = test::analyze_launch(test::run_case("histogram", c, {}));
  EXPECT_EQ(g.totals.atomics_global.instructions, warps);
  EXPECT_EQ(g.totals.atomics_global.lane_accesses, n);
  EXPECT_EQ(g.totals.atomics_global.max_same_address, 32u);
  EXPECT_EQ(g.totals.atomics_global.serialized, uint64_t(warps) * 32);
  EXPECT_EQ(g.totals.atomics_global.sector_passes, uint64_t(warps) * 32);  // ncu's sectors: a pass per lane

  c.variant = "warp";
  const analysis::Report w = test::analyze_launch(test::run_case("histogram", c, {}));
  EXPECT_EQ(w.totals.atomics_global.instructions, warps);
  EXPECT_EQ(w.totals.atomics_global.lane_accesses, warps);  // one lane per warp
  EXPECT_EQ(w.totals.atomics_global.max_same_address, 1u);
  EXPECT_EQ(w.totals.atomics_global.sector_passes, warps);

  c.variant = "shared";
  c.params["max_blocks"] = blocks;  // one pixel per thread, as the others
  const analysis::Report s = test::analyze_launch(test::run_case("histogram", c, {}));
  EXPECT_EQ(s.totals.atomics_shared.lane_accesses, n);
  EXPECT_EQ(s.totals.atomics_shared.max_same_address, 32u);
  EXPECT_EQ(s.totals.atomics_global.lane_accesses, blocks);  // one non-zero bin per block
}

// Uniform colours over 256 bins: few lanes of a warp share a bin; aggregation makes one atomic per
// distinct colour of the warp, counted here from the input.
TEST(HistogramContention, AggregationMakesOneAtomicPerDistinctColourOfAWarp) {
  const uint64_t n = 4096;
  const RunResult r = test::run_case("histogram", {"warp", n, {256, 1, 1}, "int", {}}, {});
  test::expect_pass(r);
  const auto colors = reference::histogram::colors(n, 256, reference::histogram::Input::Uniform, test::kSeed);
  uint64_t distinct = 0;
  for (uint64_t w = 0; w < n / 32; ++w) distinct += std::set<int>(colors.begin() + w * 32, colors.begin() + w * 32 + 32).size();
  const analysis::Report rep = test::analyze_launch(r);
  EXPECT_EQ(rep.totals.atomics_global.lane_accesses, distinct);
  EXPECT_LT(distinct, n);  // some warps do share a colour
}

// Sorted colours: a warp's lanes hit one colour or two neighbouring ones; per sector the passes are
// the most lanes on one address in it, counted here from the input.
TEST(HistogramContention, SectorPassesAreTheMostLanesOnOneAddressPerSector) {
  const uint64_t n = 4096;
  const RunResult r = test::run_case("histogram", {"global", n, {128, 1, 1}, "int", {{"input", 3}}}, {});
  test::expect_pass(r);
  const auto colors = reference::histogram::colors(n, 256, reference::histogram::Input::Sorted, test::kSeed);
  uint64_t want = 0;
  for (uint64_t w = 0; w < n / 32; ++w) {
    std::map<int, std::map<int, int>> lanes;  // sector (8 bins of 4 bytes) -> bin -> lanes
    for (uint64_t l = 0; l < 32; ++l) ++lanes[colors[w * 32 + l] / 8][colors[w * 32 + l]];
    for (const auto& [sector, bins] : lanes) {
      int most = 0;
      for (const auto& [bin, k] : bins) most = std::max(most, k);
      want += uint64_t(most);
    }
  }
  EXPECT_EQ(test::analyze_launch(r).totals.atomics_global.sector_passes, want);
}

TEST(HistogramRefusals, SayWhatIsAllowed) {
  EXPECT_NE(test::refusal("histogram", {"warp", 4096, {48, 1, 1}, "int", {}}).find("multiple of 32"), std::string::npos);
  EXPECT_NE(test::refusal("histogram", {"global", 4096, {64, 1, 1}, "int", {{"bins", 0}}}).find("out of range [1, 4096]"),
            std::string::npos);
  EXPECT_NE(test::refusal("histogram", {"global", 4096, {64, 2, 1}, "int", {}}).find("1D blocks"), std::string::npos);
}

// `input=sorted` on the command line or in a lesson: the choice's name stands for its index; a
// name that is not a choice is refused with the list.
TEST(HistogramRefusals, InputsAreNamedByTheirChoices) {
  RunConfig cfg;
  cfg.variant = "global";
  cfg.n = 1000;
  cfg.param_choices["input"] = "sorted";
  const RunResult r = Catalog::instance().run("histogram", cfg, BackendKind::Emu);
  ASSERT_TRUE(r.refused.empty()) << r.refused;
  EXPECT_TRUE(r.passed);
  ASSERT_FALSE(r.launches.empty());
  const auto& params = r.launches[0].launch.params;
  EXPECT_NE(std::find(params.begin(), params.end(), std::pair<std::string, std::string>{"input", "3"}), params.end());
  cfg.param_choices["input"] = "striped";
  const std::string why = Catalog::instance().run("histogram", cfg, BackendKind::Emu).refused;
  EXPECT_NE(why.find("parameter input = 'striped' is not one of its choices (uniform (0), one-colour (1), image (2), sorted (3))"),
            std::string::npos)
      << why;
  cfg.param_choices = {{"bins", "many"}};
  EXPECT_NE(Catalog::instance().run("histogram", cfg, BackendKind::Emu).refused.find("the value is a whole number from 1 to 4096"),
            std::string::npos);
}
