// matadd: any 2D block shape gives the reference; the analysis shows the warp footprints the
// lecture compares (dim3(16,16) vs dim3(128,2)) and the uncoalesced swapped mapping.
#include "catalog_cases.h"
#include "matrix/matadd_reference.h"

using namespace ws;
using ws::test::Case;

namespace {

std::vector<Case> cases() {
  std::vector<Case> v;
  const std::vector<std::pair<uint64_t, int64_t>> sizes = {{128, 0}, {37, 100}, {3, 5}};  // regular, irregular, < a block
  for (std::string var : {"row", "col"})
    for (const auto& [rows, cols] : sizes)
      for (Dim3 b : {Dim3{16, 16, 1}, Dim3{128, 2, 1}, Dim3{7, 5, 1}})
        for (std::string t : {"float", "int"}) v.push_back({var, rows, b, t, {{"cols", cols}}});
  return v;
}
class MataddVariants : public testing::TestWithParam<Case> {};

// C against matrix/matadd_reference.h's A + B of the regenerated inputs.
template <class T>
void expect_reference_sum(const RunResult& r, const Case& c) {
  const uint64_t rows = c.n, cols = c.params.at("cols") > 0 ? uint64_t(c.params.at("cols")) : c.n;
  const auto in = reference::matadd::inputs<T>(rows, cols, test::kSeed);
  test::expect_elements(r, "C", reference::matadd::sum(in.a, in.b));
}

}  // namespace

TEST_P(MataddVariants, MatchesReference) {
  const RunResult r = test::run_case("matadd", GetParam());
  test::expect_pass(r);
  if (GetParam().dtype == "int") expect_reference_sum<int>(r, GetParam());
  else expect_reference_sum<float>(r, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Emu, MataddVariants, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(MataddFootprint, BlockShapesAndMapping) {
  // 256 x 256 floats (rows 1024 bytes). Per warp load of A:
  //   (16,16): two half rows of 16 floats = two 64-byte pieces, 1024 bytes apart: 4 sectors, 2 lines
  //   (128,2): 32 consecutive floats of one row: 4 sectors, 1 line
  //   col mapping with (16,16): 16 rows x 2 columns... lanes x = 0..15 are rows: 16 sectors, 16 lines
  struct Row {
    std::string variant;
    Dim3 block;
    uint64_t sectors, lines;
  };
  for (const Row& row : {Row{"row", {16, 16, 1}, 4, 2}, Row{"row", {128, 2, 1}, 4, 1}, Row{"col", {16, 16, 1}, 16, 16}}) {
    const RunResult r = test::run_case("matadd", {row.variant, 256, row.block, "float", {}});
    test::expect_pass(r);
    const test::SiteSum a = test::site_sum(test::analyze_launch(r), "A", MemSpace::Global, AccessKind::Load);
    EXPECT_EQ(a.instructions, 8u);  // block 0: 256 threads = 8 warps
    EXPECT_EQ(a.sectors, row.sectors * a.instructions) << row.variant;
    EXPECT_EQ(a.lines, row.lines * a.instructions) << row.variant;
  }
}

TEST(MataddRefusals, ConstraintsAreNamed) {
  EXPECT_NE(test::refusal("matadd", {"row", 64, {8, 8, 2}, "float", {}}).find("block z must be 1"), std::string::npos);
  EXPECT_NE(test::refusal("matadd", {"row", 1u << 20, {1024, 1, 1}, "float", {{"cols", 4}}}).find("65535"), std::string::npos);
}
