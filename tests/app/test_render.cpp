// Headless screenshots of the shell, rendered by the real binary on Mesa, checked against where
// the layout says the menu bar, the panels' title bars, the gaps and the status bar are.
#include "run_binary.h"

#include "shell/layout.h"
#include "views/view.h"

#include "ws/viz/look.h"
#include "ws/viz/png.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace {

struct Case {
  int width, height;
  float scale;
  bool presentation;
};

std::string describe(const uint8_t* p) {
  char buf[32];  // (snprintf: "(" + to_string(...) trips a GCC 12 -Wrestrict false positive)
  std::snprintf(buf, sizeof buf, "(%d,%d,%d)", p[0], p[1], p[2]);
  return buf;
}

::testing::AssertionResult color_at(const ws::viz::Image& img, float x, float y, ImVec4 c, const char* what) {
  const int ix = int(x), iy = int(y);
  if (ix < 0 || iy < 0 || ix >= img.width || iy >= img.height)
    return ::testing::AssertionFailure() << what << " at " << ix << "," << iy << " is outside the image";
  const uint8_t* p = img.pixel(ix, iy);
  for (int k = 0; k < 3; ++k) {
    int want = int(std::lround((&c.x)[k] * 255));
    if (std::abs(p[k] - want) > 3)
      return ::testing::AssertionFailure()
             << what << " at " << ix << "," << iy << " is " << describe(p) << ", expected ("
             << std::lround(c.x * 255) << "," << std::lround(c.y * 255) << "," << std::lround(c.z * 255) << ")";
  }
  return ::testing::AssertionSuccess();
}

// Renders with the binary and checks the elements; one TEST per size below (plain names in ctest).
void check_render(const Case c) {
  fs::path png = fs::temp_directory_path() /
                 ("ws-render-" + std::to_string(c.width) + "x" + std::to_string(c.height) + "-" +
                  std::to_string(int(c.scale * 100)) + (c.presentation ? "-p" : "") + ".png");
  fs::remove(png);
  std::string args = "--headless --size " + std::to_string(c.width) + "x" + std::to_string(c.height) +
                     " --scale " + std::to_string(c.scale) + " --screenshot " + png.string();
  if (c.presentation) args += " --presentation";
  RunResult r = run_warpscope(args);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ASSERT_TRUE(fs::exists(png)) << r.out;

  ws::viz::Image img;
  std::string err;
  ASSERT_TRUE(ws::viz::load_png(png, img, err)) << err;
  ASSERT_EQ(img.width, c.width);
  ASSERT_EQ(img.height, c.height);

  // What the binary computed, computed again here from the same look.
  ws::viz::Look look{c.scale, c.presentation};
  const float em = std::round(look.font_px());
  ImGuiStyle style = ws::viz::make_style(look.theme(), look.style_scale());
  const ImVec4* col = style.Colors;
  ws::app::ShellLayout L = ws::app::compute_layout(ImVec2(float(c.width), float(c.height)), em, style);

  // Menu bar: its color across the top, right of the File/View/Help menus (inside its border,
  // which the high-contrast theme makes 2 px wide).
  const float border = style.WindowBorderSize;
  EXPECT_TRUE(color_at(img, c.width * 0.8f, border + 1, col[ImGuiCol_MenuBarBg], "menu bar top row"));
  EXPECT_TRUE(color_at(img, c.width * 0.8f, L.menu_height - border - 2, col[ImGuiCol_MenuBarBg],
                       "menu bar bottom row"));
  // The background shows in the gap just below the menu bar and between the columns.
  const ImVec4 bg = ws::viz::background_color(look.theme());
  EXPECT_TRUE(color_at(img, c.width * 0.8f, L.menu_height + 0.12f * em, bg, "gap under the menu bar"));

  auto rect = [&](const char* id) { return L.panels[size_t(ws::app::view_index(id))]; };
  const float title_h = em + 2 * style.FramePadding.y;
  // The focused panel (warp access map) has the active title color, the others the inactive one.
  ws::app::Rect access = rect("warp-access-map");
  EXPECT_TRUE(color_at(img, access.pos.x + access.size.x * 0.6f, access.pos.y + title_h / 2,
                       col[ImGuiCol_TitleBgActive], "warp access map title bar"));
  ws::app::Rect timing = rect("timing");
  EXPECT_TRUE(color_at(img, timing.pos.x + timing.size.x * 0.5f, timing.pos.y + title_h / 2,
                       col[ImGuiCol_TitleBg], "timing title bar"));
  // Above a title bar is the gap; below it, the panel's Export menu bar, then its body.
  EXPECT_TRUE(color_at(img, timing.pos.x + timing.size.x * 0.5f, timing.pos.y - 0.12f * em, bg, "gap above timing"));
  EXPECT_TRUE(color_at(img, timing.pos.x + timing.size.x * 0.7f, timing.pos.y + title_h + title_h / 2,
                       col[ImGuiCol_MenuBarBg], "timing export menu bar"));
  // Its body reaches the panel's bottom: the window padding left of the content, near the bottom.
  EXPECT_TRUE(color_at(img, timing.pos.x + style.WindowPadding.x * 0.5f + border, timing.pos.y + timing.size.y - 0.6f * em,
                       col[ImGuiCol_WindowBg], "timing body"));
  ws::app::Rect reduction = rect("reduction-lab");
  EXPECT_TRUE(color_at(img, reduction.pos.x + reduction.size.x + 0.12f * em, c.height * 0.5f, bg,
                       "gap right of the left column"));

  // Status bar across the bottom, between the backend name and the frame time.
  EXPECT_TRUE(color_at(img, c.width * 0.5f, c.height - 2, col[ImGuiCol_MenuBarBg], "status bar bottom row"));
  EXPECT_TRUE(color_at(img, c.width * 0.5f, L.status.pos.y + 2, col[ImGuiCol_MenuBarBg], "status bar top row"));
  EXPECT_TRUE(color_at(img, c.width * 0.5f, L.status.pos.y - 0.12f * em, bg, "gap above the status bar"));

  // Text is really drawn (the font loaded): the status bar's left end holds light glyph pixels.
  int light = 0;
  for (int y = int(L.status.pos.y); y < c.height; ++y)
    for (int x = 0; x < int(8 * em) && x < c.width; ++x)
      if (img.pixel(x, y)[0] > 200) ++light;
  EXPECT_GT(light, 20) << "no text in the status bar";
  fs::remove(png);
}

}  // namespace

TEST(Render, At1280x720Scale1) { check_render({1280, 720, 1.0f, false}); }
TEST(Render, At1600x900Scale2) { check_render({1600, 900, 2.0f, false}); }
TEST(Render, At1920x1080Scale125) { check_render({1920, 1080, 1.25f, false}); }
TEST(Render, At1600x900Presentation) { check_render({1600, 900, 1.0f, true}); }
