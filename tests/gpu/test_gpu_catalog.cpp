// Every catalog kernel on a real GPU (gpu-fast): the reference result, and faults as messages.
// Label `gpu`; without a CUDA device every test is skipped with one line saying so.
#include <gtest/gtest.h>

#include "ws/catalog/catalog.h"
#include "ws/gpu/device.h"

using namespace ws;

// GTEST_SKIP only leaves the function it is written in, hence a macro.
#define REQUIRE_GPU() \
  if (!gpu::device().present) GTEST_SKIP() << gpu::device().why_not

TEST(GpuCatalog, DeviceIsDescribed) {
  REQUIRE_GPU();
  const gpu::DeviceInfo& d = gpu::device();
  EXPECT_FALSE(d.name.empty());
  EXPECT_GT(d.sm_count, 0);
  std::printf("device: %s, sm_%d%d, %d SMs, L2 %llu KiB\n", d.name.c_str(), d.major, d.minor, d.sm_count,
              static_cast<unsigned long long>(d.l2_bytes >> 10));
}

TEST(GpuCatalog, EveryVariantMatchesTheReference) {
  REQUIRE_GPU();
  int runs = 0;
  for (const CatalogEntry& e : Catalog::instance().entries()) {
    if (!e.runners.count(BackendKind::GpuFast)) continue;
    for (const VariantSpec& v : e.spec.variants) {
      if (v.broken) continue;  // broken on purpose: their lesson is a wrong result or a report
      for (const std::string& dtype : e.spec.dtypes)
        for (uint64_t n : {uint64_t(1) << 20, uint64_t(1000003), uint64_t(37)}) {
          RunConfig cfg;
          cfg.variant = v.id;
          cfg.n = n;
          cfg.dtype = dtype;
          cfg.seed = 11;
          RunResult r = Catalog::instance().run(e.spec.name, cfg, BackendKind::GpuFast);
          if (!r.refused.empty()) continue;  // e.g. a size this kernel does not take
          ++runs;
          EXPECT_TRUE(r.completed) << e.spec.name << " " << v.id << " n=" << n << ": "
                                   << (r.errors.empty() ? "" : r.errors[0].message);
          EXPECT_TRUE(r.passed) << e.spec.name << " " << v.id << " " << dtype << " n=" << n << ": " << r.result
                                << " vs " << r.expected << " (" << r.check << ")";
        }
    }
  }
  EXPECT_GT(runs, 10);
}

#include "ws/analysis/crosscheck.h"

// gpu-trace: every kernel records on the device, gives the right result, and its trace holds the
// same lane accesses as the emulator's for the same launch (blocks 0 and 1).
TEST(GpuTrace, EveryVariantMatchesTheEmulator) {
  REQUIRE_GPU();
  int compared = 0;
  for (const CatalogEntry& e : Catalog::instance().entries()) {
    if (!e.runners.count(BackendKind::GpuTrace)) continue;
    for (const VariantSpec& v : e.spec.variants) {
      if (v.gpu_only) continue;
      RunConfig cfg;
      cfg.variant = v.id;
      cfg.seed = 5;
      cfg.record_blocks = {0, 1};
      RunResult emu = Catalog::instance().run(e.spec.name, cfg, BackendKind::Emu);
      RunResult gpu = Catalog::instance().run(e.spec.name, cfg, BackendKind::GpuTrace);
      if (!emu.refused.empty() || !gpu.refused.empty()) continue;
      if (!v.broken) {
        EXPECT_TRUE(gpu.completed) << e.spec.name << " " << v.id << ": " << (gpu.errors.empty() ? "" : gpu.errors[0].message);
        EXPECT_TRUE(gpu.passed) << e.spec.name << " " << v.id << ": " << gpu.result << " vs " << gpu.expected;
      }
      if (!emu.completed || !gpu.completed) continue;  // e.g. barrier divergence: the emulator stops
      ASSERT_EQ(emu.launches.size(), gpu.launches.size()) << e.spec.name << " " << v.id;
      for (size_t l = 0; l < emu.launches.size(); ++l) {
        const analysis::Crosscheck c = analysis::crosscheck(emu.launches[l], gpu.launches[l]);
        ++compared;
        std::printf("%-10s %-4s launch %zu: %8llu accesses, %s, %llu grouping differences\n", e.spec.name.c_str(),
                    v.id.c_str(), l, static_cast<unsigned long long>(c.gpu_accesses),
                    c.identical ? "identical" : "DIFFERENT", static_cast<unsigned long long>(c.grouping_differences));
        if (!v.order_dependent) {
          EXPECT_TRUE(c.identical) << e.spec.name << " " << v.id << " launch " << l << "\n"
                                   << analysis::format_crosscheck(c);
        }
      }
    }
  }
  EXPECT_GT(compared, 5);
}
