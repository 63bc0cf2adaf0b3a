// The Timing panel: drawn headless with synthetic samples (the bars' pixels are the numbers'),
// the emulator's counts where there is no GPU (checked against the lecture: variant 2 has bank
// conflicts, 3 none), the runner's background jobs, and `warpscope bench` without a GPU.
#include "headless_gl.h"
#include "run_binary.h"

#include "model/session.h"
#include "model/timing_runner.h"
#include "views/timing.h"

#include "synthetic_table.h"

#include "ws/timing/recording.h"
#include "ws/viz/colormap.h"
#include "ws/viz/drawn_text.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/panel_capture.h"
#include "ws/viz/png.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <thread>

using ws::app::TimingRunner;
using ws::app::TimingSnapshot;
using ws::app::TimingView;

namespace {

using TimingPanel = wstest::HeadlessGl;

}  // namespace

// The Variants tab with a table in hand: one bar per variant, each as tall as its GB/s, in the
// series' color; the ceiling is a line above them.
TEST_F(TimingPanel, VariantBarsAreTheirBandwidth) {
  TimingRunner runner;
  TimingSnapshot snap;
  snap.table = wstest::synthetic_table();
  snap.ceilings = snap.table->ceilings;
  runner.set_snapshot(snap);
  TimingView st(runner);
  st.asked_ceilings = true;  // (no request to a GPU that is not there)
  ws::viz::PanelCapture cap{"Timing", ImVec2(1100, 760), ws::viz::Look{1.0f, false}, 1.0f,
                            [&] { st.draw(ws::app::session()); }};
  ws::viz::Image img;
  std::string err;
  ASSERT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
  if (const char* keep = std::getenv("WS_KEEP_PNG")) (void)ws::viz::save_png(std::string(keep) + "/timing_variants.png", img);
  const ws::viz::PlotState& ps = st.variants_plot;
  EXPECT_EQ(ps.drawn_bars, 5);
  const ws::viz::PlotRange r = ps.range;
  auto px = [&](double x) { return ps.area_min.x + float((x - r.x0) / (r.x1 - r.x0)) * (ps.area_max.x - ps.area_min.x); };
  auto py = [&](double y) { return ps.area_max.y - float((y - r.y0) / (r.y1 - r.y0)) * (ps.area_max.y - ps.area_min.y); };
  const ImVec4 c = ws::viz::category(1);
  auto is_bar = [&](double x, double y) {
    const uint8_t* p = img.pixel(int(px(x)), int(py(y)));
    return std::abs(p[0] - int(std::lround(c.x * 255))) <= 3 && std::abs(p[1] - int(std::lround(c.y * 255))) <= 3 &&
           std::abs(p[2] - int(std::lround(c.z * 255))) <= 3;
  };
  const ws::timing::ReductionTable& t = *snap.table;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const double gbps = t.rows[i].m.gbps;
    // Inside the bar, a little left of its middle (the whisker runs down the middle).
    EXPECT_TRUE(is_bar(double(i) - 0.2, gbps * 0.5)) << "bar " << i << " at half height";
    EXPECT_TRUE(is_bar(double(i) - 0.2, gbps * 0.9)) << "bar " << i << " near its top";
    EXPECT_FALSE(is_bar(double(i) - 0.2, gbps * 1.15)) << "above bar " << i;
  }
  // The y range holds the 4000 GB/s ceiling line above the tallest bar (CUB, 2500 GB/s).
  EXPECT_GE(r.y1, 4000.0);
}

