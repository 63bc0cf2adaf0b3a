// The emulator's two ways of letting a thread run on where it used to stop: deferred loads
// (emu_hooks.h, deferred_load: `a[i] = b[j]`, `a[i] += b[j]`) and eager shuffles
// (eager_shuffles.h: the source lane has already been at the same shuffle along the same
// operations), and its converged issue (converged_issue.h: a warp whose lanes all queued the same
// operations issues them without moving each lane on per instruction). They must change nothing but the speed: every kernel, variant
// and element type of the catalog, run with each of them on and off, gives the same result and
// the same trace (events, lanes, per-site counters, diagnostics), bit for bit, as a run with all
// three off.
#include <gtest/gtest.h>

#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "accepted_launch.h"
#include "ws/run/catalog.h"

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

// At a size the variant accepts (accepted_launch.h); refused only where the element type is not
// the variant's.
RunResult run(const Run& r, bool defer, bool eager, bool converged) {
  const CatalogEntry* e = Catalog::instance().find(r.kernel);
  RunConfig cfg;
  if (std::optional<RunConfig> ok = e ? test::accepted_launch(*e, r.variant, r.dtype) : std::nullopt) cfg = *ok;
  cfg.variant = r.variant;
  cfg.dtype = r.dtype;
  cfg.seed = 11;
  cfg.emu.workers = 1;  // one worker: blocks in order, so that order-dependent variants repeat too
  cfg.record.blocks = {0, 1};
  cfg.emu.defer_loads = defer;
  cfg.emu.eager_shuffles = eager;
  cfg.emu.converged_issue = converged;
  return Catalog::instance().run(r.kernel, cfg, BackendKind::Emu);
}

void expect_same(const RunResult& a, const RunResult& b) {
  EXPECT_EQ(a.completed, b.completed);
  EXPECT_EQ(a.passed, b.passed);
  EXPECT_EQ(a.result, b.result);
  ASSERT_EQ(a.launches.size(), b.launches.size());
  for (size_t k = 0; k < a.launches.size(); ++k) {
    const Trace& x = a.launches[k];
    const Trace& y = b.launches[k];
    ASSERT_EQ(x.allocations.size(), y.allocations.size()) << "launch " << k;
    for (size_t i = 0; i < x.allocations.size(); ++i) {
      EXPECT_EQ(x.allocations[i].name, y.allocations[i].name) << "launch " << k << ", allocation " << i;
      EXPECT_EQ(x.allocations[i].base, y.allocations[i].base) << "launch " << k << ", allocation " << i;
    }
    ASSERT_EQ(x.events.size(), y.events.size()) << "launch " << k;
    for (size_t e = 0; e < x.events.size(); ++e) {  // the first event that differs, if any
      if (std::memcmp(&x.events[e], &y.events[e], sizeof(Event)) == 0) continue;
      const Event &p = x.events[e], &q = y.events[e];
      ADD_FAILURE() << "launch " << k << ", event " << e << " (block " << p.block << ", warp " << p.warp << ", step "
                    << p.step << ", at `" << x.sites.at(p.site).text << "`) differs: mask " << std::hex << p.mask
                    << " / " << q.mask << std::dec << ", allocation " << p.alloc << " / " << q.alloc << ", time "
                    << p.time << " / " << q.time << ", site " << p.site << " / " << q.site;
      break;
    }
    EXPECT_EQ(x.lane_offsets, y.lane_offsets) << "launch " << k;
    EXPECT_EQ(x.unrecorded_events, y.unrecorded_events);
    EXPECT_EQ(x.unrecorded_lane_accesses, y.unrecorded_lane_accesses);
    ASSERT_EQ(x.site_counters.size(), y.site_counters.size());
    for (size_t i = 0; i < x.site_counters.size(); ++i) {
      EXPECT_EQ(x.site_counters[i].site, y.site_counters[i].site);
      EXPECT_EQ(x.site_counters[i].instructions, y.site_counters[i].instructions);
      EXPECT_EQ(x.site_counters[i].lanes, y.site_counters[i].lanes);
      EXPECT_EQ(x.site_counters[i].wavefronts, y.site_counters[i].wavefronts);
      EXPECT_EQ(x.site_counters[i].sectors, y.site_counters[i].sectors);
    }
    ASSERT_EQ(x.diagnostics.size(), y.diagnostics.size());
    for (size_t d = 0; d < x.diagnostics.size(); ++d) EXPECT_EQ(x.diagnostics[d].message, y.diagnostics[d].message);
  }
}

class RunAhead : public testing::TestWithParam<Run> {};

// (Converged issue, the third switch, changes no thread's stops, only how the scheduler moves a
// converged warp's lanes on: it is held to the plain run too, alone and with both others.)
TEST_P(RunAhead, SameResultAndTraceAsAThreadThatStopsAtEveryLoadAndShuffle) {
  const RunResult plain = run(GetParam(), false, false, false);
  if (!plain.refused.empty()) GTEST_SKIP() << plain.refused;
  struct Mode {
    bool defer, eager, converged;
  };
  for (Mode m : {Mode{true, false, false}, {false, true, false}, {true, true, false}, {false, false, true},
                 {true, true, true}}) {
    SCOPED_TRACE(testing::Message() << "defer_loads " << m.defer << ", eager_shuffles " << m.eager
                                    << ", converged_issue " << m.converged);
    expect_same(run(GetParam(), m.defer, m.eager, m.converged), plain);
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, RunAhead, testing::ValuesIn(every_run()),
                         [](const testing::TestParamInfo<Run>& info) {
                           std::string s = info.param.kernel + "_" + info.param.variant + "_" + info.param.dtype;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace ws
