// bank: every demo gives the reference values, and the analysis's wavefronts and conflicts for
// THE access of each demo equal the numbers derived by hand below (per warp; a 64-thread block is
// two warps doing the same thing, so twice the numbers).
//
// The rules (seed 001, analysis/README.md): 32 banks of 4 bytes, bank = (byte address / 4) % 32.
// A lane reading w bytes at byte b touches the words floor(b/4) .. floor((b+w-1)/4). 4-byte and
// smaller accesses are served for the whole warp at once; 8-byte ones per half-warp (2 phases of
// 16 lanes), 16-byte ones per quarter-warp (4 phases of 8 lanes). Lanes on the same word share it
// (multicast). Wavefronts of a phase = most distinct words any one bank must deliver; ideal = one
// per phase; conflicts = wavefronts - ideal. All demos use base 0 unless a row says otherwise,
// and every array starts at bank 0.
#include "catalog_cases.h"
#include "memory/bank_reference.h"

using namespace ws;
using ws::test::Case;

namespace {

struct Expect {
  std::string variant, dtype;
  int64_t stride;
  uint64_t instructions, wavefronts, conflicts;  // per warp, summed over the demo's accesses
  const char* why;                               // the derivation
};

// clang-format off
const std::vector<Expect> kTable = {
  // shared[s*t], float: lane t on word s*t, bank (s*t) % 32. Lanes t, t' collide iff
  // s*(t - t') = 0 mod 32, i.e. gcd(s, 32) lanes share each used bank, on distinct words:
  // wavefronts = gcd(s, 32), conflicts = gcd(s, 32) - 1. (ncu on an H200: 1/0, 2/1, 8/7, 32/31, 1/0.)
  {"stride", "float", 0,  1,  1,  0, "s = 0: every lane on word 0: one multicast"},
  {"stride", "float", 1,  1,  1,  0, "words 0..31 in banks 0..31"},
  {"stride", "float", 2,  1,  2,  1, "words 0,2,..,62: banks 0,2,..,30 twice each (t and t+16)"},
  {"stride", "float", 3,  1,  1,  0, "gcd(3,32) = 1: 3t % 32 hits every bank once"},
  {"stride", "float", 4,  1,  4,  3, "gcd 4: banks 0,4,..,28, four words each"},
  {"stride", "float", 8,  1,  8,  7, "gcd 8: banks 0,8,16,24, eight words each"},
  {"stride", "float", 16, 1, 16, 15, "gcd 16: banks 0 and 16, sixteen words each"},
  {"stride", "float", 32, 1, 32, 31, "words 0,32,..,992: all in bank 0"},
  {"stride", "float", 33, 1,  1,  0, "33t % 32 = t: banks 0..31 once each"},
  {"stride", "float", 64, 1, 32, 31, "words 64t: all in bank 0"},
  // char: lane t on byte s*t, word floor(s*t/4). "4-way bank conflict" on old hardware; since
  // compute capability 2.x the 4 lanes of a word are one multicast.
  {"stride", "char", 1,   1,  1,  0, "bytes 0..31 = words 0..7, 4 lanes per word (multicast)"},
  {"stride", "char", 2,   1,  1,  0, "bytes 0..62 = words 0..15, 2 lanes per word"},
  {"stride", "char", 4,   1,  1,  0, "byte 4t = word t: banks 0..31"},
  {"stride", "char", 8,   1,  2,  1, "word 2t: as float stride 2"},
  {"stride", "char", 32,  1,  8,  7, "word 8t: banks 0,8,16,24, eight words each"},
  {"stride", "char", 128, 1, 32, 31, "word 32t: all in bank 0"},
  // short: byte 2*s*t, word floor(s*t/2).
  {"stride", "short", 1,  1,  1,  0, "words 0..15, 2 lanes per word"},
  {"stride", "short", 2,  1,  1,  0, "word t"},
  {"stride", "short", 4,  1,  2,  1, "word 2t: as float stride 2"},
  {"stride", "short", 64, 1, 32, 31, "word 32t: all in bank 0"},
  // double: 2 phases (lanes 0-15, 16-31); lane t on words 2st and 2st+1. Ideal = 2.
  {"stride", "double", 1,  1,  2,  0, "phase 0: words 0..31 once each; phase 1: words 32..63: 1 + 1"},
  {"stride", "double", 2,  1,  4,  2, "phase 0: words 4t, 4t+1 (t < 16): t and t+8 share banks: 2 + 2"},
  {"stride", "double", 16, 1, 32, 30, "words 32t, 32t+1: banks 0 and 1, 16 words each per phase: 16 + 16"},
  {"stride", "double", 17, 1,  2,  0, "words 34t, 34t+1: banks 2t, 2t+1 (t < 16) all distinct: 1 + 1"},
  // float4: 4 phases of 8 lanes; lane t on words 4st .. 4st+3. Ideal = 4.
  {"stride", "float4", 1, 1,  4,  0, "phase 0: lanes 0-7 on words 0..31 once each: 4 x 1"},
  {"stride", "float4", 2, 1,  8,  4, "words 8t..8t+3 (t < 8): t and t+4 share banks: 4 x 2"},
  {"stride", "float4", 8, 1, 32, 28, "words 32t..32t+3: banks 0-3, 8 words each: 4 x 8"},
  {"stride", "float4", 9, 1,  4,  0, "words 36t..: bank 4t (t < 8) distinct groups: 4 x 1"},
  // A random 1:1 permutation of the warp's 32 floats: each lane its own bank.
  {"permutation", "float", 1, 1, 1, 0, "32 distinct words of 0..31: banks 0..31 once each"},
  // Broadcast: every lane on the same element: one word (two for double, four for float4) per
  // phase, served once.
  {"broadcast", "float",  1, 1, 1, 0, "one word, 32 lanes: multicast"},
  {"broadcast", "char",   1, 1, 1, 0, "one byte's word: multicast"},
  {"broadcast", "double", 1, 1, 2, 0, "2 phases x (words 0,1 once): ideal 2"},
  {"broadcast", "float4", 1, 1, 4, 0, "4 phases x (words 0..3 once): ideal 4"},
  // struct vector {float x, y, z;}: 3 member loads; member m of lane t on word 3t + m: stride 3,
  // no common factor with 32: 3 x (1 wavefront, 0 conflicts).
  {"vector", "float", 1, 3, 3, 0, "3 loads, words 3t+m: banks all distinct"},
  // struct myType {float f; char c;}: sizeof 8 (padding), f on word 2t, c on byte 8t+4 = word
  // 2t+1: each load stride 2 words: 2 x (2 wavefronts, 1 conflict).
  {"myType", "float", 1, 2, 4, 2, "f: word 2t (2-way); c: word 2t+1 (2-way)"},
  // Each thread stores 2 elements. Interleaved: shared[2t], shared[2t+1]: each store stride 2.
  {"pair-interleaved", "float",  1, 2, 4, 2, "2 stores on words 2t and 2t+1: 2-way each"},
  {"pair-interleaved", "double", 1, 2, 8, 4, "2 stores, stride 2 doubles: 4 wavefronts (ideal 2) each"},
  {"pair-interleaved", "char",   1, 2, 2, 0, "bytes 2t: words 0..15, 2 lanes per word: no conflict"},
  // Blocked: shared[t], shared[t + blockDim.x]: stride 1 both times.
  {"pair-blocked", "float",  1, 2, 2, 0, "2 stores on words t and t+blockDim: 1 each"},
  {"pair-blocked", "double", 1, 2, 4, 0, "2 stores, 2 phases each: 2 x 2, ideal"},
};
// clang-format on

bool is_store_demo(const std::string& v) { return v.rfind("pair", 0) == 0; }

const char* demo_array(const std::string& v) {
  return v == "vector" ? "vectors" : v == "myType" ? "myTypes" : "shared";
}

struct TableCase {
  Expect e;
  uint32_t block;
};

class BankTable : public testing::TestWithParam<TableCase> {};

}  // namespace

