// The plot widget: tick placement, labels, ranges, zoom, CSV export (pure functions), and the
// drawn bars' pixels (headless, Mesa).
#include <gtest/gtest.h>

#include <cmath>

#include "ws/viz/colormap.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/panel_capture.h"
#include "ws/viz/plot.h"

namespace ws::viz {
namespace {

TEST(PlotTicks, OneTwoFiveSteps) {
  // [0, 1] with at most 6 ticks: step 0.2 -> 0, 0.2, ..., 1.
  std::vector<double> t = nice_ticks(0, 1, 6);
  ASSERT_EQ(t.size(), 6u);
  for (size_t i = 0; i < t.size(); ++i) EXPECT_NEAR(t[i], 0.2 * double(i), 1e-12);
  // [0.013, 0.087], 5 ticks: raw step 0.0185 -> 0.02: 0.02 0.04 0.06 0.08 (all inside).
  t = nice_ticks(0.013, 0.087, 5);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_NEAR(t.front(), 0.02, 1e-12);
  EXPECT_NEAR(t.back(), 0.08, 1e-12);
  // [0, 4300] (GB/s), 6 ticks: raw 860 -> 1000: 0 1000 2000 3000 4000.
  t = nice_ticks(0, 4300, 6);
  ASSERT_EQ(t.size(), 5u);
  EXPECT_DOUBLE_EQ(t.back(), 4000);
  EXPECT_DOUBLE_EQ(nice_step(0, 4300, 6), 1000);
  // A step of 5: [0, 23], 6 ticks: raw 4.6 -> 5: 0 5 10 15 20.
  EXPECT_DOUBLE_EQ(nice_step(0, 23, 6), 5);
  // Negative to positive: [-1.5, 1.5], 7 ticks -> step 0.5, 0 exactly (not -0).
  t = nice_ticks(-1.5, 1.5, 7);
  ASSERT_EQ(t.size(), 7u);
  EXPECT_EQ(std::signbit(t[3]), false);
  EXPECT_DOUBLE_EQ(t[3], 0.0);
}

TEST(PlotTicks, NeverMoreThanAsked) {
  for (double hi : {0.7, 1.0, 3.3, 9.99, 17.0, 123.0, 4999.0, 1e7})
    for (int n = 2; n <= 12; ++n) {
      const std::vector<double> t = nice_ticks(0, hi, n);
      EXPECT_LE(int(t.size()), n) << hi << " " << n;
      EXPECT_GE(t.size(), 1u);
      for (double v : t) {
        EXPECT_GE(v, -1e-12);
        EXPECT_LE(v, hi * (1 + 1e-12));
      }
    }
}

TEST(PlotTicks, DegenerateRange) {
  EXPECT_EQ(nice_ticks(3, 3, 5), std::vector<double>{3});
  EXPECT_EQ(nice_ticks(5, 1, 5), std::vector<double>{5});
}

TEST(PlotTicks, Labels) {
  EXPECT_EQ(format_tick(0.2, 0.2), "0.2");
  EXPECT_EQ(format_tick(0.25, 0.25), "0.25");
  EXPECT_EQ(format_tick(1500, 500), "1500");
  EXPECT_EQ(format_tick(0, 0.05), "0.00");
  EXPECT_EQ(format_tick(2.5e6, 5e5), "2.5e+06");
}

TEST(PlotRange, FitsDataWithHeadroomAndZero) {
  PlotSpec spec;
  spec.series.push_back({"a", {1, 2, 3}, {10, 20, 30}});
  PlotRange r = fit_range(spec);
  EXPECT_DOUBLE_EQ(r.x0, 1 - 0.04);  // 2% of the x span on each side
  EXPECT_DOUBLE_EQ(r.x1, 3 + 0.04);
  EXPECT_DOUBLE_EQ(r.y0, 0);            // from zero
  EXPECT_DOUBLE_EQ(r.y1, 30 + 0.05 * 30);  // 5% headroom
  spec.y_from_zero = false;
  r = fit_range(spec);
  EXPECT_DOUBLE_EQ(r.y0, 10);
  EXPECT_DOUBLE_EQ(r.y1, 30 + 0.05 * 20);
}

TEST(PlotRange, CategoriesGetHalfACategoryMargin) {
  PlotSpec spec;
  spec.categories = {"1", "2", "3", "cub"};
  PlotSeries s{"t", {}, {4, 3, 2, 1}};
  s.style = PlotStyle::Bars;
  spec.series.push_back(s);
  spec.lines.push_back({5, "ceiling"});
  const PlotRange r = fit_range(spec);
  EXPECT_DOUBLE_EQ(r.x0, -0.5);
  EXPECT_DOUBLE_EQ(r.x1, 3.5);
  EXPECT_DOUBLE_EQ(r.y1, 5 * 1.05);  // the reference line is inside
}

TEST(PlotRange, SpreadAndEmpty) {
  PlotSpec spec;
  PlotSeries p{"a", {}, {2}, PlotStyle::Points};
  p.y_lo = {1};
  p.y_hi = {3};
  spec.series.push_back(p);
  PlotRange r = fit_range(spec);
  EXPECT_DOUBLE_EQ(r.x0, -0.5);  // one point: widened
  EXPECT_DOUBLE_EQ(r.x1, 0.5);
  EXPECT_DOUBLE_EQ(r.y1, 3 * 1.05);  // the whisker top counts
  EXPECT_TRUE(fit_range(PlotSpec{}).valid());
}

TEST(PlotRange, ZoomKeepsTheAnchor) {
  double lo = 0, hi = 10;
  zoom_range(lo, hi, 2, 0.5);  // zoom in around 2
  EXPECT_DOUBLE_EQ(lo, 1);
  EXPECT_DOUBLE_EQ(hi, 6);
}

TEST(PlotCsv, CategoriesUnitsSpreadAndQuoting) {
  PlotSpec spec;
  spec.x = {"variant", ""};
  spec.y = {"time", "ms"};
  spec.categories = {"1", "2, bank conflicts"};
  PlotSeries s{"H200", {}, {8.054, 3.456}, PlotStyle::Bars};
  s.y_lo = {8.0, 3.4};
  s.y_hi = {8.1, 3.5};
  s.labels = {"", "2.33x"};
  spec.series.push_back(s);
  EXPECT_EQ(to_csv(spec),
            "series,variant,time (ms),low,high,label\n"
            "H200,1,8.054,8,8.1,\n"
            "H200,\"2, bank conflicts\",3.456,3.4,3.5,2.33x\n");
}

TEST(PlotCsv, NumericX) {
  PlotSpec spec;
  spec.x = {"block size", "threads"};
  spec.y = {"bandwidth", "GB/s"};
  spec.series.push_back({"say \"hi\"", {128, 256}, {100.5, 200}});
  EXPECT_EQ(to_csv(spec),
            "series,block size (threads),bandwidth (GB/s)\n"
            "\"say \"\"hi\"\"\",128,100.5\n"
            "\"say \"\"hi\"\"\",256,200\n");
}

// A bar chart drawn headless: each bar's middle has its series' Okabe-Ito color, and a taller
// value makes a taller bar.
TEST(PlotDraw, BarsHaveTheirColorsAndHeights) {
  std::string err;
  auto ctx = HeadlessContext::create(err);
  ASSERT_TRUE(ctx) << err;
  PlotSpec spec;
  spec.title = "bars";
  spec.y = {"time", "ms"};
  spec.categories = {"a", "b"};
  PlotSeries s1{"first", {}, {1, 3}, PlotStyle::Bars};
  PlotSeries s2{"second", {}, {2, 2}, PlotStyle::Bars};
  spec.series = {s1, s2};
  PlotState st;
  Look look{1.0f, false};
  PanelCapture cap{"Plot", ImVec2(600, 400), look, 1.0f,
                   [&] { draw_plot("p", spec, st, ImVec2(560, 330)); }};
  Image img;
  ASSERT_TRUE(render_panel(cap, img, err)) << err;
  EXPECT_EQ(st.drawn_bars, 4);
  // Map data to pixels the way the widget did, from the rectangle it reports.
  const PlotRange r = st.range;
  auto px = [&](double x) { return st.area_min.x + float((x - r.x0) / (r.x1 - r.x0)) * (st.area_max.x - st.area_min.x); };
  auto py = [&](double y) { return st.area_max.y - float((y - r.y0) / (r.y1 - r.y0)) * (st.area_max.y - st.area_min.y); };
  auto color_at = [&](double x, double y) {
    const uint8_t* p = img.pixel(int(px(x)), int(py(y)));
    return std::array<int, 3>{p[0], p[1], p[2]};
  };
  auto expect_color = [&](double x, double y, int cat) {
    const ImVec4 c = category(cat);
    const std::array<int, 3> got = color_at(x, y);
    EXPECT_NEAR(got[0], std::lround(c.x * 255), 3) << x << "," << y;
    EXPECT_NEAR(got[1], std::lround(c.y * 255), 3) << x << "," << y;
    EXPECT_NEAR(got[2], std::lround(c.z * 255), 3) << x << "," << y;
  };
  // Groups are 0.8 wide: series 0 at x - 0.2, series 1 at x + 0.2.
  expect_color(0 - 0.2, 0.5, 0);  // a: first = 1
  expect_color(0 + 0.2, 1.5, 1);  // a: second = 2
  expect_color(1 - 0.2, 2.8, 0);  // b: first = 3
  // Above the shorter bar is the plot background, not the bar's color.
  const std::array<int, 3> above = color_at(0 - 0.2, 1.5);
  const ImVec4 c0 = category(0);
  EXPECT_FALSE(std::abs(above[0] - std::lround(c0.x * 255)) <= 3 && std::abs(above[1] - std::lround(c0.y * 255)) <= 3);
}

// In a panel that scrolls, the wheel over a plot scrolls the panel; the plot zooms only once it
// was clicked (until the mouse leaves it) or while Ctrl is held, and then the panel stays put.
TEST(PlotDraw, TheWheelScrollsThePanelUntilThePlotIsClicked) {
  ImGuiContext* ctx = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(800, 600);
  unsigned char* pixels = nullptr;
  int tw = 0, th = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);
  PlotSpec spec;
  spec.categories = {"a", "b", "c"};
  spec.series = {PlotSeries{"s", {}, {1, 2, 3}, PlotStyle::Bars}};
  PlotState st;
  float scroll = 0;
  auto frame = [&](ImVec2 mouse, float wheel, bool down, bool ctrl) {
    io.DeltaTime = 1.0f / 60.0f;
    io.MousePos = mouse;
    io.MouseWheel = wheel;
    io.MouseDown[0] = down;
    io.KeyCtrl = ctrl;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("panel", nullptr, ImGuiWindowFlags_NoMove);
    ImGui::Dummy(ImVec2(10, 60));
    draw_plot("p", spec, st, ImVec2(600, 300));
    ImGui::Dummy(ImVec2(10, 2000));  // the panel is taller than the window: it scrolls
    scroll = ImGui::GetScrollY();
    ImGui::End();
    ImGui::Render();
  };
  frame(ImVec2(-1, -1), 0, false, false);
  const ImVec2 mid((st.area_min.x + st.area_max.x) / 2, (st.area_min.y + st.area_max.y) / 2);
  frame(mid, 0, false, false);
  frame(mid, -1, false, false);  // a passing wheel: the panel scrolls, the plot keeps its range
  frame(mid, 0, false, false);
  EXPECT_GT(scroll, 0.0f);
  EXPECT_FALSE(st.user_range);
  const float scrolled = scroll;
  // Clicked: the wheel zooms the plot, the panel stays.
  const ImVec2 on_plot((st.area_min.x + st.area_max.x) / 2, (st.area_min.y + st.area_max.y) / 2);
  frame(on_plot, 0, true, false);
  frame(on_plot, 0, false, false);
  EXPECT_TRUE(st.engaged);
  frame(on_plot, 1, false, false);
  frame(on_plot, 0, false, false);
  EXPECT_TRUE(st.user_range);
  EXPECT_FLOAT_EQ(scroll, scrolled);
  // The mouse leaves: the next wheel over it scrolls again; with Ctrl it zooms without a click.
  frame(ImVec2(790, 590), 0, false, false);
  EXPECT_FALSE(st.engaged);
  st.user_range = false;
  const ImVec2 again((st.area_min.x + st.area_max.x) / 2, (st.area_min.y + st.area_max.y) / 2);
  frame(again, 0, false, true);
  frame(again, 1, false, true);
  frame(again, 0, false, true);
  EXPECT_TRUE(st.user_range);
  ImGui::DestroyContext(ctx);
}

}  // namespace
}  // namespace ws::viz
