// Every reduction variant gives the reference sum on the emulator, for awkward n and block sizes:
// the sum the run kept is compared with the sum of the input regenerated here
// (reduction/reduce_reference.h), not only with the entry's own verdict.
#include "catalog_cases.h"

#include <cstdlib>
#include "reduction/reduce_reference.h"
#include "ws/run/catalog.h"

using namespace ws;

namespace {

struct Case {
  std::string variant;
  uint64_t n;
  uint32_t block;
  std::string dtype;
};

std::string name(const testing::TestParamInfo<Case>& info) {
  std::string v = info.param.variant;
  return "v" + v + "_n" + std::to_string(info.param.n) + "_b" + std::to_string(info.param.block) + "_" + info.param.dtype;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (std::string v : {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "5u"})
    for (uint64_t n : {uint64_t(1) << 12, uint64_t(5000), uint64_t(37)})
      for (uint32_t b : {64u, 256u})
        for (std::string t : {"int", "float"}) cases.push_back({v, n, b, t});
  return cases;
}

class ReduceAllVariants : public testing::TestWithParam<Case> {};

// The kernel's sum against the exact sum of the same input: integers exactly, floats within the
// tree-order bound.
template <class T>
void expect_reference_sum(const RunResult& r, uint64_t n, uint64_t seed) {
  const std::vector<T> x = reference::reduce::input<T>(n, seed);
  test::expect_scalar<T>(r, "sum", reference::sum(x), sum_error_bound(n, reference::abs_sum(x), SumOrder::Tree));
}

}  // namespace

TEST_P(ReduceAllVariants, MatchesReference) {
  const Case& c = GetParam();
  RunConfig cfg;
  cfg.variant = c.variant;
  cfg.n = c.n;
  cfg.block = {c.block, 1, 1};
  cfg.dtype = c.dtype;
  cfg.seed = 7;
  cfg.emu.workers = 2;
  cfg.record.blocks = {0};
  RunResult r = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  ASSERT_TRUE(r.refused.empty()) << r.refused;
  ASSERT_TRUE(r.completed) << (r.errors.empty() ? "" : r.errors[0].message);
  EXPECT_TRUE(r.passed) << r.result << " vs " << r.expected << " (" << r.check << ")";
  EXPECT_FALSE(r.launches.empty());
  if (c.dtype == "float") expect_reference_sum<float>(r, c.n, cfg.seed);
  else expect_reference_sum<int>(r, c.n, cfg.seed);
}

INSTANTIATE_TEST_SUITE_P(Emu, ReduceAllVariants, testing::ValuesIn(all_cases()), name);

TEST(ReduceRefusals, ConstraintsAreNamed) {
  RunConfig cfg;
  cfg.variant = "3";
  cfg.block = {96, 1, 1};
  RunResult r = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  EXPECT_NE(r.refused.find("must be a power of two"), std::string::npos) << r.refused;
  cfg.variant = "5";
  cfg.block = {32, 1, 1};
  EXPECT_NE(Catalog::instance().run("reduce", cfg, BackendKind::Emu).refused.find("at least 64 threads"), std::string::npos);
  cfg.variant = "8";
  cfg.block = {100, 1, 1};
  EXPECT_NE(Catalog::instance().run("reduce", cfg, BackendKind::Emu).refused.find("multiple of 32"), std::string::npos);
  cfg.block = {2048, 1, 1};
  EXPECT_NE(Catalog::instance().run("reduce", cfg, BackendKind::Emu).refused.find("limit of 1024 threads"), std::string::npos);
  cfg.block = {256, 1, 1};
  cfg.variant = "42";
  EXPECT_NE(Catalog::instance().run("reduce", cfg, BackendKind::Emu).refused.find("no variant '42'"), std::string::npos);
  cfg.variant = "3";
  cfg.params["stride"] = 3;
  EXPECT_NE(Catalog::instance().run("reduce", cfg, BackendKind::Emu).refused.find("no parameter 'stride'"), std::string::npos);
  EXPECT_NE(Catalog::instance().run("nope", cfg, BackendKind::Emu).refused.find("no kernel named 'nope'"), std::string::npos);
}

// The grid-size rule of the grid-stride variants: elements per thread set the number of blocks.
TEST(ReduceGridRule, ElementsPerThreadSetTheGrid) {
  for (std::string v : {"7", "8", "9", "10", "11"}) {
    RunConfig cfg;
    cfg.variant = v;
    cfg.n = 100000;
    cfg.block = {128, 1, 1};
    cfg.params["per_thread"] = 16;
    cfg.record.blocks = {0};
    RunResult r = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
    ASSERT_TRUE(r.refused.empty()) << r.refused;
    EXPECT_TRUE(r.passed) << v << ": " << r.result << " vs " << r.expected;
    expect_reference_sum<int>(r, cfg.n, cfg.seed);
    // ceil(100000 / (128 * 16)) = 49 blocks in the first launch.
    EXPECT_EQ(r.launches.at(0).launch.grid.x, 49u) << v;
  }
}