TEST_P(BankTable, WavefrontsAndConflictsAsDerived) {
  const Expect& e = GetParam().e;
  const uint32_t block = GetParam().block, warps = block / 32;
  Case c{e.variant, block, {block, 1, 1}, e.dtype, {}};
  if (e.variant == "stride") c.params["stride"] = e.stride;
  if (is_store_demo(e.variant)) c.n = 2 * block;  // two elements per thread
  const RunResult r = test::run_case("bank", c);
  test::expect_pass(r);
  const analysis::Report rep = test::analyze_launch(r);
  const AccessKind kind = is_store_demo(e.variant) ? AccessKind::Store : AccessKind::Load;
  test::SiteSum s = test::site_sum(rep, demo_array(e.variant), MemSpace::Shared, kind);
  if (e.variant == "myType") {  // the c member is read through the byte view of the same array
    const test::SiteSum b = test::site_sum(rep, "myTypes_bytes", MemSpace::Shared, kind);
    s.instructions += b.instructions, s.wavefronts += b.wavefronts, s.conflicts += b.conflicts;
  }
  EXPECT_EQ(s.instructions, e.instructions * warps) << e.why;
  EXPECT_EQ(s.wavefronts, e.wavefronts * warps) << e.why;
  EXPECT_EQ(s.conflicts, e.conflicts * warps) << e.why;
}