// Without a GPU the panel counts on the emulator: variant 2 of the lecture has bank conflicts, 3
// has none, and every variant gets a bar.
TEST_F(TimingPanel, WithoutAGpuItShowsTheEmulatorsCounts) {
  if (ws::timing::device().present) GTEST_SKIP() << "this machine has a GPU: the panel times instead";
  TimingRunner runner;
  ws::RunConfig cfg;
  cfg.variant = "3";
  cfg.n = 1024;
  cfg.block = {128, 1, 1};
  runner.request_counts("reduce", cfg);
  ASSERT_TRUE(runner.wait_idle());
  const auto snap = runner.snapshot();
  ASSERT_FALSE(snap->counts.empty());
  const ws::timing::VariantCounts* v2 = nullptr;
  const ws::timing::VariantCounts* v3 = nullptr;
  for (const auto& c : snap->counts) {
    EXPECT_TRUE(c.ok) << c.variant << ": " << c.error;
    EXPECT_NE(c.variant, "cub");  // GPU-only: not counted
    EXPECT_NE(c.variant, "5u");   // broken on purpose: not in the comparison
    if (c.variant == "2") v2 = &c;
    if (c.variant == "3") v3 = &c;
  }
  ASSERT_TRUE(v2 && v3);
  EXPECT_GT(v2->shared_conflicts, 0u);
  EXPECT_EQ(v3->shared_conflicts, 0u);
  // Variant 1's divergent branching: lower SIMD efficiency than variant 3's.
  EXPECT_LT(snap->counts[0].simd_efficiency, v3->simd_efficiency);

  // Drawn: one bar per counted variant (the view asks for the session's run; the key matches).
  TimingView st(runner);
  ws::app::Session& s = ws::app::session();
  ws::app::RunRequest req = ws::app::default_request();
  req.config = cfg;
  s.request(req);
  ASSERT_TRUE(s.wait_idle());
  st.counts_requested = ws::app::Session::history_key("reduce", s.last_request().config);
  st.count_metric = 1;  // bank conflicts
  // The reduction has a recording made on a GPU (assets/timing/): a slide shows that time, saying
  // so; a kernel without one shows the counts.
  std::vector<ws::timing::TimingRecording> shipped = ws::timing::shipped_timing_recordings();
  const ws::timing::ReductionTable* recorded = nullptr;
  for (const auto& r : shipped)
    if (!r.reductions.empty()) recorded = r.reduction_table(1ull << 22);
  ASSERT_TRUE(recorded) << "no reduction table in assets/timing/";
  std::string drawn;
  ws::viz::PanelCapture cap{"Timing", ImVec2(1000, 640), ws::viz::Look{1.0f, false}, 1.0f, [&] {
                              st.draw(s);
                              drawn.clear();
                              for (const auto& t : ws::viz::drawn_text(*ImGui::GetWindowDrawList(), *ImGui::GetIO().Fonts))
                                drawn += t.text + "\n";
                            }};
  ws::viz::Image img;
  std::string err;
  ASSERT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
  EXPECT_NE(drawn.find("No GPU here: recorded on NVIDIA"), std::string::npos) << drawn;
  EXPECT_EQ(st.variants_plot.drawn_bars, int(recorded->rows.size()));
  EXPECT_EQ(st.counts_plot.drawn_bars, 0);  // no barrier counts standing in for time

  // A kernel with no recording: the emulator's counts, one bar per counted variant.
  req.kernel = "bank";
  req.config = ws::RunConfig{};
  s.request(req);
  ASSERT_TRUE(s.wait_idle());
  TimingView bank(runner);
  ASSERT_TRUE(ws::viz::render_panel(
      ws::viz::PanelCapture{"Timing", ImVec2(1000, 640), ws::viz::Look{1.0f, false}, 1.0f, [&] { bank.draw(s); }}, img, err))
      << err;
  ASSERT_TRUE(runner.wait_idle());
  ASSERT_TRUE(ws::viz::render_panel(
      ws::viz::PanelCapture{"Timing", ImVec2(1000, 640), ws::viz::Look{1.0f, false}, 1.0f, [&] { bank.draw(s); }}, img, err))
      << err;
  EXPECT_EQ(bank.counts_plot.drawn_bars, int(runner.snapshot()->counts.size()));
  EXPECT_GT(bank.counts_plot.drawn_bars, 0);
  s.request(ws::app::default_request());  // (the tests after this one draw the default run)
  ASSERT_TRUE(s.wait_idle());
}

TEST(TimingRunnerJobs, NewerRequestOfTheSameKindReplacesAQueuedOne) {
  if (ws::timing::device().present) GTEST_SKIP() << "uses the no-GPU path";
  TimingRunner runner;
  ws::RunConfig a, b;
  a.n = 512;
  a.block = {64, 1, 1};
  b = a;
  b.n = 256;
  runner.request_counts("reduce", a);
  runner.request_counts("reduce", b);
  ASSERT_TRUE(runner.wait_idle());
  EXPECT_EQ(runner.snapshot()->counts_config.n, 256u);  // the last request's counts are shown
  EXPECT_TRUE(runner.snapshot()->status.empty());
}

