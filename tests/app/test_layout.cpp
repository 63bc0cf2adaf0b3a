// The tiled layout: every panel between the menu and status bars, inside the window, no two
// overlapping, at every size and scale a lecturer might use.
#include "shell/layout.h"
#include "views/view.h"

#include "ws/viz/theme.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

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
      ASSERT_EQ(L.panels.size(), ws::app::view_types().size());
      EXPECT_FLOAT_EQ(L.menu_height, em + 2 * style.FramePadding.y);
      for (size_t i = 0; i < L.panels.size(); ++i) {
        const auto& r = L.panels[i];
        SCOPED_TRACE(std::string(ws::app::view_types()[i].id) + " at " + std::to_string(display.x) + "x" +
                     std::to_string(display.y) + " scale " + std::to_string(scale));
        EXPECT_GE(r.pos.x, 0);
        EXPECT_GT(r.pos.y, L.menu_height);
        EXPECT_LE(r.pos.x + r.size.x, display.x);
        EXPECT_LT(r.pos.y + r.size.y, L.status.pos.y);
        EXPECT_GE(r.size.x, 8 * em);  // room for a title
        EXPECT_GE(r.size.y, 4 * em);
        // Panels that are there only in some states share a tile (never shown together).
        const auto& types = ws::app::view_types();
        for (size_t j = i + 1; j < L.panels.size(); ++j)
          if (!types[i].present || !types[j].present) {
            EXPECT_FALSE(overlap(r, L.panels[j])) << "with " << j;
          }
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

// The registry is the one list of views: every name (id or short name) finds exactly its row,
// every row makes a view, and every option's values are distinct.
TEST(Views, EveryNameOfTheRegistryFindsItsRow) {
  std::set<std::string> names;
  for (const ws::app::ViewType& t : ws::app::view_types()) {
    EXPECT_TRUE(names.insert(t.id).second) << t.id;
    EXPECT_EQ(ws::app::find_view_type(t.id), &t);
    EXPECT_NE(t.make(), nullptr) << t.id;
    for (const ws::app::ViewAlias& a : t.aliases) {
      EXPECT_TRUE(names.insert(a.name).second) << a.name;
      std::string preset;
      EXPECT_EQ(ws::app::find_view_type(a.name, &preset), &t) << a.name;
      EXPECT_EQ(preset, a.option ? a.option : "") << a.name;
      if (a.option) {
        EXPECT_EQ(ws::app::apply_option(t, *t.make(), a.option), "") << a.name;
      }
    }
    for (const ws::app::ViewOption& o : t.options) {
      std::string values = o.values;
      std::set<std::string> seen;
      for (size_t at = 0, next; at <= values.size(); at = next + 1) {
        next = values.find('|', at);
        if (next == std::string::npos) next = values.size();
        const std::string v = values.substr(at, next - at);
        EXPECT_FALSE(v.empty()) << t.id << " " << o.key;
        EXPECT_TRUE(seen.insert(v).second) << t.id << " " << o.key << " " << v;
        EXPECT_EQ(ws::app::apply_option(t, *t.make(), o.key, v), "") << t.id << " " << o.key << "=" << v;
      }
    }
  }
  EXPECT_EQ(ws::app::find_view_type("no-such-view"), nullptr);
  EXPECT_NE(ws::app::view_names_error("no-such-view").find("warp-access-map"), std::string::npos);
}

TEST(Views, AWrongOptionSaysWhatTheViewTakes) {
  const ws::app::ViewType* heat = ws::app::find_view_type("memory");
  ASSERT_NE(heat, nullptr);
  auto v = heat->make();
  EXPECT_EQ(ws::app::apply_option(*heat, *v, "color", "rainbow"),
            "the Memory heatmap's color is accesses, conflicts, first-touch, hazards or contention (not 'rainbow')");
  EXPECT_EQ(ws::app::apply_option(*heat, *v, "colour", "conflicts"),
            "the Memory heatmap has no option 'colour' (options: color, scale or controls)");
  EXPECT_EQ(ws::app::apply_option(*heat, *v, "colorconflicts"),
            "view option 'colorconflicts' is not KEY=VALUE (e.g. color=conflicts)");
  const ws::app::ViewType* map = ws::app::find_view_type("access-map");
  ASSERT_NE(map, nullptr);
  EXPECT_EQ(ws::app::apply_option(*map, *map->make(), "x", "steps"),
            "the Warp access map has no option 'x' (options: controls)");
  const ws::app::ViewType* playback = ws::app::find_view_type("playback");
  ASSERT_NE(playback, nullptr);
  EXPECT_EQ(ws::app::apply_option(*playback, *playback->make(), "x", "steps"),
            "the Playback has no option 'x' (it has none)");
}
