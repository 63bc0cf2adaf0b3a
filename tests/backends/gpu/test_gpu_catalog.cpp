// Every catalog kernel on a real GPU (gpu-fast): the reference result, and faults as messages.
// Label `gpu`; without a CUDA device every test is skipped with one line saying so.
#include <gtest/gtest.h>

#include <chrono>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ws/run/catalog.h"
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

// The values a run's check compared (RunResult::checked), as numbers: integers exact, floating
// point within 1e-3 (float) or 1e-9 (double) of the largest magnitude. Arrays are matched by name;
// a value named after one element ("P[26][6]", the element closest to its bound) may name another
// element on the other backend and is not compared. "" or the first difference.
std::string compare_checked(const RunResult& gpu, const RunResult& emu) {
  size_t compared = 0;
  for (const auto& [name, e] : emu.checked) {
    if (name.find('[') != std::string::npos) continue;
    auto it = std::find_if(gpu.checked.begin(), gpu.checked.end(), [&](const auto& x) { return x.first == name; });
    if (it == gpu.checked.end()) return name + ": not kept by gpu-fast";
    const CheckedValue& g = it->second;
    if (g.type != e.type || g.bytes.size() != e.bytes.size()) return name + ": another type or size on gpu-fast";
    ++compared;
    auto as_doubles = [](const RunResult& r, const std::string& n, const std::string& type) -> std::vector<double> {
      if (type == "float") { auto v = r.value<float>(n); return {v.begin(), v.end()}; }
      if (type == "double") return r.value<double>(n);
      if (type == "int") { auto v = r.value<int>(n); return {v.begin(), v.end()}; }
      if (type == "unsigned int") { auto v = r.value<unsigned>(n); return {v.begin(), v.end()}; }
      return {};
    };
    const std::vector<double> gv = as_doubles(gpu, name, g.type), ev = as_doubles(emu, name, g.type);
    if (gv.empty() && !g.bytes.empty()) {  // another type: its bytes
      if (g.bytes != e.bytes) return name + " (" + g.type + "): the bytes differ";
      continue;
    }
    const bool exact = g.type != "float" && g.type != "double";
    double largest = 1;
    for (double x : ev) largest = std::max(largest, std::fabs(x));
    const double tol = exact ? 0 : (g.type == "float" ? 1e-3 : 1e-9) * largest;
    for (size_t i = 0; i < gv.size(); ++i)
      if (std::fabs(gv[i] - ev[i]) > tol)
        return name + "[" + std::to_string(i) + "]: gpu-fast " + std::to_string(gv[i]) + ", emulator " + std::to_string(ev[i]);
  }
  return compared ? std::string() : "no array of the emulator's run was compared";
}

