// Deferred loads (emu_hooks.h, deferred_load): `a[i] = b[j]` and `a[i] += b[j]` let the thread
// run on past loads whose values it never sees. That must change nothing but the speed: every
// kernel and variant of the catalog, run with deferral on and off, gives the same result and
// the same trace (events, lanes, per-site counters, diagnostics), bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "ws/catalog/catalog.h"

namespace ws {
namespace {

struct Run {
  std::string kernel, variant, dtype;
};

void PrintTo(const Run& r, std::ostream* os) { *os << r.kernel << " " << r.variant << " " << r.dtype; }

std::vector<Run> every_run() {
  std::vector<Run> runs;
  for (const CatalogEntry& e : Catalog::instance().entries()) {
    const KernelSpec& spec = e.spec;
    for (const VariantSpec& v : spec.variants) {
      if (v.gpu_only) continue;
      for (const std::string& dtype : spec.dtypes) runs.push_back({spec.name, v.id, dtype});
    }
  }
  return runs;
}

RunResult run(const Run& r, bool defer) {
  RunConfig cfg;
  cfg.variant = r.variant;
  cfg.dtype = r.dtype;
  cfg.seed = 11;
  cfg.workers = 1;  // one worker: blocks in order, so that order-dependent variants repeat too
  cfg.record_blocks = {0, 1};
  cfg.defer_loads = defer;
  return Catalog::instance().run(r.kernel, cfg, BackendKind::Emu);
}

void expect_same_counters(const std::vector<SiteCounters>& a, const std::vector<SiteCounters>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].site, b[i].site);
    EXPECT_EQ(a[i].instructions, b[i].instructions);
    EXPECT_EQ(a[i].lanes, b[i].lanes);
    EXPECT_EQ(a[i].wavefronts, b[i].wavefronts);
    EXPECT_EQ(a[i].sectors, b[i].sectors);
  }
}

class DeferredLoads : public testing::TestWithParam<Run> {};

TEST_P(DeferredLoads, SameResultAndTraceAsWaitingForEachLoad) {
  const RunResult on = run(GetParam(), true), off = run(GetParam(), false);
  ASSERT_EQ(on.refused, off.refused);
  if (!on.refused.empty()) GTEST_SKIP() << on.refused;
  EXPECT_EQ(on.completed, off.completed);
  EXPECT_EQ(on.passed, off.passed);
  EXPECT_EQ(on.result, off.result);
  ASSERT_EQ(on.launches.size(), off.launches.size());
  for (size_t k = 0; k < on.launches.size(); ++k) {
    const Trace& a = on.launches[k];
    const Trace& b = off.launches[k];
    ASSERT_EQ(a.events.size(), b.events.size()) << "launch " << k;
    EXPECT_EQ(0, std::memcmp(a.events.data(), b.events.data(), a.events.size() * sizeof(Event))) << "launch " << k;
    EXPECT_EQ(a.lane_offsets, b.lane_offsets) << "launch " << k;
    EXPECT_EQ(a.unrecorded_events, b.unrecorded_events);
    EXPECT_EQ(a.unrecorded_lane_accesses, b.unrecorded_lane_accesses);
    expect_same_counters(a.site_counters, b.site_counters);
    ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size());
    for (size_t d = 0; d < a.diagnostics.size(); ++d) EXPECT_EQ(a.diagnostics[d].message, b.diagnostics[d].message);
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, DeferredLoads, testing::ValuesIn(every_run()),
                         [](const testing::TestParamInfo<Run>& info) {
                           std::string s = info.param.kernel + "_" + info.param.variant + "_" + info.param.dtype;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace ws