// The program stops the runner before main() returns (a count still going at exit used the
// emulator's tables after they were destroyed: a crash in CI). stop() cancels the count going
// and joins: it returns with the count cut short, not after every variant was counted.
TEST(TimingRunnerJobs, StopCancelsTheCountGoingAndJoins) {
  if (ws::timing::device().present) GTEST_SKIP() << "uses the no-GPU path";
  TimingRunner runner;
  ws::RunConfig cfg;
  cfg.n = 4096;
  runner.request_counts("reduce", cfg);
  ASSERT_TRUE(runner.wait_idle());
  const size_t every_variant = runner.snapshot()->counts.size();  // what a whole count gives
  ASSERT_GT(every_variant, 5u);
  cfg.n = 1u << 22;  // seconds for all variants on the emulator
  runner.request_counts("reduce", cfg);
  for (int i = 0; i < 400 && runner.snapshot()->status.rfind("counting", 0) != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(runner.snapshot()->status.rfind("counting", 0), 0u) << runner.snapshot()->status;
  runner.stop();
  EXPECT_FALSE(runner.busy());
  const auto snap = runner.snapshot();
  EXPECT_TRUE(snap->counts_config.n != cfg.n || snap->counts.size() < every_variant)
      << "stop() waited for the whole count";
  runner.request_counts("reduce", cfg);  // after stop(): never runs
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(runner.busy());  // queued, and stays so
}

TEST(TimingRunnerJobs, MeasuringWithoutAGpuSaysWhy) {
  if (ws::timing::device().present) GTEST_SKIP() << "this machine has a GPU";
  ws::RunConfig cfg;
  cfg.variant = "3";
  const ws::timing::Measurement m = ws::timing::measure(ws::Catalog::instance(), "reduce", cfg);
  EXPECT_FALSE(m.ok);
  EXPECT_FALSE(m.error.empty());
  const ws::timing::Ceilings c = ws::timing::measure_ceilings();
  EXPECT_FALSE(c.ok);
  EXPECT_FALSE(c.error.empty());
}

TEST(BenchCli, WithoutAGpuExitsOneWithTheReason) {
  if (ws::timing::device().present) GTEST_SKIP() << "this machine has a GPU";
  RunResult r = run_warpscope("bench --n 1024");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("bench times kernels on a CUDA GPU, and there is none"), std::string::npos) << r.out;
  RunResult bad = run_warpscope("bench --block 100");
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
}

// The Live tab: one line per configuration timed, in both plots (time and bandwidth).
TEST_F(TimingPanel, LiveHasOneLinePerConfiguration) {
  TimingRunner runner;
  TimingSnapshot snap;
  for (int i = 0; i < 12; ++i) {
    const bool second = i >= 5;  // the lab moved from variant 3 to variant 9 after 5 points
    const double ms = second ? 0.036 : 0.089;
    snap.live.push_back({0.25 * i, second ? "reduce 9, n = 2^24, block 256" : "reduce 3, n = 2^24, block 256", ms,
                         ws::analysis::gigabytes_per_second(uint64_t(4) << 24, ms), ms * 0.98, ms * 1.02});
  }
  runner.set_snapshot(snap);
  TimingView st(runner);
  st.asked_ceilings = true;
  st.open_tab = 1;
  ws::viz::PanelCapture cap{"Timing", ImVec2(1000, 700), ws::viz::Look{1.0f, false}, 1.0f,
                            [&] { st.draw(ws::app::session()); }};
  ws::viz::Image img;
  std::string err;
  ASSERT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
  if (const char* keep = std::getenv("WS_KEEP_PNG")) (void)ws::viz::save_png(std::string(keep) + "/timing_live.png", img);
  EXPECT_EQ(st.live_ms_plot.drawn_points, 12);
  EXPECT_EQ(st.live_gbps_plot.drawn_points, 12);
  // Time runs along x: the last point (2.75 s) is inside the fitted range.
  EXPECT_GE(st.live_ms_plot.range.x1, 2.75);
  EXPECT_LE(st.live_ms_plot.range.x0, 0.0);
}