// Every variant on gpu-fast, in every element type, at three sizes: it passes its entry's check
// against the kernel's host reference, and (where the emulator runs it too) computes the values
// the emulator's run of the same launch computes, not only a verdict; a launch refused by one
// backend is refused by the other with the same words.
TEST(GpuCatalog, EveryVariantComputesWhatTheEmulatorComputes) {
  REQUIRE_GPU();
  int runs = 0, compared = 0, refused = 0;
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
          const std::string what = e.spec.name + " " + v.id + " " + dtype + " n=" + std::to_string(n);
          const RunResult gpu = Catalog::instance().run(e.spec.name, cfg, BackendKind::GpuFast);
          // (GPU-only variants, CUB's and cuBLAS's, have no emulator run to compare with)
          RunResult emu;
          if (v.gpu_only) emu.refused = gpu.refused;
          else emu = Catalog::instance().run(e.spec.name, cfg, BackendKind::Emu);
          EXPECT_EQ(gpu.refused, emu.refused) << what;
          if (!gpu.refused.empty() || !emu.refused.empty()) {
            ++refused;
            continue;
          }
          ++runs;
          EXPECT_TRUE(gpu.completed) << what << ": " << (gpu.errors.empty() ? "" : gpu.errors[0].message);
          EXPECT_TRUE(gpu.passed) << what << ": " << gpu.result << " vs " << gpu.expected << " (" << gpu.check << ")";
          // (order-dependent: which block is last decides some values, so its own check is what holds)
          if (v.gpu_only || v.order_dependent || !gpu.completed || !emu.completed) continue;
          ++compared;
          EXPECT_EQ(compare_checked(gpu, emu), "") << what;
        }
    }
  }
  std::printf("%d launches passed their check; %d compared with the emulator's values; %d refused alike\n", runs, compared,
              refused);
  EXPECT_GT(compared, 10);
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
      cfg.record.blocks = {0, 1};
      const auto t0 = std::chrono::steady_clock::now();
      RunResult emu = Catalog::instance().run(e.spec.name, cfg, BackendKind::Emu);
      const auto t1 = std::chrono::steady_clock::now();
      RunResult gpu = Catalog::instance().run(e.spec.name, cfg, BackendKind::GpuTrace);
      const auto t2 = std::chrono::steady_clock::now();
      // (Where the test's minutes go: the emulator's run and gpu-trace's, per variant.)
      std::printf("%-10s %-4s emu %.2f s, gpu-trace %.2f s\n", e.spec.name.c_str(), v.id.c_str(),
                  std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count());
      std::fflush(stdout);
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
        uint64_t emu_calls = 0, gpu_calls = 0;
        for (const analysis::WarpOpRow& r : c.warp_ops) emu_calls += r.emu_calls, gpu_calls += r.gpu_calls;
        std::printf("%-10s %-4s launch %zu: %8llu accesses, %s, %llu grouping differences, warp calls %llu / %llu\n",
                    e.spec.name.c_str(), v.id.c_str(), l, static_cast<unsigned long long>(c.gpu_accesses),
                    c.identical ? "identical" : "DIFFERENT", static_cast<unsigned long long>(c.grouping_differences),
                    static_cast<unsigned long long>(emu_calls), static_cast<unsigned long long>(gpu_calls));
        if (!v.order_dependent) {
          EXPECT_TRUE(c.identical) << e.spec.name << " " << v.id << " launch " << l << "\n"
                                   << analysis::format_crosscheck(c);
          // The same shuffles, votes and __syncwarp()s by the same lanes (gpu-trace records them too).
          EXPECT_EQ(c.warp_op_differences, 0u) << e.spec.name << " " << v.id << " launch " << l << "\n"
                                               << analysis::format_crosscheck(c);
        }
      }
    }
  }
  EXPECT_GT(compared, 5);
}

#include <map>
#include <tuple>

#include "ws/analysis/analysis.h"

// gpu-trace without the grid's counters (RunConfig::count_every_block = false, `--no-counters`):
// the chosen blocks are recorded in full as before, the result is still checked, and no per-site
// counters come back; with them, every block's accesses are counted.
TEST(GpuTrace, CountersAreChosenPerLaunch) {
  REQUIRE_GPU();
  for (bool count : {true, false}) {
    RunConfig cfg;
    cfg.variant = "3";
    cfg.n = 1u << 16;
    cfg.record.blocks = {2};
    cfg.record.count_every_block = count;
    RunResult r = Catalog::instance().run("reduce", cfg, BackendKind::GpuTrace);
    ASSERT_TRUE(r.refused.empty()) << r.refused;
    ASSERT_TRUE(r.completed) << (r.errors.empty() ? "" : r.errors[0].message);
    EXPECT_TRUE(r.passed) << r.result << " vs " << r.expected;
    ASSERT_FALSE(r.launches.empty());
    const Trace& t = r.launches[0];
    ASSERT_FALSE(t.events.empty());
    for (const Event& e : t.events) EXPECT_EQ(e.block, 2u);
    uint64_t lanes = 0;
    for (const SiteCounters& c : t.site_counters) lanes += c.lanes;
    if (count) {
      // The emulator's count of the same launch: block 2's lane accesses plus the other blocks'.
      RunResult emu = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
      ASSERT_FALSE(emu.launches.empty());
      const Trace& et = emu.launches[0];
      EXPECT_EQ(lanes, et.lane_offsets.size() + et.unrecorded_lane_accesses) << "every block counted";
      EXPECT_EQ(t.lane_offsets.size(), et.lane_offsets.size()) << "block 2 in full";
    } else {
      EXPECT_TRUE(t.site_counters.empty()) << t.site_counters.size() << " sites counted with counters off";
    }
  }
}