INSTANTIATE_TEST_SUITE_P(Hand, BankTable, testing::ValuesIn([] {
                           std::vector<TableCase> v;
                           for (const Expect& e : kTable)
                             for (uint32_t b : {32u, 64u}) v.push_back({e, b});
                           return v;
                         }()),
                         [](const testing::TestParamInfo<TableCase>& i) {
                           return test::case_name({i.param.e.variant, 0, {i.param.block, 1, 1}, i.param.e.dtype,
                                                   {{"s", i.param.e.stride}}});
                         });

TEST(BankDerived, PartialWarpAndBase) {
  // 20 active lanes, float stride 2: words 0..38 even; lanes 0-3 (words 0,2,4,6) share banks with
  // lanes 16-19 (words 32..38): 2 wavefronts, 1 conflict.
  {
    const RunResult r = test::run_case("bank", {"stride", 20, {32, 1, 1}, "float", {{"stride", 2}}});
    test::expect_pass(r);
    const test::SiteSum s = test::site_sum(test::analyze_launch(r), "shared", MemSpace::Shared, AccessKind::Load);
    EXPECT_EQ(s.wavefronts, 2u);
    EXPECT_EQ(s.conflicts, 1u);
  }
  // 16 active lanes, float stride 2: words 0..30 even, one per bank: no conflict.
  {
    const RunResult r = test::run_case("bank", {"stride", 16, {32, 1, 1}, "float", {{"stride", 2}}});
    const test::SiteSum s = test::site_sum(test::analyze_launch(r), "shared", MemSpace::Shared, AccessKind::Load);
    EXPECT_EQ(s.wavefronts, 1u);
    EXPECT_EQ(s.conflicts, 0u);
  }
  // base 5, float stride 2: words 5 + 2t: odd banks twice each: still 2-way.
  {
    const RunResult r = test::run_case("bank", {"stride", 32, {32, 1, 1}, "float", {{"stride", 2}, {"base", 5}}});
    test::expect_pass(r);
    const test::SiteSum s = test::site_sum(test::analyze_launch(r), "shared", MemSpace::Shared, AccessKind::Load);
    EXPECT_EQ(s.wavefronts, 2u);
    EXPECT_EQ(s.conflicts, 1u);
  }
  // double, base 1, stride 1: lane t on words 2+2t, 2+2t+1: each half-warp covers 32 consecutive
  // words: one per bank: 2 wavefronts, 0 conflicts.
  {
    const RunResult r = test::run_case("bank", {"stride", 32, {32, 1, 1}, "double", {{"stride", 1}, {"base", 1}}});
    const test::SiteSum s = test::site_sum(test::analyze_launch(r), "shared", MemSpace::Shared, AccessKind::Load);
    EXPECT_EQ(s.wavefronts, 2u);
    EXPECT_EQ(s.conflicts, 0u);
  }
}

