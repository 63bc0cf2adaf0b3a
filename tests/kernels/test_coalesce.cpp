// coalesce: every demo gives the reference; the analysis's sectors and lines per warp equal the
// hand-derived values. Global allocations start 256-byte aligned (like cudaMalloc); a lane
// reading w bytes at byte b touches the 32-byte sectors floor(b/32) .. floor((b+w-1)/32) and the
// 128-byte lines likewise; a warp's request moves every distinct sector once.
#include "catalog_cases.h"
#include "memory/coalesce_reference.h"

using namespace ws;
using ws::test::Case;

namespace {

struct Expect {
  std::string variant, dtype;
  int64_t offset, stride;
  const char* array;
  uint64_t requests, sectors, lines;  // per warp, summed over the demo's loads
  const char* why;
};

// clang-format off
const std::vector<Expect> kTable = {
  {"offset", "float",  0, 1, "in", 1,  4, 1, "bytes 0..127: sectors 0-3, line 0"},
  {"offset", "float",  1, 1, "in", 1,  5, 2, "bytes 4..131: sectors 0-4, lines 0-1 (misaligned start)"},
  {"offset", "float",  8, 1, "in", 1,  4, 2, "bytes 32..159: sectors 1-4, still two lines"},
  {"offset", "float", 32, 1, "in", 1,  4, 1, "bytes 128..255: aligned again"},
  {"offset", "float2", 0, 1, "in", 1,  8, 2, "8-byte elements: bytes 0..255"},
  {"offset", "float2", 1, 1, "in", 1,  9, 3, "bytes 8..263: sectors 0-8, lines 0-2"},
  {"offset", "float4", 0, 1, "in", 1, 16, 4, "16-byte elements: bytes 0..511"},
  {"offset", "float4", 1, 1, "in", 1, 17, 5, "bytes 16..527: sectors 0-16, lines 0-4"},
  {"stride", "float",  0, 2, "in", 1,  8, 2, "bytes 8t: 0..251, half of each sector used"},
  {"stride", "float",  0, 4, "in", 1, 16, 4, "bytes 16t: 0..499"},
  {"stride", "float",  0, 8, "in", 1, 32, 8, "bytes 32t: one sector per lane"},
  {"stride", "float",  0, 32, "in", 1, 32, 32, "bytes 128t: one line per lane"},
  {"stride", "float4", 0, 2, "in", 1, 32, 8, "bytes 32t..32t+15: one sector per lane"},
  {"aos", "float", 0, 1, "points", 3, 36, 9, "3 loads at 12t + 4m: bytes 0..383, 12 sectors / 3 lines each"},
  {"aos-struct", "float", 0, 1, "points", 3, 36, 9, "Point p = points[i]: the same three member loads (ncu: 3 requests, 36 sectors)"},
  {"soa", "float", 0, 1, "xs", 1, 4, 1, "xs[t]: bytes 0..127"},
};
// clang-format on

struct TableCase {
  Expect e;
  uint32_t block;
};
class CoalesceTable : public testing::TestWithParam<TableCase> {};

}  // namespace

TEST_P(CoalesceTable, SectorsAndLinesAsDerived) {
  const Expect& e = GetParam().e;
  const uint32_t block = GetParam().block, warps = block / 32;
  const RunResult r = test::run_case("coalesce", {e.variant, block, {block, 1, 1}, e.dtype, {{"offset", e.offset}, {"stride", e.stride}}});
  test::expect_pass(r);
  // Warp w reads 32*w elements further: 128*w*size bytes, whole lines, so every warp looks alike.
  const test::SiteSum s = test::site_sum(test::analyze_launch(r), e.array, MemSpace::Global, AccessKind::Load);
  EXPECT_EQ(s.instructions, e.requests * warps) << e.why;
  EXPECT_EQ(s.sectors, e.sectors * warps) << e.why;
  EXPECT_EQ(s.lines, e.lines * warps) << e.why;
}

