// matmul: every variant multiplies regular, irregular and sub-tile sizes; the analysis shows the
// lecture's broadcast of M and conflict-free N, the column-read conflicts of the transposed N tile
// and the padding remedy.
#include "catalog_cases.h"
#include "matrix/matmul_reference.h"
#include "matrix/matrix_check.h"

#include <algorithm>

using namespace ws;
using ws::test::Case;

namespace {

std::vector<Case> cases() {
  std::vector<Case> v;
  struct Size {
    uint64_t n;
    int64_t k, m;
  };
  const std::vector<Size> sizes = {{48, 0, 0}, {37, 29, 41}, {5, 3, 7}};  // regular, irregular, smaller than a tile
  for (std::string var : {"naive", "tiled", "tiled-transposed", "padded"})
    for (const Size& s : sizes)
      for (Dim3 b : var == "naive" ? std::vector<Dim3>{{16, 16, 1}, {32, 8, 1}} : std::vector<Dim3>{{16, 16, 1}, {32, 32, 1}})
        for (std::string t : {"float", "int"}) v.push_back({var, s.n, b, t, {{"k", s.k}, {"m", s.m}}});
  v.push_back({"tiled", 20, {8, 1, 1}, "float", {}});  // --block 8 means 8 x 8
  // The ladder: whole tiles only (128 x 128, 64 x 64 for blocktile-1d), square and not, with k
  // more than one step of the tile loop; the float4 rungs are float only.
  for (std::string var : {"blocktile-1d", "blocktile-2d", "vectorized", "double-buffer", "warp-tiled", "two-blocks"}) {
    const bool float_only = var == "vectorized" || var == "double-buffer" || var == "warp-tiled" || var == "two-blocks";
    for (std::string t : {"float", "int"}) {
      if (float_only && t == "int") continue;
      v.push_back({var, 128, {16, 16, 1}, t, {}});
      v.push_back({var, 256, {16, 16, 1}, t, {{"k", 48}, {"m", 128}}});
    }
  }
  return v;
}
class MatmulVariants : public testing::TestWithParam<Case> {};

// Every element of P against matrix/matmul_reference.h's product of the regenerated inputs:
// integers exactly, floats within the any-order bound over the k products.
template <class T>
void expect_reference_product(const RunResult& r, const Case& c) {
  auto dim = [&](const char* p) {
    const auto it = c.params.find(p);
    return it != c.params.end() && it->second > 0 ? uint64_t(it->second) : c.n;
  };
  const uint64_t n = c.n, k = dim("k"), m = dim("m");
  const auto in = reference::matmul::inputs<T>(n, k, m, test::kSeed);
  const reference::matmul::Product want = reference::matmul::product(in.m, in.n, n, k, m);
  const std::vector<T> got = r.value<T>("P");
  ASSERT_EQ(got.size(), n * m);
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    bad += std::fabs(double(got[i]) - want.value[i]) > (std::is_integral_v<T> ? 0.0 : sum_error_bound(k, want.abs[i], SumOrder::Arbitrary));
  EXPECT_EQ(bad, 0u) << "elements of P off the reference";
}

}  // namespace