// Every demo gives the reference values for regular, irregular and sub-block thread counts.
namespace {
std::vector<Case> value_cases() {
  std::vector<Case> v;
  for (std::string var : {"stride", "permutation", "broadcast", "pair-interleaved", "pair-blocked"})
    for (std::string t : {"float", "char", "short", "double", "float4"})
      for (uint64_t n : {64u, 100u, 20u})
        for (uint32_t b : {32u, 64u}) v.push_back({var, n, {b, 1, 1}, t, var == "stride" ? std::map<std::string, double>{{"stride", 3}} : std::map<std::string, double>{}});
  for (std::string var : {"vector", "myType"})
    for (uint64_t n : {64u, 100u, 20u})
      for (uint32_t b : {32u, 64u}) v.push_back({var, n, {b, 1, 1}, "float", {{"base", 3}}});
  v.push_back({"permutation", 50, {48, 1, 1}, "float", {}});  // a partial last warp is permuted too
  return v;
}
class BankValues : public testing::TestWithParam<Case> {};

struct Float4 {  // float4's layout: the 16-byte element of dtype float4
  float x, y, z, w;
};

// out[] against memory/bank_reference.h over the regenerated input: the element type's demos.
template <class T>
void expect_reference_values(const RunResult& r, const Case& c) {
  namespace ref = reference::bank;
  const uint32_t b = c.block.x;
  const uint64_t base = c.params.count("base") ? uint64_t(c.params.at("base")) : 0;
  const uint64_t s = c.params.count("stride") ? uint64_t(c.params.at("stride")) : 1;
  if (c.variant == "stride") {
    test::expect_elements(r, "out", ref::strided(ref::elements<T>(base + s * (b - 1) + 1, test::kSeed), c.n, b, base, s));
  } else if (c.variant == "permutation") {
    test::expect_elements(r, "out", ref::permuted(ref::elements<T>(base + b, test::kSeed), c.n, b, base,
                                                  ref::lane_permutation(b, test::kSeed)));
  } else if (c.variant == "broadcast") {
    test::expect_elements(r, "out", ref::broadcast(ref::elements<T>(base + 1, test::kSeed), c.n, base));
  } else {  // the pair demos write their input back
    test::expect_elements(r, "out", ref::elements<T>(c.n, test::kSeed));
  }
}

}  // namespace

TEST_P(BankValues, MatchesReference) {
  const Case& c = GetParam();
  const RunResult r = test::run_case("bank", c);
  test::expect_pass(r);
  namespace ref = reference::bank;
  const uint64_t base = c.params.count("base") ? uint64_t(c.params.at("base")) : 0;
  if (c.variant == "vector")
    test::expect_elements(r, "out", ref::vector_sums(ref::vector_words(base + c.block.x, test::kSeed), c.n, c.block.x, base));
  else if (c.variant == "myType")
    test::expect_elements(r, "out", ref::mytype_values(ref::mytype_words(base + c.block.x, test::kSeed), c.n, c.block.x, base));
  else if (c.dtype == "char")
    expect_reference_values<char>(r, c);
  else if (c.dtype == "short")
    expect_reference_values<short>(r, c);
  else if (c.dtype == "double")
    expect_reference_values<double>(r, c);
  else if (c.dtype == "float4")
    expect_reference_values<Float4>(r, c);
  else
    expect_reference_values<float>(r, c);
}

INSTANTIATE_TEST_SUITE_P(Emu, BankValues, testing::ValuesIn(value_cases()),
                         [](const testing::TestParamInfo<Case>& i) { return test::case_name(i.param); });

TEST(BankRefusals, ConstraintsAreNamed) {
  EXPECT_NE(test::refusal("bank", {"vector", 32, {32, 1, 1}, "double", {}}).find("element type is fixed"), std::string::npos);
  EXPECT_NE(test::refusal("bank", {"stride", 1024, {1024, 1, 1}, "float4", {{"stride", 33}}}).find("over the 48 KB"),
            std::string::npos);
  EXPECT_NE(test::refusal("bank", {"stride", 32, {32, 1, 1}, "float", {{"stride", 5000}}}).find("out of range"), std::string::npos);
  EXPECT_NE(test::refusal("bank", {"stride", 32, {32, 2, 1}, "float", {}}).find("1D blocks"), std::string::npos);
}
