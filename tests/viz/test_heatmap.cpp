// Our own shaders: every file in viz/shaders/ compiles on Mesa, and the heatmap puts each value in
// its cell (row 0 on top) with the color map's ends at vmin and vmax.
#include "ws/viz/colormap.h"
#include "ws/viz/framebuffer.h"
#include "ws/viz/gl.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/heatmap.h"
#include "ws/viz/shader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

TEST(Shaders, EmbeddedAndCompile) {
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  ASSERT_TRUE(ctx) << err;
  EXPECT_FALSE(ws::viz::shader_source("heatmap.frag").empty());
  EXPECT_TRUE(ws::viz::shader_source("nope.frag").empty());
  ws::viz::ShaderProgram p;
  EXPECT_TRUE(p.build("fullscreen.vert", "heatmap.frag", err)) << err;
  EXPECT_FALSE(p.build("fullscreen.vert", "nope.frag", err));
  EXPECT_NE(err.find("nope.frag"), std::string::npos);
}

TEST(Heatmap, CellsInPlaceRowZeroOnTop) {
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  ASSERT_TRUE(ctx) << err;
  ws::viz::Framebuffer fb;
  ASSERT_TRUE(fb.resize(40, 20, err)) << err;
  fb.bind();
  // 2 x 2: top-left low, top-right high, bottom-left no data, bottom-right low.
  ws::viz::Heatmap h{2, 2, {0.0f, 10.0f, NAN, 0.0f}, 0.0f, 10.0f, 0.0f};
  ws::viz::HeatmapRenderer r;
  ASSERT_TRUE(r.draw(h, ImVec4(1, 0, 0, 1), err)) << err;
  ws::viz::Image img = fb.read();
  const uint8_t* low = img.pixel(10, 5);    // viridis(0): dark purple
  const uint8_t* high = img.pixel(30, 5);   // viridis(1): yellow
  const uint8_t* none = img.pixel(10, 15);  // empty color: red
  EXPECT_TRUE(low[0] < 90 && low[1] < 30 && low[2] > 60) << int(low[0]) << "," << int(low[1]) << "," << int(low[2]);
  EXPECT_TRUE(high[0] > 200 && high[1] > 200 && high[2] < 80) << int(high[0]) << "," << int(high[1]) << "," << int(high[2]);
  EXPECT_TRUE(none[0] == 255 && none[1] == 0 && none[2] == 0);
  EXPECT_EQ(std::memcmp(img.pixel(30, 15), low, 3), 0);
  EXPECT_FALSE(r.draw(ws::viz::Heatmap{3, 3, {1.0f}, 0, 1, 0}, ImVec4(), err));
}

// The log scale: the shader puts 4, 64 and 1024 reads a cell where log2(1 + v - vmin) says
// (computed here, not with scale_position), so counts of different orders are told apart; the
// CPU's viridis_rgb8 draws the same colours.
TEST(Heatmap, TheLogScaleSpreadsCountsOfEveryOrder) {
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  ASSERT_TRUE(ctx) << err;
  ws::viz::Framebuffer fb;
  ASSERT_TRUE(fb.resize(40, 10, err)) << err;
  fb.bind();
  const float vmin = 1, vmax = 1025;
  ws::viz::Heatmap h{4, 1, {1.0f, 4.0f, 64.0f, 1024.0f}, vmin, vmax, 0.0f};
  h.log_scale = true;
  ws::viz::HeatmapRenderer r;
  ASSERT_TRUE(r.draw(h, ImVec4(1, 0, 0, 1), err)) << err;
  const ws::viz::Image img = fb.read();
  for (int c = 0; c < 4; ++c) {
    const float v = h.values[size_t(c)];
    const float t = std::log2(1.0f + v - vmin) / std::log2(1.0f + vmax - vmin);
    EXPECT_NEAR(ws::viz::scale_position(v, vmin, vmax, true), t, 1e-5f);
    const ImVec4 want = ws::viz::viridis(t);
    const uint8_t* got = img.pixel(c * 10 + 5, 5);
    EXPECT_NEAR(got[0], want.x * 255, 3) << "cell " << c;
    EXPECT_NEAR(got[1], want.y * 255, 3) << "cell " << c;
    EXPECT_NEAR(got[2], want.z * 255, 3) << "cell " << c;
    const auto cpu = ws::viz::viridis_rgb8(v, vmin, vmax, true);
    EXPECT_NEAR(cpu[1], got[1], 3) << "cell " << c;
  }
  // Linear, 4 and 64 would be nearly the same dark colour; on the log scale they are far apart.
  EXPECT_GT(ws::viz::scale_position(64, vmin, vmax, true) - ws::viz::scale_position(4, vmin, vmax, true), 0.3f);
  EXPECT_LT(ws::viz::scale_position(64, vmin, vmax, false) - ws::viz::scale_position(4, vmin, vmax, false), 0.07f);
}