// The Sweep tab: a point per value that ran; a refused value leaves a gap, not a zero.
TEST_F(TimingPanel, SweepDrawsAPointPerTimedValue) {
  TimingRunner runner;
  TimingSnapshot snap;
  snap.sweep_title = "reduce 9";
  snap.sweep_axis = "block";
  for (int64_t b : {32, 64, 128, 256, 512, 1024}) {
    ws::timing::SweepPoint p;
    p.x = b;
    p.m.ok = b != 32;  // pretend 32 was refused
    p.m.error = "refused";
    p.m.gbps = 1000.0 + double(b);
    snap.sweep.push_back(p);
  }
  runner.set_snapshot(snap);
  TimingView st(runner);
  st.asked_ceilings = true;
  st.open_tab = 2;
  ws::viz::PanelCapture cap{"Timing", ImVec2(1000, 600), ws::viz::Look{1.0f, false}, 1.0f,
                            [&] { st.draw(ws::app::session()); }};
  ws::viz::Image img;
  std::string err;
  ASSERT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
  if (const char* keep = std::getenv("WS_KEEP_PNG")) (void)ws::viz::save_png(std::string(keep) + "/timing_sweep.png", img);
  EXPECT_EQ(st.sweep_plot.drawn_points, 5);
  EXPECT_GE(st.sweep_plot.range.y1, 2024.0);
}

// On a slide a variant that was not timed (refused, faulted) leaves the chart and the table, and
// a footnote says which and why: no error text in the middle of a slide.
TEST_F(TimingPanel, ASlideLeavesUntimedVariantsToAFootnote) {
  TimingRunner runner;
  TimingSnapshot snap;
  snap.table = wstest::synthetic_table();
  snap.table->rows[2].m.ok = false;
  snap.table->rows[2].m.error = "refused: variant 3 needs a power-of-two block. Try 256.";
  snap.ceilings = snap.table->ceilings;
  runner.set_snapshot(snap);
  for (bool controls : {true, false}) {
    TimingView st(runner);
    st.asked_ceilings = true;
    st.controls = controls;
    std::string drawn;
    ws::viz::PanelCapture cap{"Timing", ImVec2(1100, 700), ws::viz::Look{1.0f, true}, 1.0f, [&] {
                                st.draw(ws::app::session());
                                for (const auto& t : ws::viz::drawn_text(*ImGui::GetWindowDrawList(), *ImGui::GetIO().Fonts))
                                  drawn += t.text + "\n";
                              }};
    ws::viz::Image img;
    std::string err;
    ASSERT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
    if (!controls) {
      EXPECT_EQ(st.variants_plot.drawn_bars, 4);
      EXPECT_NE(drawn.find("not timed: 3 (refused)"), std::string::npos) << drawn;
    }
  }
}

// As a picture (a lesson's slide, controls off) the Variants tab fits its box: the plot gives
// way to every row of the table, nothing scrolls.
TEST_F(TimingPanel, APictureOfTheVariantsFitsItsBox) {
  TimingRunner runner;
  TimingSnapshot snap;
  snap.table = wstest::synthetic_table();
  snap.ceilings = snap.table->ceilings;
  runner.set_snapshot(snap);
  for (const auto& [w, h] : {std::pair{1800, 860}, std::pair{1180, 560}}) {
    TimingView st(runner);
    st.asked_ceilings = true;
    st.controls = false;
    float scroll_y = -1, scroll_x = -1;
    ws::viz::PanelCapture cap{"Timing", ImVec2(float(w), float(h)), ws::viz::Look{float(h) / 860.0f, true}, 1.0f, [&] {
                                st.draw(ws::app::session());
                                scroll_y = ImGui::GetScrollMaxY();
                                scroll_x = ImGui::GetScrollMaxX();
                              }};
    ws::viz::Image img;
    std::string err;
    ASSERT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
    if (const char* keep = std::getenv("WS_KEEP_PNG"))
      (void)ws::viz::save_png(std::string(keep) + "/timing_picture_" + std::to_string(w) + ".png", img);
    EXPECT_EQ(scroll_y, 0.0f) << w << "x" << h;
    EXPECT_EQ(scroll_x, 0.0f) << w << "x" << h;
    EXPECT_EQ(st.variants_plot.drawn_bars, 5);
  }
}

