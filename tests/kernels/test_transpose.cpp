// transpose: every variant transposes square, non-square and smaller-than-a-tile matrices; the
// unpadded 32x32 tile's column read is 32-way conflicted, the padded one conflict-free.
#include "catalog_cases.h"
#include "matrix/transpose_reference.h"

using namespace ws;
using ws::test::Case;

namespace {

std::vector<Case> cases() {
  std::vector<Case> v;
  const std::map<std::string, std::vector<Dim3>> blocks = {
      {"naive", {{32, 8, 1}, {16, 16, 1}}},
      {"tile", {{16, 16, 1}, {32, 32, 1}}},
      {"padded", {{16, 16, 1}, {32, 32, 1}}},
      {"rows", {{32, 8, 1}, {16, 4, 1}}},
      {"wide", {{32, 16, 1}, {16, 8, 1}, {8, 4, 1}}},
  };
  // (rows, cols): square multiple of the tile, non-square irregular, smaller than one tile
  const std::vector<std::pair<uint64_t, int64_t>> sizes = {{64, 0}, {70, 45}, {5, 3}};
  for (const auto& [var, bs] : blocks)
    for (const auto& [rows, cols] : sizes)
      for (const Dim3& b : bs)
        for (std::string t : {"float", "double"}) v.push_back({var, rows, b, t, {{"cols", cols}}});
  return v;
}
class TransposeVariants : public testing::TestWithParam<Case> {};

// out against matrix/transpose_reference.h's transpose of the regenerated input.
template <class T>
void expect_reference_transpose(const RunResult& r, const Case& c) {
  const uint64_t rows = c.n, cols = c.params.at("cols") > 0 ? uint64_t(c.params.at("cols")) : c.n;
  test::expect_elements(r, "out", reference::transpose::transposed(reference::transpose::input<T>(rows, cols, test::kSeed), rows, cols));
}

}  // namespace