// --grid: a grid-stride variant's first launch has exactly that grid (its loop covers any n) and
// the passes after it follow the rule down to one block; a variant whose grid follows n refuses it.
TEST(ReduceGridRule, GridSetsTheGridStrideVariantsFirstLaunchOthersRefuseIt) {
  for (std::string v : {"7", "8", "9", "10", "11"}) {
    RunConfig cfg;
    cfg.variant = v;
    cfg.n = 100000;
    cfg.block = {128, 1, 1};
    cfg.grid = {7, 1, 1};
    cfg.record.blocks = {0};
    RunResult r = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
    ASSERT_TRUE(r.refused.empty()) << r.refused;
    EXPECT_TRUE(r.passed) << v << ": " << r.result << " vs " << r.expected;
    expect_reference_sum<int>(r, cfg.n, cfg.seed);
    EXPECT_EQ(r.launches.at(0).launch.grid.x, 7u) << v;
    if (v != "10" && v != "11") { EXPECT_EQ(r.launches.back().launch.grid.x, 1u) << v; }
  }
  RunConfig cfg;
  cfg.variant = "3";
  cfg.grid = {7, 1, 1};
  const std::string why = Catalog::instance().run("reduce", cfg, BackendKind::Emu).refused;
  EXPECT_NE(why.find("reduce 3 sizes its grid from n and the block"), std::string::npos) << why;
  EXPECT_NE(why.find("(7, 8, 9, 10, 11)"), std::string::npos) << why;
}

// A whole parameter refuses a real number with its name, whatever the command line let through.
TEST(ReduceRefusals, AWholeParameterRefusesARealNumber) {
  RunConfig cfg;
  cfg.variant = "11";
  cfg.params["per_thread"] = 2.5;
  EXPECT_NE(Catalog::instance().run("reduce", cfg, BackendKind::Emu).refused.find("per_thread = 2.5: per_thread takes whole numbers"),
            std::string::npos);
}

// A run whose arrays would not fit is refused before anything is allocated, with the estimate
// and the limit; the limit is the run's, else $WARPSCOPE_MEMORY_LIMIT, else half the machine's.
TEST(ReduceRefusals, ARunOverTheMemoryLimitIsRefusedFirst) {
  RunConfig cfg;
  cfg.variant = "3";
  cfg.n = 1 << 20;                  // 4 arrays of 2^20 ints: 16 MB
  cfg.memory_limit = 8ull << 20;    // 8 MB
  const RunResult r = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  EXPECT_NE(r.refused.find("needs about 16.0 MB"), std::string::npos) << r.refused;
  EXPECT_NE(r.refused.find("over the 8.0 MB a run may take"), std::string::npos) << r.refused;
  EXPECT_TRUE(r.launches.empty());
  cfg.memory_limit = 32ull << 20;
  EXPECT_TRUE(Catalog::instance().run("reduce", cfg, BackendKind::Emu).passed);
  ::setenv("WARPSCOPE_MEMORY_LIMIT", "3M", 1);
  std::string source;
  EXPECT_EQ(default_memory_limit(&source), 3ull << 20);
  EXPECT_EQ(source, "WARPSCOPE_MEMORY_LIMIT=3M");
  cfg.memory_limit = 0;
  EXPECT_NE(Catalog::instance().run("reduce", cfg, BackendKind::Emu).refused.find("WARPSCOPE_MEMORY_LIMIT=3M"),
            std::string::npos);
  ::unsetenv("WARPSCOPE_MEMORY_LIMIT");
  EXPECT_GT(default_memory_limit(&source), 0u);
  EXPECT_NE(source.find("half of this machine's"), std::string::npos);
}

// Step 11 leaves its accumulator and ticket at 0 (a replay needs no fill): two launches in a row
// of the same run state would otherwise add up. Its sum over sizes that cut the last chunk of four
// vectors short (and leave a scalar tail) is exact for ints.
TEST(ReduceAtomicFinish, EveryTailIsCountedOnce) {
  for (uint64_t n : {uint64_t(1), uint64_t(3), uint64_t(4), uint64_t(1023), uint64_t(4 * 128 * 4 + 5), uint64_t(100003)})
    for (uint32_t grid : {1u, 3u, 64u}) {
      RunConfig cfg;
      cfg.variant = "11";
      cfg.n = n;
      cfg.block = {128, 1, 1};
      cfg.grid = {grid, 1, 1};
      cfg.record.blocks = {0};
      RunResult r = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
      ASSERT_TRUE(r.refused.empty()) << r.refused;
      EXPECT_TRUE(r.passed) << "n " << n << " grid " << grid << ": " << r.result << " vs " << r.expected;
      expect_reference_sum<int>(r, n, cfg.seed);
      ASSERT_EQ(r.launches.size(), 1u) << "one launch";
    }
}