// gpu-trace's per-site counters, counted on the device for every block, against the emulator's
// analysis of a full trace of the same launch: active lanes always (they do not depend on how
// the hardware grouped lanes into instructions), and instructions, shared wavefronts and global
// sectors for the kernels whose lanes the hardware groups as the emulator does.
TEST(GpuTrace, SiteCountersMatchTheEmulator) {
  REQUIRE_GPU();
  using Key = std::tuple<std::string, uint32_t, int, int>;  // file, line, kind, space
  struct Sums {
    uint64_t instructions = 0, lanes = 0, wavefronts = 0, sectors = 0;
  };
  int compared = 0;
  for (const CatalogEntry& e : Catalog::instance().entries()) {
    if (!e.runners.count(BackendKind::GpuTrace)) continue;
    const bool exact = e.spec.name == "reduce" || e.spec.name == "bank" || e.spec.name == "coalesce";
    for (const VariantSpec& v : e.spec.variants) {
      if (v.gpu_only || v.broken || v.order_dependent) continue;
      RunConfig cfg;
      cfg.variant = v.id;
      cfg.seed = 5;
      if (e.spec.name == "reduce") cfg.n = 1u << 16;
      RunResult emu = Catalog::instance().run(e.spec.name, cfg, BackendKind::Emu);  // every block in full
      cfg.record.blocks = {0};
      RunResult gpu = Catalog::instance().run(e.spec.name, cfg, BackendKind::GpuTrace);
      if (!emu.refused.empty() || !gpu.refused.empty() || !emu.completed || !gpu.completed) continue;
      ASSERT_EQ(emu.launches.size(), gpu.launches.size()) << e.spec.name << " " << v.id;
      for (size_t l = 0; l < emu.launches.size(); ++l) {
        if (emu.launches[l].truncated) continue;
        std::map<Key, Sums> want, got;
        const analysis::Report rep = analysis::analyze(emu.launches[l]);
        for (const analysis::SiteMetrics& s : rep.sites) {
          Sums& w = want[{rep.site_table[s.site].file, rep.site_table[s.site].line, int(s.kind), int(s.space)}];
          w.instructions += s.instructions;
          w.lanes += s.lane_accesses;
          w.wavefronts += s.wavefronts;
          w.sectors += s.sectors;
        }
        const Trace& t = gpu.launches[l];
        for (const SiteCounters& c : t.site_counters) {
          Sums& g = got[{t.sites[c.site].file, t.sites[c.site].line, int(c.kind), int(c.space)}];
          g.instructions += c.instructions;
          g.lanes += c.lanes;
          g.wavefronts += c.wavefronts;
          g.sectors += c.sectors;
        }
        ++compared;
        for (const auto& [key, w] : want) {
          const Sums g = got.count(key) ? got[key] : Sums{};
          const std::string where = e.spec.name + " " + v.id + " launch " + std::to_string(l) + " " +
                                    std::get<0>(key) + ":" + std::to_string(std::get<1>(key)) +
                                    (std::get<3>(key) ? " shared" : " global") +
                                    (std::get<2>(key) == 0 ? " load" : std::get<2>(key) == 1 ? " store" : " atomic");
          EXPECT_EQ(g.lanes, w.lanes) << where << ": active lanes";
          if (exact) {
            EXPECT_EQ(g.instructions, w.instructions) << where << ": instructions";
            EXPECT_EQ(g.wavefronts, w.wavefronts) << where << ": wavefronts";
            EXPECT_EQ(g.sectors, w.sectors) << where << ": sectors";
          }
        }
        EXPECT_EQ(got.size(), want.size()) << e.spec.name << " " << v.id << " launch " << l << ": sites counted";
        // The analysis' whole-grid numbers from those counters equal the emulator's totals of every
        // block: what the Lab's "grid confl." and `analyze`'s grid section show.
        const analysis::GridCounters grid = analysis::analyze(t).grid;
        ASSERT_TRUE(grid.present) << e.spec.name << " " << v.id;
        EXPECT_EQ(grid.blocks, rep.total_blocks);
        for (int k = 0; k < 3; ++k) {
          EXPECT_EQ(grid.shared[k].lane_accesses, rep.totals.shared[k].lane_accesses) << e.spec.name << " " << v.id;
          EXPECT_EQ(grid.global[k].lane_accesses, rep.totals.global[k].lane_accesses) << e.spec.name << " " << v.id;
          if (!exact) continue;
          EXPECT_EQ(grid.shared[k].conflicts, rep.totals.shared[k].conflicts) << e.spec.name << " " << v.id;
          EXPECT_EQ(grid.shared[k].wavefronts, rep.totals.shared[k].wavefronts) << e.spec.name << " " << v.id;
          EXPECT_EQ(grid.global[k].sectors, rep.totals.global[k].sectors) << e.spec.name << " " << v.id;
          EXPECT_EQ(grid.global[k].bytes_requested, rep.totals.global[k].bytes_requested) << e.spec.name << " " << v.id;
        }
      }
    }
  }
  std::printf("site counters compared on %d launches\n", compared);
  EXPECT_GT(compared, 10);
}

