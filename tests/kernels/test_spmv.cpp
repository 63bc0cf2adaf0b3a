// Sparse matrix-vector product in CSR (kernels/sparse/spmv.cuh): results against the double
// reference, and what the lecture points at in the trace: lanes leave the row loop as their rows
// end, and in the shared variant the cache-or-global choice splits the warp at every element.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "sparse/spmv_reference.h"
#include "ws/run/catalog.h"

using namespace ws;

namespace {

RunResult run(const std::string& variant, const std::string& dtype, uint64_t n, int64_t avg_nnz = 4,
              int64_t band = 64) {
  RunConfig cfg;
  cfg.variant = variant;
  cfg.dtype = dtype;
  cfg.n = n;
  cfg.block = {256, 1, 1};
  cfg.params["avg_nnz"] = avg_nnz;
  cfg.params["band"] = band;
  return Catalog::instance().run("spmv", cfg, BackendKind::Emu);
}

// y against sparse/spmv_reference.h's product of the regenerated matrix and x, row by row.
template <class T>
void expect_reference_rows(const RunResult& r, uint64_t n, int64_t avg_nnz, int64_t band) {
  namespace ref = reference::spmv;
  const uint64_t seed = RunConfig{}.seed;  // run() keeps the default seed
  const ref::Csr m = ref::matrix(n, seed, unsigned(avg_nnz), unsigned(band));
  const ref::Rows want = ref::product(m, ref::values<T>(m, seed), ref::vector_x<T>(n, seed));
  const std::vector<T> got = r.value<T>("y");
  ASSERT_EQ(got.size(), n);
  uint64_t bad = 0;
  for (uint64_t row = 0; row < n; ++row)
    bad += std::fabs(double(got[row]) - want.value[row]) > ref::tolerance<T>(m, row, want.abs[row]);
  EXPECT_EQ(bad, 0u) << "rows of y off the reference";
}

// Block 0, warp 0: the access events whose source line contains `text`, in issue order.
std::vector<Event> at(const RunResult& r, const std::string& text, AccessKind kind) {
  std::vector<Event> out;
  const Trace& t = r.launches.at(0);
  for (const Event& e : t.events)
    if (e.block == 0 && e.warp == 0 && e.type == EventType::Access && e.kind == kind &&
        t.sites.at(e.site).text.find(text) != std::string::npos)
      out.push_back(e);
  return out;
}

}  // namespace

TEST(Spmv, BothVariantsMatchTheReference) {
  for (const std::string v : {"scalar", "shared"})
    for (const std::string dtype : {"float", "int"})
      for (auto [n, avg, band] : {std::tuple<uint64_t, int64_t, int64_t>{1000, 4, 64}, {4096, 16, 0}, {300, 1, 3}}) {
        const RunResult r = run(v, dtype, n, avg, band);
        ASSERT_TRUE(r.refused.empty()) << r.refused;
        EXPECT_TRUE(r.passed) << v << " " << dtype << " n=" << n << ": " << r.result << " (" << r.check << ")";
        if (dtype == "int") expect_reference_rows<int>(r, n, avg, band);
        else expect_reference_rows<float>(r, n, avg, band);
      }
}

TEST(Spmv, LanesLeaveTheRowLoopAsTheirRowsEnd) {
  const RunResult r = run("scalar", "int", 1024);
  const std::vector<Event> body = at(r, "sum += Av[column] * x[Aj[column]]", AccessKind::Load);
  ASSERT_FALSE(body.empty());
  int last = 33;
  for (const Event& e : body) {  // three loads per iteration, each with the lanes still in the loop
    const int lanes = std::popcount(e.mask);
    EXPECT_LE(lanes, last);
    last = lanes;
  }
  EXPECT_LT(std::popcount(body.back().mask), 32);  // the longest rows go on alone
  const std::vector<Event> store = at(r, "y[row] = multiply_row", AccessKind::Store);
  ASSERT_EQ(store.size(), 1u);
  EXPECT_EQ(store[0].mask, 0xffffffffu);  // every lane again after the loop
}

TEST(Spmv, TheSharedCacheChoiceSplitsTheWarpAtEveryElement) {
  const RunResult r = run("shared", "int", 1024, 8, 0);  // (columns anywhere: a quarter in the block)
  const std::vector<Event> cached = at(r, "x_j = cache[j - begin]", AccessKind::Load);
  const std::vector<Event> global = at(r, "x_j = x[j]", AccessKind::Load);
  ASSERT_FALSE(cached.empty());
  ASSERT_FALSE(global.empty());
  for (const Event& e : cached) EXPECT_EQ(e.space, MemSpace::Shared);
  // The warp meets again after the if/else of every element (as a GPU does; here source order
  // alone gets it, since `sum += Av[col] * x_j` follows the if/else): each iteration reads
  // Aj[col] once with every lane still in the loop (a chain of shrinking masks), and the cache and
  // global reads that follow it before the next one split exactly those lanes.
  const Trace& t = r.launches.at(0);
  std::vector<const Event*> order;  // Aj, cache and global reads of warp 0, in issue order
  for (const Event& e : t.events)
    if (e.block == 0 && e.warp == 0 && e.type == EventType::Access && e.kind == AccessKind::Load) {
      const std::string& text = t.sites.at(e.site).text;
      if (text.find("unsigned j = Aj[col]") != std::string::npos || text.find("x_j = ") != std::string::npos)
        order.push_back(&e);
    }
  uint32_t prev = 0xffffffffu, iter_mask = 0, split = 0;
  int iterations = 0;
  for (const Event* e : order) {
    if (t.sites.at(e->site).text.find("Aj[col]") != std::string::npos) {
      if (iterations++) {
        EXPECT_EQ(split, iter_mask) << "iteration " << iterations - 1;
      }
      EXPECT_EQ(e->mask & ~prev, 0u) << "iteration " << iterations;  // only lanes that were in the last one
      prev = iter_mask = e->mask;
      split = 0;
    } else {
      EXPECT_EQ(split & e->mask, 0u);  // each lane takes one side
      split |= e->mask;
    }
  }
  EXPECT_EQ(split, iter_mask);
  EXPECT_GE(iterations, 8);
  const std::vector<Event> store = at(r, "y[row] = sum", AccessKind::Store);
  ASSERT_EQ(store.size(), 1u);
  EXPECT_EQ(store[0].mask, 0xffffffffu);
}

TEST(Spmv, ImpossibleSizesAreRefusedWithTheLimit) {
  RunConfig cfg;
  cfg.variant = "scalar";
  cfg.n = 1u << 23;
  EXPECT_NE(Catalog::instance().run("spmv", cfg, BackendKind::Emu).refused.find("4194304"), std::string::npos);
  cfg.n = 1024;
  cfg.block = {16, 16, 1};
  EXPECT_NE(Catalog::instance().run("spmv", cfg, BackendKind::Emu).refused.find("block must be (x, 1, 1)"),
            std::string::npos);
}
