// The README's "Writing a kernel" example (kernels/examples/scale.cuh) builds, runs and checks.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/reference.h"
#include "ws/run/catalog.h"

using namespace ws;

TEST(ReadmeExample, ScaleRunsAndPasses) {
  RunConfig cfg;
  cfg.n = 1000;
  RunResult r = Catalog::instance().run("scale", cfg, BackendKind::Emu);
  ASSERT_TRUE(r.refused.empty()) << r.refused;
  EXPECT_TRUE(r.passed) << r.result;
  // out = 2 * in for the input regenerated here (in [-1, 1), the default seed): exact in float.
  const std::vector<float> in = random_input<float>(cfg.n, cfg.seed, -1, 1), got = r.value<float>("out");
  ASSERT_EQ(got.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(got[i], 2 * in[i]) << "out[" << i << "]";
  ASSERT_EQ(r.launches.size(), 1u);
  const auto& params = r.launches[0].launch.params;  // every backend records the run's parameters
  EXPECT_NE(std::find(params.begin(), params.end(), std::pair<std::string, std::string>("dtype", "float")), params.end());
  bool tile = false;
  for (const Allocation& a : r.launches[0].allocations) tile |= a.name == "tile" && a.space == MemSpace::Shared;
  EXPECT_TRUE(tile);
  cfg.block = {128, 1, 1};
  EXPECT_NE(Catalog::instance().run("scale", cfg, BackendKind::Emu).refused.find("--block must be 256"), std::string::npos);
}
