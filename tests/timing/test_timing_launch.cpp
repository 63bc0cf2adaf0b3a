// The timing launch (the lab's run at a GPU's size), any kernel's table from timed samples, the
// datasheet FP32 peak, and the block shapes a 2D sweep offers. No GPU needed: the rows are filled
// by hand, the expected ratios computed here from the samples.
#include <gtest/gtest.h>

#include <algorithm>

#include "ws/timing/timing.h"

namespace {

using ws::Dim3;
using ws::RunConfig;
namespace timing = ws::timing;

bool has_line(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

TEST(TimingLaunch, AMatrixKernelIsTimedAtItsSideWithTheLabsVariantAndBlock) {
  RunConfig lab;
  lab.variant = "padded";
  lab.n = 96;
  lab.block = {16, 16, 1};
  lab.dtype = "double";
  lab.params["cols"] = 40;  // a non-square lab matrix: timing is square
  lab.record.blocks = {0};
  const timing::TimingLaunch t = timing::timing_launch(ws::Catalog::instance(), "transpose", lab);
  ASSERT_TRUE(t.error.empty()) << t.error;
  EXPECT_EQ(t.config.n, 8192u);
  EXPECT_EQ(t.config.variant, "padded");
  EXPECT_EQ(t.config.block, (Dim3{16, 16, 1}));
  EXPECT_EQ(t.config.dtype, "double");
  EXPECT_EQ(t.config.param("cols", -1), 0);
  EXPECT_TRUE(t.config.record.blocks.empty());  // timing records nothing
  EXPECT_TRUE(has_line(t.changes, "n 96 -> 8192 (8192 x 8192")) << t.changes.size();
  EXPECT_TRUE(has_line(t.changes, "cols 40 -> 0"));
  EXPECT_NE(t.name.find("8192 x 8192, block 16x16, double"), std::string::npos) << t.name;
  // A size given by the panel wins over the kernel's.
  EXPECT_EQ(timing::timing_launch(ws::Catalog::instance(), "transpose", lab, 2048).config.n, 2048u);
}

TEST(TimingLaunch, DeviceTuningIsSaidAndTheLessonsParametersStay) {
  RunConfig lab;
  lab.variant = "9";
  lab.params["max_blocks"] = 16;
  const timing::TimingLaunch t = timing::timing_launch(ws::Catalog::instance(), "reduce", lab);
  ASSERT_TRUE(t.error.empty()) << t.error;
  EXPECT_EQ(t.config.n, 1u << 24);
  EXPECT_EQ(t.config.param("per_thread"), 32);
  EXPECT_EQ(t.config.param("max_blocks"), 16);  // not a timing parameter: the lab's value
  EXPECT_TRUE(has_line(t.changes, "per_thread 0 -> 32 ("));
  // Nothing to say when the lab already asks for the timing launch.
  RunConfig same = t.config;
  EXPECT_TRUE(timing::timing_launch(ws::Catalog::instance(), "reduce", same).changes.empty());
}

TEST(TimingLaunch, AOneBlockDemoKeepsItsSizeAndSaysSo) {
  RunConfig lab;
  lab.variant = "2";
  const timing::TimingLaunch t = timing::timing_launch(ws::Catalog::instance(), "race", lab);
  ASSERT_TRUE(t.error.empty()) << t.error;
  EXPECT_EQ(t.config.n, 16u);
  EXPECT_TRUE(has_line(t.changes, "one-block demo"));
}

TEST(TimingLaunch, ALabRunThatDoesNotResolveIsAnError) {
  RunConfig lab;
  lab.variant = "nope";
  EXPECT_NE(timing::timing_launch(ws::Catalog::instance(), "reduce", lab).error.find("no variant 'nope'"), std::string::npos);
  EXPECT_NE(timing::timing_launch(ws::Catalog::instance(), "nosuch", RunConfig{}).error.find("no kernel named"), std::string::npos);
}

TEST(TimingLaunch, EveryCatalogKernelHasATimingLaunchThatResolves) {
  const ws::Catalog& c = ws::Catalog::instance();
  for (const ws::CatalogEntry& e : c.entries()) {
    const timing::TimingLaunch t = timing::timing_launch(ws::Catalog::instance(), e.spec.name, RunConfig{});
    ASSERT_TRUE(t.error.empty()) << e.spec.name << ": " << t.error;
    RunConfig cfg = t.config;
    cfg.memory_limit = 64ull << 30;  // the GPU machine's host memory: here only the rules count
    EXPECT_EQ(c.resolve(e, cfg), "") << e.spec.name;
    if (e.spec.timing.scales) {
      EXPECT_GE(cfg.n, e.spec.timing.matrix ? 1000u : 1u << 20) << e.spec.name;
    }
  }
}

TEST(EmulatorLimit, GpuSizesAreRefusedOnTheEmulatorOnlyWithWhatItTakes) {
  const ws::Catalog& c = ws::Catalog::instance();
  RunConfig cfg;
  cfg.variant = "naive";
  cfg.n = 8192;
  const ws::RunResult r = c.run("transpose", cfg, ws::BackendKind::Emu);
  EXPECT_NE(r.refused.find("too many for the emulator (rows * cols <= 16777216)"), std::string::npos) << r.refused;
  EXPECT_NE(r.refused.find("the GPU backends run it"), std::string::npos) << r.refused;
  RunConfig resolved = cfg;
  EXPECT_EQ(c.resolve(*c.find("transpose"), resolved), "");  // the GPU takes it
  // Past the kernels' 32-bit indices nothing takes it.
  cfg.n = 65536;
  cfg.params["cols"] = 65536;
  EXPECT_NE(c.run("transpose", cfg, ws::BackendKind::GpuFast).refused.find("32-bit"), std::string::npos);
}

TEST(MemoryEstimate, AMatrixCountsItsElementsNotItsSide) {
  const ws::Catalog& c = ws::Catalog::instance();
  RunConfig cfg;
  cfg.variant = "naive";
  cfg.n = 4096;               // 4096 x 4096 floats = 64 MiB a matrix
  cfg.memory_limit = 100 << 20;
  const std::string why = c.run("transpose", cfg, ws::BackendKind::GpuFast).refused;
  EXPECT_NE(why.find("arrays of 16777216 floats"), std::string::npos) << why;
}

TEST(Fp32Peak, SmsTimesLanesTimesTwoTimesTheClock) {
  timing::Device d;
  d.cc_major = 9, d.cc_minor = 0, d.sm_count = 132, d.sm_clock_mhz = 1980;  // H100 SXM
  EXPECT_EQ(d.fp32_lanes_per_sm(), 128);
  EXPECT_NEAR(d.fp32_peak_gflops(), 132.0 * 128 * 2 * 1.98, 1e-6);
  d.cc_major = 8, d.cc_minor = 0, d.sm_count = 108, d.sm_clock_mhz = 1410;  // A100: 64 FP32 lanes
  EXPECT_NEAR(d.fp32_peak_gflops(), 108.0 * 64 * 2 * 1.41, 1e-6);
  d.cc_major = 3;
  EXPECT_EQ(d.fp32_peak_gflops(), 0.0);  // unknown: no made-up ceiling
}

timing::KernelRow row(const std::string& variant, double ms, uint64_t bytes, double flops = 0) {
  timing::KernelRow r;
  r.m.variant = variant;
  r.m.ok = r.m.passed = true;
  r.m.samples = {ms, ms, ms};
  r.m.stats = ws::analysis::summarize(r.m.samples);
  r.m.bytes = bytes;
  r.m.gbps = double(bytes) / (ms * 1e6);
  r.m.flops = flops;
  r.m.gflops = flops / (ms * 1e6);
  return r;
}

TEST(KernelTable, BandwidthRowsAgainstTheSameSizeCopy) {
  timing::KernelTable t;
  t.kernel = "transpose";
  t.ceiling = ws::TimingSpec::Ceiling::Copy;
  t.reference = "copy";
  t.same_size.ok = true;
  t.same_size.copy_gbps = 2000;
  t.same_size.read_gbps = 2500;
  t.rows = {row("naive", 1.0, 500'000'000), row("padded", 0.4, 500'000'000)};  // 500 and 1250 GB/s
  timing::fill_ratios(t);
  EXPECT_NEAR(t.rows[0].pct_of_ceiling, 25.0, 1e-9);
  EXPECT_NEAR(t.rows[1].pct_of_ceiling, 62.5, 1e-9);
  EXPECT_NEAR(t.rows[1].vs_reference, 1250.0 / 2000, 1e-12);
  timing::Device d;
  d.present = true;
  d.name = "Test GPU";
  const std::string text = timing::format_kernel_table(t, d);
  EXPECT_NE(text.find("x copy"), std::string::npos) << text;
  EXPECT_NE(text.find("62.5"), std::string::npos) << text;
  EXPECT_NE(text.find("device-to-device copy"), std::string::npos) << text;
}

TEST(KernelTable, ComputeRowsAgainstThePeakAndTheLibrary) {
  timing::KernelTable t;
  t.kernel = "matmul";
  t.ceiling = ws::TimingSpec::Ceiling::Fp32;
  t.reference = "cublas";
  t.fp32_peak_gflops = 50'000;
  const double flops = 2.0 * 4096.0 * 4096 * 4096;
  t.rows = {row("tiled", 20.0, 1, flops), row("cublas", 4.0, 1, flops)};
  timing::fill_ratios(t);
  EXPECT_NEAR(t.rows[0].pct_of_ceiling, 100.0 * (flops / 20e6) / 50'000, 1e-9);
  EXPECT_NEAR(t.rows[0].vs_reference, 0.2, 1e-12);  // cuBLAS's 4 ms over the tiled 20 ms
  EXPECT_NEAR(t.rows[1].vs_reference, 1.0, 1e-12);
  timing::Device d;
  const std::string text = timing::format_kernel_table(t, d);
  EXPECT_NE(text.find("GFLOP/s"), std::string::npos) << text;
  EXPECT_NE(text.find("x cublas"), std::string::npos) << text;
}

TEST(KernelTable, WithoutAGpuEveryRowSaysWhy) {
  if (timing::device().present) GTEST_SKIP() << "a GPU is present";
  const timing::KernelTable t = timing::time_kernel(ws::Catalog::instance(), "matadd", RunConfig{}, {"row"}, {{16, 16, 1}, {128, 2, 1}});
  ASSERT_EQ(t.rows.size(), 2u);
  for (const timing::KernelRow& r : t.rows) {
    EXPECT_FALSE(r.m.ok);
    EXPECT_FALSE(r.m.error.empty());
  }
  EXPECT_EQ(t.rows[1].m.variant, "row");
}

TEST(BlockShapes, A2DKernelOffersTheSeedsShapesAndATileKernelOnlyItsTiles) {
  auto has = [](const std::vector<Dim3>& v, Dim3 b) { return std::find(v.begin(), v.end(), b) != v.end(); };
  RunConfig matadd;
  matadd.variant = "row";
  const std::vector<Dim3> m = timing::block_shapes_for(ws::Catalog::instance(), "matadd", matadd);
  EXPECT_TRUE(has(m, {16, 16, 1}));
  EXPECT_TRUE(has(m, {128, 2, 1}));
  EXPECT_TRUE(has(m, {8, 32, 1}));
  RunConfig tile;
  tile.variant = "padded";
  for (const Dim3& b : timing::block_shapes_for(ws::Catalog::instance(), "transpose", tile)) EXPECT_EQ(b.x, b.y) << b.x << "x" << b.y;
  RunConfig reduce;
  reduce.variant = "3";
  for (const Dim3& b : timing::block_shapes_for(ws::Catalog::instance(), "reduce", reduce)) EXPECT_EQ(b.y, 1u);
}

}  // namespace

namespace {
// A strided read's useful bytes are the elements its threads use, not its whole allocation: the
// stride demo's GB/s then shows the sectors it wastes (stride 8 moves 8x the bytes it uses).
TEST(UsefulBytes, AStridedReadCountsTheElementsItUses) {
  const ws::CatalogEntry* e = ws::Catalog::instance().find("coalesce");
  ASSERT_NE(e, nullptr);
  ASSERT_TRUE(e->spec.timing.bytes);
  RunConfig c;
  c.variant = "stride";
  c.n = 1 << 20;
  c.dtype = "float";
  c.params = {{"stride", 8}, {"offset", 0}};
  EXPECT_EQ(e->spec.timing.bytes(c), uint64_t(2) * (1 << 20) * 4);  // n floats read, n written
  c.params["stride"] = 1;
  EXPECT_EQ(e->spec.timing.bytes(c), uint64_t(2) * (1 << 20) * 4);
  c.variant = "aos";
  EXPECT_EQ(e->spec.timing.bytes(c), uint64_t(1 << 20) * 16);  // 3 floats read, 1 written
}
}  // namespace

namespace {
// One block shape for several variants (a table, `bench -k transpose --block 32,32`): a variant
// that does not take it runs with its own shape for that width, the others keep it.
TEST(BlockForVariant, AVariantThatRefusesA2DBlockGetsItsOwnShapeForThatWidth) {
  RunConfig c;
  c.n = 96;
  c.block = {32, 32, 1};
  c.variant = "rows";
  EXPECT_EQ(timing::block_for_variant(ws::Catalog::instance(), "transpose", c), (Dim3{32, 1, 1}));  // rows makes it 32x8
  c.variant = "padded";
  EXPECT_EQ(timing::block_for_variant(ws::Catalog::instance(), "transpose", c), (Dim3{32, 32, 1}));
  c.block = {48, 4, 1};  // no tile is 48 wide: nothing fits, the block stays and the run says why
  EXPECT_EQ(timing::block_for_variant(ws::Catalog::instance(), "transpose", c), (Dim3{48, 4, 1}));
}
}  // namespace
