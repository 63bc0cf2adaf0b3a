// The tiled layout: every panel between the menu and status bars, inside the window, no two
// overlapping, at every size and scale a lecturer might use.
#include "layout.h"
#include "panels/panels.h"

#include "ws/viz/theme.h"

#include <gtest/gtest.h>

namespace {
bool overlap(const ws::app::Rect& a, const ws::app::Rect& b) {
  return a.pos.x < b.pos.x + b.size.x - 0.5f && b.pos.x < a.pos.x + a.size.x - 0.5f &&
         a.pos.y < b.pos.y + b.size.y - 0.5f && b.pos.y < a.pos.y + a.size.y - 0.5f;
}
}  // namespace

TEST(Layout, PanelsTileWithoutOverlap) {
  for (ImVec2 display : {ImVec2(1280, 720), ImVec2(1600, 900), ImVec2(1920, 1080), ImVec2(3840, 2160)}) {
    for (float scale : {1.0f, 1.5f, 2.0f}) {
      const float em = 16.0f * scale;
      ImGuiStyle style = ws::viz::make_style(ws::viz::Theme::Dark, scale);
      ws::app::ShellLayout L = ws::app::compute_layout(display, em, style);
      ASSERT_EQ(L.panels.size(), ws::app::all_panels().size());
      EXPECT_FLOAT_EQ(L.menu_height, em + 2 * style.FramePadding.y);
      for (size_t i = 0; i < L.panels.size(); ++i) {
        const auto& r = L.panels[i];
        SCOPED_TRACE(std::string(ws::app::all_panels()[i].id) + " at " + std::to_string(display.x) + "x" +
                     std::to_string(display.y) + " scale " + std::to_string(scale));
        EXPECT_GE(r.pos.x, 0);
        EXPECT_GT(r.pos.y, L.menu_height);
        EXPECT_LE(r.pos.x + r.size.x, display.x);
        EXPECT_LT(r.pos.y + r.size.y, L.status.pos.y);
        EXPECT_GE(r.size.x, 8 * em);  // room for a title
        EXPECT_GE(r.size.y, 4 * em);
        for (size_t j = i + 1; j < L.panels.size(); ++j) EXPECT_FALSE(overlap(r, L.panels[j])) << "with " << j;
      }
    }
  }
}

TEST(Layout, ScalesWithTheFont) {
  // The same window at twice the font: bars twice as tall (sizes are in font units).
  ImGuiStyle s1 = ws::viz::make_style(ws::viz::Theme::Dark, 1.0f), s2 = ws::viz::make_style(ws::viz::Theme::Dark, 2.0f);
  auto a = ws::app::compute_layout(ImVec2(3200, 1800), 16, s1);
  auto b = ws::app::compute_layout(ImVec2(3200, 1800), 32, s2);
  EXPECT_FLOAT_EQ(b.menu_height, 2 * a.menu_height);
  EXPECT_FLOAT_EQ(b.status_height, 2 * a.status_height);
}

TEST(Panels, EveryPanelOfTheDesignIsThere) {
  for (const char* id : {"reduction-lab", "memory-lab", "warp-access-map", "bank-conflict-heatmap",
                         "divergence-timeline", "block-layout", "memory-heatmap", "source-view", "timing"})
    EXPECT_GE(ws::app::find_panel(id), 0) << id;
}