// Live timing's points after the first: the run kept on the device is timed again without being
// run, and its replays take as long as the run's own (the same launches on the same memory).
TEST(GpuTiming, AKeptRunIsTimedAgainWithoutRunningIt) {
  REQUIRE_GPU();
  RunConfig cfg;
  cfg.variant = "3";
  cfg.n = 1 << 22;
  cfg.timing.warmup = 2;
  cfg.timing.reps = 9;
  cfg.timing.keep = true;
  const RunResult r = Catalog::instance().run("reduce", cfg, BackendKind::GpuFast);
  ASSERT_TRUE(r.passed) << r.result;
  ASSERT_TRUE(r.timing.replay);
  ASSERT_EQ(r.timing.ms.size(), 9u);
  RunTiming again;
  std::string err;
  ASSERT_TRUE(r.timing.replay->time(cfg.timing, again, err)) << err;
  ASSERT_EQ(again.ms.size(), 9u);
  EXPECT_EQ(again.bytes, r.timing.bytes);
  EXPECT_EQ(again.launches, r.timing.launches);
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  EXPECT_NEAR(median(again.ms) / median(r.timing.ms), 1.0, 0.25);
  // Without keep nothing stays on the device.
  cfg.timing.keep = false;
  EXPECT_FALSE(Catalog::instance().run("reduce", cfg, BackendKind::GpuFast).timing.replay);
}

// matmul's cuBLAS reference multiplies like the kernels (checked against the CPU), and a sampled
// check at a size past the emulator's (4096^3) still finds the product right.
TEST(GpuTiming, TheCublasReferenceAndASampledCheckAtGpuSize) {
  REQUIRE_GPU();
  RunConfig cfg;
  cfg.variant = "cublas";
  cfg.n = 96;
  cfg.params = {{"k", 40}, {"m", 70}};
  RunResult r = Catalog::instance().run("matmul", cfg, BackendKind::GpuFast);
  if (r.refused.find("cuBLAS") != std::string::npos) GTEST_SKIP() << r.refused;
  EXPECT_TRUE(r.passed) << r.refused << r.result << " vs " << r.expected;
  cfg.variant = "tiled";
  cfg.n = 2048;
  cfg.params.clear();
  cfg.block = {16, 16, 1};
  r = Catalog::instance().run("matmul", cfg, BackendKind::GpuFast);
  EXPECT_TRUE(r.passed) << r.refused << r.result << " vs " << r.expected;
  EXPECT_NE(r.check.find("of 4194304 elements"), std::string::npos) << r.check;
}

// gpu-trace records the warp shuffles: reduce 8's warp-level sum is 5 __shfl_down_sync per warp
// (offsets 16, 8, 4, 2, 1), each by the 32 lanes of the warp, as the emulator records them.
TEST(GpuTrace, RecordsShuffles) {
  REQUIRE_GPU();
  RunConfig cfg;
  cfg.variant = "8";
  cfg.n = 1 << 16;
  cfg.block = {256, 1, 1};
  cfg.record.blocks = {0};
  RunResult gpu = Catalog::instance().run("reduce", cfg, BackendKind::GpuTrace);
  ASSERT_TRUE(gpu.completed) << (gpu.errors.empty() ? "" : gpu.errors[0].message);
  const Trace& t = gpu.launches.at(0);
  std::map<uint32_t, uint32_t> shuffles_per_warp;
  for (const Event& e : t.events)
    if (e.type == EventType::WarpSync && WarpOp(e.op) == WarpOp::ShflDown) {
      EXPECT_EQ(e.mask, 0xffffffffu);
      EXPECT_EQ(e.aux(), 0xffffffffu);
      ++shuffles_per_warp[e.warp];
    }
  ASSERT_FALSE(shuffles_per_warp.empty());
  for (const auto& [warp, count] : shuffles_per_warp) EXPECT_EQ(count % 5, 0u) << "warp " << warp;
}