namespace {

// The lab shows `kernel` for the length of a test, then the default run again.
struct LabShows {
  explicit LabShows(const std::string& kernel, const std::string& variant) {
    ws::app::RunRequest r;
    r.kernel = kernel;
    r.config.variant = variant;
    ws::app::session().request(r);
  }
  ~LabShows() { ws::app::session().request(ws::app::default_request()); }
};

ws::timing::KernelRow timed_row(const std::string& variant, ws::Dim3 block, double ms, double gflops) {
  ws::timing::KernelRow r;
  r.m.variant = variant;
  r.m.ok = r.m.passed = true;
  r.m.config.block = block;
  r.m.samples = {ms, ms, ms};
  r.m.stats = ws::analysis::summarize(r.m.samples);
  r.m.gflops = gflops;
  r.m.flops = gflops * ms * 1e6;
  return r;
}

}  // namespace

// Any kernel but the reduction: its own table, bars in GFLOP/s for a kernel that computes, each as
// tall as its rate, the datasheet peak a line above them.
TEST_F(TimingPanel, AComputeKernelsVariantsAreGflopsBesideItsReference) {
  LabShows lab("matmul", "tiled");
  TimingRunner runner;
  TimingSnapshot snap;
  ws::timing::KernelTable t;
  t.kernel = "matmul";
  t.ceiling = ws::TimingSpec::Ceiling::Fp32;
  t.reference = "cublas";
  t.fp32_peak_gflops = 60000;
  t.launch.name = "matmul tiled, 4096 x 4096, block 16x16, float";
  t.launch.changes = {"n 64 -> 4096 (4096 x 4096; the lab's size is for the emulator)"};
  t.rows = {timed_row("naive", {16, 16, 1}, 40, 3400), timed_row("tiled", {16, 16, 1}, 20, 6900),
            timed_row("cublas", {16, 16, 1}, 3, 45000)};
  ws::timing::fill_ratios(t);
  snap.kernel_table = t;
  runner.set_snapshot(snap);
  TimingView st(runner);
  st.asked_ceilings = true;
  ws::viz::PanelCapture cap{"Timing", ImVec2(1100, 760), ws::viz::Look{1.0f, false}, 1.0f,
                            [&] { st.draw(ws::app::session()); }};
  ws::viz::Image img;
  std::string err;
  ASSERT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
  if (const char* keep = std::getenv("WS_KEEP_PNG")) (void)ws::viz::save_png(std::string(keep) + "/timing_matmul.png", img);
  const ws::viz::PlotState& ps = st.variants_plot;
  EXPECT_EQ(ps.drawn_bars, 3);
  EXPECT_GE(ps.range.y1, 60000.0);  // the peak line is in view
  EXPECT_NEAR(t.rows[1].vs_reference, 3.0 / 20.0, 1e-12);
}

// Seed 000's experiment: a sweep over block shapes is one bar per shape, named by the shape.
TEST_F(TimingPanel, ABlockShapeSweepIsABarPerShape) {
  LabShows lab("matadd", "row");
  TimingRunner runner;
  TimingSnapshot snap;
  snap.sweep_title = "matadd row";
  snap.sweep_axis = "block shape";
  snap.sweep_kernel = "matadd";
  const ws::Dim3 shapes[] = {{16, 16, 1}, {128, 2, 1}, {32, 8, 1}, {8, 32, 1}};
  for (size_t i = 0; i < std::size(shapes); ++i) {
    ws::timing::SweepPoint p;
    p.x = int64_t(i);
    p.label = ws::timing::block_text(shapes[i]);
    p.m.ok = true;
    p.m.gbps = 1500.0 + 100.0 * double(i);
    snap.sweep.push_back(p);
  }
  runner.set_snapshot(snap);
  TimingView st(runner);
  st.asked_ceilings = true;
  st.open_tab = 2;
  ws::viz::PanelCapture cap{"Timing", ImVec2(1000, 600), ws::viz::Look{1.0f, false}, 1.0f,
                            [&] { st.draw(ws::app::session()); }};
  ws::viz::Image img;
  std::string err;
  ASSERT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
  if (const char* keep = std::getenv("WS_KEEP_PNG")) (void)ws::viz::save_png(std::string(keep) + "/timing_shapes.png", img);
  EXPECT_EQ(st.sweep_plot.drawn_bars, 4);
  EXPECT_GE(st.sweep_plot.range.y1, 1800.0);
}
