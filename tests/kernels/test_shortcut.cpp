// shortcut: V0, V1 and V2 (with the padding kernel) give the exact min-plus product for sizes that
// are, are not, and are smaller than, multiples of the block; the warp access patterns are the
// course's.
#include "catalog_cases.h"
#include "matrix/shortcut_reference.h"

using namespace ws;
using ws::test::Case;

namespace {

std::vector<Case> cases() {
  std::vector<Case> v;
  for (uint64_t n : {64u, 70u, 5u})
    for (std::string var : {"0", "1"})
      for (Dim3 b : {Dim3{16, 16, 1}, Dim3{32, 4, 1}}) v.push_back({var, n, b, "float", {}});
  for (uint64_t n : {64u, 70u, 5u, 130u}) v.push_back({"2", n, {8, 8, 1}, "float", {}});  // V2 is built for 8x8 threads
  v.push_back({"2", 20, {8, 1, 1}, "float", {}});  // a 1D --block stands for the fixed 8x8
  return v;
}
class ShortcutVariants : public testing::TestWithParam<Case> {};

}  // namespace

TEST_P(ShortcutVariants, MatchesReference) {
  const RunResult r = test::run_case("shortcut", GetParam());
  test::expect_pass(r);
  // r against matrix/shortcut_reference.h's min-plus product of the regenerated input.
  const uint64_t n = GetParam().n;
  test::expect_elements(r, "r", reference::shortcut::min_plus(reference::shortcut::input(n, test::kSeed), n));
  EXPECT_EQ(r.launches.size(), GetParam().variant == "0" ? 1u : 2u);  // V1, V2: preprocessing kernel first
}

INSTANTIATE_TEST_SUITE_P(Emu, ShortcutVariants, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(ShortcutPatterns, CoalescingAndRegisterBlocking) {
  // n = 64, block (16,16): a warp is threads x = 0..15 of rows y, y+1.
  // V0 x = d[n*i + k]: 16 rows (i), 256 bytes apart: 16 sectors; y = d[n*k + j]: 2 words: 1 sector.
  const analysis::Report v0 = test::analyze_launch(test::run_case("shortcut", {"0", 64, {16, 16, 1}, "float", {}}));
  const test::SiteSum d0 = test::site_sum(v0, "d", MemSpace::Global, AccessKind::Load);
  EXPECT_EQ(d0.instructions, 8u * 2 * 64);  // 8 warps x 2 loads x 64 k
  EXPECT_EQ(d0.sectors, 8u * 64 * (16 + 1));
  // V1 x = t[n*k + i]: 16 neighbouring words, 64 bytes: 2 sectors (the row of t starts 256-byte
  // aligned); y as before: 1 sector.
  const RunResult r1 = test::run_case("shortcut", {"1", 64, {16, 16, 1}, "float", {}});
  const test::SiteSum d1 = test::site_sum(test::analyze_launch(r1, 1), "d", MemSpace::Global, AccessKind::Load);
  EXPECT_EQ(d1.instructions, 8u * 2 * 64);
  EXPECT_EQ(d1.sectors, 8u * 64 * (2 + 1));
  // V2 (8x8 threads; a warp is ia = 0..7 of rows ja = 0..3): x[ib] = t[nn*k + 64ic + 8ib + ia] is 8
  // words (4 lanes each), y[jb] = d[nn*k + 64jc + 8jb + ja] is 4 words (8 lanes each): every load
  // is one 32-byte sector: "the blue dots always span continuous regions".
  const RunResult r2 = test::run_case("shortcut", {"2", 64, {8, 8, 1}, "float", {}});
  const test::SiteSum d2 = test::site_sum(test::analyze_launch(r2, 1), "d", MemSpace::Global, AccessKind::Load);
  EXPECT_EQ(d2.instructions, 2u * 64 * 16);  // 2 warps x 64 k x (8 + 8) loads
  EXPECT_EQ(d2.sectors, d2.instructions);
}

TEST(ShortcutRefusals, ConstraintsAreNamed) {
  EXPECT_NE(test::refusal("shortcut", {"2", 64, {16, 16, 1}, "float", {}}).find("block must be (8,8)"), std::string::npos);
  EXPECT_NE(test::refusal("shortcut", {"0", 2000, {16, 16, 1}, "float", {}}).find("n <= 1024"), std::string::npos);
  EXPECT_NE(test::refusal("shortcut", {"0", 64, {16, 16, 1}, "int", {}}).find("does not take dtype"), std::string::npos);
}