INSTANTIATE_TEST_SUITE_P(Hand, CoalesceTable, testing::ValuesIn([] {
                           std::vector<TableCase> v;
                           for (const Expect& e : kTable)
                             for (uint32_t b : {32u, 64u}) v.push_back({e, b});
                           return v;
                         }()),
                         [](const testing::TestParamInfo<TableCase>& i) {
                           const Expect& e = i.param.e;
                           return test::case_name({e.variant, 0, {i.param.block, 1, 1}, e.dtype, {{"o", e.offset}, {"s", e.stride}}});
                         });

namespace {
std::vector<Case> value_cases() {
  std::vector<Case> v;
  for (std::string var : {"offset", "stride", "aos", "aos-struct", "soa"})
    for (std::string t : {"float", "float2", "float4"}) {
      if ((var == "aos" || var == "aos-struct" || var == "soa") && t != "float") continue;
      for (uint64_t n : {1024u, 1000u, 20u})
        for (uint32_t b : {64u, 256u}) v.push_back({var, n, {b, 1, 1}, t, {{"offset", 3}, {"stride", 5}}});
    }
  return v;
}
class CoalesceValues : public testing::TestWithParam<Case> {};

struct Float2 {  // the layouts of dtype float2 and float4
  float x, y;
};
struct Float4 {
  float x, y, z, w;
};

// out[] against memory/coalesce_reference.h over the regenerated input.
template <class T>
void expect_reference_values(const RunResult& r, const Case& c) {
  namespace ref = reference::coalesce;
  if (c.variant == "offset") {
    const uint64_t offset = uint64_t(c.params.at("offset"));
    test::expect_elements(r, "out", ref::offset_gather(ref::elements<T>(c.n + offset, test::kSeed), c.n, offset));
  } else {
    const uint64_t stride = uint64_t(c.params.at("stride"));
    test::expect_elements(r, "out", ref::stride_gather(ref::elements<T>((c.n - 1) * stride + 1, test::kSeed), c.n, stride));
  }
}

}  // namespace

TEST_P(CoalesceValues, MatchesReference) {
  const Case& c = GetParam();
  const RunResult r = test::run_case("coalesce", c);
  test::expect_pass(r);
  if (c.variant == "aos" || c.variant == "aos-struct" || c.variant == "soa")
    test::expect_elements(r, "out", reference::coalesce::point_sums(reference::coalesce::points(c.n, test::kSeed), c.n));
  else if (c.dtype == "float2")
    expect_reference_values<Float2>(r, c);
  else if (c.dtype == "float4")
    expect_reference_values<Float4>(r, c);
  else
    expect_reference_values<float>(r, c);
}

INSTANTIATE_TEST_SUITE_P(Emu, CoalesceValues, testing::ValuesIn(value_cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(CoalesceRefusals, ConstraintsAreNamed) {
  EXPECT_NE(test::refusal("coalesce", {"aos", 100, {64, 1, 1}, "float4", {}}).find("element type is fixed"), std::string::npos);
  EXPECT_NE(test::refusal("coalesce", {"stride", 100, {64, 1, 1}, "float", {{"stride", 0}}}).find("out of range"), std::string::npos);
  // 2^32 elements do not fit the kernels' 32-bit indices on any backend; 2^27 are too many for
  // the emulator only (the GPU times such sizes).
  EXPECT_NE(test::refusal("coalesce", {"stride", 1u << 21, {64, 1, 1}, "float", {{"stride", 4096}}}).find("32-bit"),
            std::string::npos);
  const std::string emu = test::refusal("coalesce", {"stride", 1u << 20, {64, 1, 1}, "float", {{"stride", 128}}});
  EXPECT_NE(emu.find("too many for the emulator (<= 67108864)"), std::string::npos) << emu;
  EXPECT_NE(emu.find("the GPU backends run it"), std::string::npos) << emu;
}