TEST_P(MatmulVariants, MatchesReference) {
  const RunResult r = test::run_case("matmul", GetParam());
  test::expect_pass(r);
  if (GetParam().dtype == "int") expect_reference_product<int>(r, GetParam());
  else expect_reference_product<float>(r, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Emu, MatmulVariants, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(MatmulBanks, BroadcastOfMConflictsOfTheTransposedTileAndThePadding) {
  // Per warp instruction of the inner loop (BLOCK_SIZE 32: a warp is one tile row ty, lanes tx):
  //   Msub[ty][kk]          all lanes one word: broadcast, 1 wavefront
  //   Nsub[kk][tx]          words 32kk + tx: 1 wavefront
  //   NsubT[tx][kk]         words 32tx + kk: all in bank kk: 32 wavefronts (31 conflicts)
  //   NsubT padded [tx][kk] words 33tx + kk: banks (tx + kk) % 32: 1 wavefront
  // BLOCK_SIZE 16 (a warp = two tile rows of 16 lanes):
  //   NsubT[tx][kk]         words 16tx + kk (both rows the same words): banks kk and kk+16, 8 words each: 8 wavefronts
  struct Row {
    std::string variant;
    uint32_t bs;
    const char* array;
    uint64_t wavefronts_per_instr;
  };
  const std::vector<Row> rows = {
      {"tiled", 32, "Msub", 1},           {"tiled", 32, "Nsub", 1},  {"tiled-transposed", 32, "Msub", 1},
      {"tiled-transposed", 32, "NsubT", 32}, {"padded", 32, "NsubT", 1}, {"tiled-transposed", 16, "NsubT", 8},
      {"padded", 16, "NsubT", 1},         {"tiled", 16, "Msub", 1},  {"tiled", 16, "Nsub", 1},
  };
  for (const Row& row : rows) {
    const RunResult r = test::run_case("matmul", {row.variant, 64, {row.bs, row.bs, 1}, "float", {}});
    test::expect_pass(r);
    const test::SiteSum ld = test::site_sum(test::analyze_launch(r), row.array, MemSpace::Shared, AccessKind::Load);
    // block 0: (bs*bs/32) warps x (64/bs tiles) x bs inner steps
    EXPECT_EQ(ld.instructions, (row.bs * row.bs / 32) * (64 / row.bs) * row.bs) << row.variant << " " << row.array;
    EXPECT_EQ(ld.wavefronts, row.wavefronts_per_instr * ld.instructions) << row.variant << " " << row.array << " bs " << row.bs;
    EXPECT_EQ(ld.conflicts, (row.wavefronts_per_instr - 1) * ld.instructions) << row.variant << " " << row.array;
  }
}

TEST(MatmulRefusals, ConstraintsAreNamed) {
  EXPECT_NE(test::refusal("matmul", {"tiled", 64, {16, 8, 1}, "float", {}}).find("square BLOCK_SIZE"), std::string::npos);
  EXPECT_NE(test::refusal("matmul", {"tiled", 64, {12, 12, 1}, "float", {}}).find("8, 16 or 32"), std::string::npos);
  EXPECT_NE(test::refusal("matmul", {"naive", 64, {64, 1, 1}, "float", {}}).find("over 1024 threads"), std::string::npos);
  EXPECT_NE(test::refusal("matmul", {"naive", 1024, {16, 16, 1}, "float", {}}).find("too many"), std::string::npos);
  EXPECT_NE(test::refusal("matmul", {"warp-tiled", 128, {16, 16, 1}, "float", {{"k", 40}}}).find("k of 16"), std::string::npos);
  EXPECT_NE(test::refusal("matmul", {"warp-tiled", 128, {16, 16, 1}, "int", {}}).find("float only"), std::string::npos);
  EXPECT_NE(test::refusal("matmul", {"blocktile-2d", 96, {16, 16, 1}, "float", {}}).find("multiples of 128"), std::string::npos);
}

// Past the emulator's sizes the check samples P: the sampled product is the whole product at the
// sampled positions, every edge element is among them, and a wrong sampled element fails the run.
TEST(MatmulSampledCheck, SamplesAreTheWholeProductAtThosePlacesAndCatchAWrongOne) {
  const uint64_t n = 40, k = 13, m = 33;
  const auto in = reference::matmul::inputs<float>(n, k, m, 5);
  const std::vector<uint64_t> at = matrix::sample_positions(n, m, 200);
  ASSERT_TRUE(std::is_sorted(at.begin(), at.end()));
  ASSERT_EQ(std::adjacent_find(at.begin(), at.end()), at.end());
  for (uint64_t c = 0; c < m; ++c) EXPECT_TRUE(std::binary_search(at.begin(), at.end(), (n - 1) * m + c));  // last row
  for (uint64_t r = 0; r < n; ++r) EXPECT_TRUE(std::binary_search(at.begin(), at.end(), r * m + m - 1));    // last column
  const auto whole = reference::matmul::product(in.m, in.n, n, k, m);
  const auto sampled = reference::matmul::product(in.m, in.n, n, k, m, at);
  ASSERT_EQ(sampled.value.size(), at.size());
  for (size_t j = 0; j < at.size(); ++j) EXPECT_EQ(sampled.value[j], whole.value[at[j]]);
  // The product as a kernel would leave it (float sums of the same products).
  std::vector<float> got(n * m);
  for (uint64_t i = 0; i < n * m; ++i) got[i] = float(whole.value[i]);
  RunResult ok;
  matrix::check_products(ok, "P", got, sampled.value, sampled.abs, m, k, at);
  EXPECT_TRUE(ok.passed) << ok.result;
  EXPECT_NE(ok.check.find(std::to_string(at.size()) + " of " + std::to_string(n * m)), std::string::npos) << ok.check;
  got[at[at.size() / 2]] += 1.0f;
  RunResult bad;
  matrix::check_products(bad, "P", got, sampled.value, sampled.abs, m, k, at);
  EXPECT_FALSE(bad.passed);
  const uint64_t wrong = at[at.size() / 2];
  EXPECT_NE(bad.result.find("P[" + std::to_string(wrong / m) + "][" + std::to_string(wrong % m) + "]"), std::string::npos)
      << bad.result;
}