TEST_P(TransposeVariants, MatchesReference) {
  const RunResult r = test::run_case("transpose", GetParam());
  test::expect_pass(r);
  if (GetParam().dtype == "double") expect_reference_transpose<double>(r, GetParam());
  else expect_reference_transpose<float>(r, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Emu, TransposeVariants, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

// The tile's column read out[..] = tile[threadIdx.x][threadIdx.y + j]: lane x reads word
// x*(TILE+PAD) + y + j.
TEST(TransposeBanks, UnpaddedColumnReadIs32WayPaddedIsConflictFree) {
  struct Row {
    std::string variant, dtype;
    Dim3 block;
    uint64_t wavefronts_per_instr, conflicts_per_instr;
    const char* why;
    uint64_t store_conflicts_per_instr = 0;  // the row-wise tile store
  };
  const std::vector<Row> rows = {
      {"tile", "float", {32, 32, 1}, 32, 31, "words 32x + c: all 32 lanes in bank c"},
      {"padded", "float", {32, 32, 1}, 1, 0, "words 33x + c: bank (x + c) % 32, all distinct"},
      {"rows", "float", {32, 8, 1}, 1, 0, "the padded tile read by 32x8 threads: the same words, 4 times"},
      {"tile", "float", {16, 16, 1}, 8, 7, "a warp = 2 tile rows of 16 lanes; words 16x + c: banks c and c+16, 8 words each"},
      // TILE 16: a warp holds tile rows c and c+1. Padding to 17 is NOT enough: lanes (x=0, row c)
      // and (x=15, row c+1) read words c and 17*15 + c + 1 = 256 + c: one bank, 2-way. The row-wise
      // store has the same pair: words 17c + 0 and 17(c+1) + 15 = 17c + 32.
      {"padded", "float", {16, 16, 1}, 2, 1, "words 17x + c and 17x + c + 1: (0,c) and (15,c+1) share a bank", 1},
      {"tile", "double", {32, 32, 1}, 32, 30, "2 phases; words 64x + 2c (+1): banks 2c, 2c+1, 16 words each per phase"},
      {"padded", "double", {32, 32, 1}, 2, 0, "words 66x + 2c: banks 2x + 2c (+1), distinct in each half-warp"},
  };
  for (const Row& row : rows) {
    const RunResult r = test::run_case("transpose", {row.variant, 64, row.block, row.dtype, {}});
    test::expect_pass(r);
    const analysis::Report rep = test::analyze_launch(r);
    const test::SiteSum ld = test::site_sum(rep, "tile", MemSpace::Shared, AccessKind::Load);
    const test::SiteSum st = test::site_sum(rep, "tile", MemSpace::Shared, AccessKind::Store);
    const uint64_t warp_instr = (row.block.x * row.block.y / 32) * (row.block.x / row.block.y);
    EXPECT_EQ(ld.instructions, warp_instr) << row.variant << " " << row.why;
    EXPECT_EQ(ld.wavefronts, row.wavefronts_per_instr * ld.instructions) << row.variant << " " << row.why;
    EXPECT_EQ(ld.conflicts, row.conflicts_per_instr * ld.instructions) << row.variant << " " << row.why;
    if (row.variant == "tile" && row.block.x == 32 && row.dtype == "float") {
      EXPECT_EQ(ld.max_ways, 32u);
    }
    // stores: words y*(TILE+PAD) + x, row by row
    EXPECT_EQ(st.conflicts, row.store_conflicts_per_instr * st.instructions) << row.variant << " store";
  }
}

TEST(TransposeCoalescing, NaiveWritesOneLinePerLane) {
  // 64x64 floats, block (32,8): a warp reads 32 floats of a row (4 sectors) and writes 32 floats of
  // a column, 256 bytes apart: 32 sectors, 32 lines. The tiled version writes rows: 4 sectors.
  const analysis::Report naive = test::analyze_launch(test::run_case("transpose", {"naive", 64, {32, 8, 1}, "float", {}}));
  const test::SiteSum nl = test::site_sum(naive, "in", MemSpace::Global, AccessKind::Load);
  const test::SiteSum ns = test::site_sum(naive, "out", MemSpace::Global, AccessKind::Store);
  EXPECT_EQ(nl.sectors, 4 * nl.instructions);
  EXPECT_EQ(ns.sectors, 32 * ns.instructions);
  EXPECT_EQ(ns.lines, 32 * ns.instructions);
  const analysis::Report tiled = test::analyze_launch(test::run_case("transpose", {"padded", 64, {32, 32, 1}, "float", {}}));
  const test::SiteSum ts = test::site_sum(tiled, "out", MemSpace::Global, AccessKind::Store);
  EXPECT_EQ(ts.sectors, 4 * ts.instructions);
}

TEST(TransposeShape, OneDimensionalBlockMeansTheVariantsShape) {
  const RunResult r = test::run_case("transpose", {"rows", 40, {32, 1, 1}, "float", {{"cols", 50}}});
  test::expect_pass(r);
  EXPECT_EQ(r.launches.at(0).launch.block, (Dim3{32, 8, 1}));
  const RunResult t = test::run_case("transpose", {"tile", 40, {16, 1, 1}, "float", {}});
  test::expect_pass(t);
  EXPECT_EQ(t.launches.at(0).launch.block, (Dim3{16, 16, 1}));
}

TEST(TransposeRefusals, ConstraintsAreNamed) {
  EXPECT_NE(test::refusal("transpose", {"tile", 64, {24, 24, 1}, "float", {}}).find("8, 16 or 32"), std::string::npos);
  EXPECT_NE(test::refusal("transpose", {"rows", 64, {32, 16, 1}, "float", {}}).find("TILE x TILE/4"), std::string::npos);
  EXPECT_NE(test::refusal("transpose", {"wide", 64, {32, 8, 1}, "float", {}}).find("x by x/2 threads"), std::string::npos);
  EXPECT_NE(test::refusal("transpose", {"padded", 64, {32, 8, 1}, "float", {}}).find("one thread per tile element"),
            std::string::npos);
}

// The matrices are traced as matrices: in is rows x cols, out is cols x rows (the memory heatmap
// draws each in its shape, not as one long strip).
TEST(TransposeShapes, InAndOutAreTracedWithTheirRowLengths) {
  const RunResult r = test::run_case("transpose", {"naive", 70, {32, 8, 1}, "float", {{"cols", 45}}});
  test::expect_pass(r);
  ASSERT_FALSE(r.launches.empty());
  std::map<std::string, uint32_t> row_length;
  for (const Allocation& a : r.launches[0].allocations) row_length[a.name] = a.row_length;
  EXPECT_EQ(row_length.at("in"), 45u);
  EXPECT_EQ(row_length.at("out"), 70u);
}

// wide: a 64x64 tile by 32x16 threads. Each thread copies 2 columns x 4 rows: 8 loads and 8
// stores per thread, so a 64x64 matrix is one block of 16 warps, 128 warp instructions each way.
// Lane x of the column read takes word 65(x + c) + k: bank (x + c + k) % 32, all different; the
// global stores are rows of 32 floats: 4 sectors each.
TEST(TransposeWide, OneBlockMovesA64TileConflictFreeAndCoalesced) {
  const RunResult r = test::run_case("transpose", {"wide", 64, {32, 16, 1}, "float", {}});
  test::expect_pass(r);
  EXPECT_EQ(r.launches.at(0).launch.grid, (Dim3{1, 1, 1}));
  const analysis::Report rep = test::analyze_launch(r);
  const test::SiteSum ld = test::site_sum(rep, "tile", MemSpace::Shared, AccessKind::Load);
  const test::SiteSum st = test::site_sum(rep, "tile", MemSpace::Shared, AccessKind::Store);
  EXPECT_EQ(ld.instructions, 8u * 16u);
  EXPECT_EQ(st.instructions, 8u * 16u);
  EXPECT_EQ(ld.conflicts, 0u);
  EXPECT_EQ(st.conflicts, 0u);
  const test::SiteSum out = test::site_sum(rep, "out", MemSpace::Global, AccessKind::Store);
  EXPECT_EQ(out.instructions, 8u * 16u);
  EXPECT_EQ(out.sectors, 4 * out.instructions);
  // A 1D --block 32 stands for 32x16 here; a 200x130 matrix needs ceil(130/64) x ceil(200/64) blocks.
  const RunResult big = test::run_case("transpose", {"wide", 200, {32, 1, 1}, "float", {{"cols", 130}}});
  test::expect_pass(big);
  EXPECT_EQ(big.launches.at(0).launch.block, (Dim3{32, 16, 1}));
  EXPECT_EQ(big.launches.at(0).launch.grid, (Dim3{3, 4, 1}));
}
