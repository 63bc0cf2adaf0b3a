// streams: the lesson's kernel computes the same on every element whether launched once or per
// chunk (a launch per chunk, in order), and a chunk count that does not divide n is refused.
#include <cmath>

#include "catalog_cases.h"

using namespace ws;
using ws::test::Case;

namespace {

std::vector<float> expected(uint64_t n, uint32_t work) {
  std::vector<float> v(n);
  for (uint64_t i = 0; i < n; ++i) {
    float y = float(i % 1000) * 0.001f;
    for (uint32_t k = 0; k < work; ++k) y = std::fma(y, 0.999f, 0.5f);
    v[i] = y;
  }
  return v;
}

}  // namespace

TEST(Streams, WholeAndChunkedComputeTheSame) {
  for (const char* v : {"whole", "chunked"})
    for (uint64_t n : {4096u, 1000u, 8u})
      for (int64_t work : {1, 8, 33}) {
        const RunResult r = test::run_case("streams", {v, n, {128, 1, 1}, "float", {{"work", work}, {"chunks", 8}}});
        test::expect_pass(r);
        test::expect_elements<float>(r, "data", expected(n, uint32_t(work)));
        EXPECT_EQ(r.launches.size(), std::string(v) == "whole" ? 1u : 8u) << v;
      }
}

TEST(Streams, AChunkCountThatDoesNotDivideNIsRefused) {
  EXPECT_EQ(test::refusal("streams", {"chunked", 1000, {128, 1, 1}, "float", {{"chunks", 3}}}),
            "n = 1000 is not a multiple of chunks = 3: each chunk must be the same size (e.g. n = 1002)");
  EXPECT_NE(test::refusal("streams", {"chunked", 4, {128, 1, 1}, "float", {{"chunks", 8}}}).find("not a multiple"),
            std::string::npos);
  EXPECT_EQ(test::refusal("streams", {"whole", 1000, {128, 1, 1}, "float", {{"chunks", 3}}}), "");  // (whole ignores chunks)
}

// Chunk c is launched on `data + c * per`: its accesses are elements of the whole array (what the
// views show), chunk c's first load is data[c * per].
TEST(Streams, EachChunksLaunchReadsItsOwnElementsOfTheArray) {
  const uint64_t n = 1024;
  const RunResult r = test::run_case("streams", {"chunked", n, {128, 1, 1}, "float", {{"chunks", 4}}}, {0});
  test::expect_pass(r);
  ASSERT_EQ(r.launches.size(), 4u);
  for (size_t c = 0; c < 4; ++c) {
    const Trace& t = r.launches[c];
    const Event* first = nullptr;
    for (const Event& e : t.events)
      if (e.type == EventType::Access && e.kind == AccessKind::Load && e.block == 0 && e.warp == 0) {
        first = &e;
        break;
      }
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(*t.lanes(*first).begin(), uint64_t(c * (n / 4)) * sizeof(float)) << "chunk " << c;
  }
}
