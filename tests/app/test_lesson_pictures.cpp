// Every shipped lesson as a projector shows it: each step at 1920x1080 and 1280x720 in the
// presentation look, its runs in, its selection found, its expectations holding, and its slide
// holding for the back row as measured from the glyphs drawn (slide_report.h): caption and title
// at least 22 px of a 720p wall, every number and label in a view at least 16, each picture filling
// 60% of its box on its limiting axis, nothing cut off, every label the caption names drawn, and
// the caption's words of layout true of the layout. And a 2x picture is the 1x one at twice the
// resolution.
#include "headless_gl.h"
#include "lessons/lesson.h"
#include "cli/lesson_export.h"
#include "lessons/lesson_frame.h"
#include "lessons/lesson_player.h"

#include "ws/viz/panel_capture.h"
#include "ws/viz/png.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace ws::app;

namespace {

struct Shot {
  ws::viz::Image img;
  LessonFrameLayout layout;
};

Shot shoot(LessonPlayer& p, int w, int h, float factor = 1.0f) {
  Shot s;
  // As the viewer shows a lesson: the presentation look, scaled from the 1080p slide.
  const float slide = slide_scale(ImVec2(float(w), float(h)));
  ws::viz::PanelCapture cap{"lesson", ImVec2(float(w), float(h)), ws::viz::Look{slide, true}, factor,
                            [&] {
                              s.layout = draw_lesson_body(p, "", true);
                              s.layout.report.size = ImVec2(float(w), float(h));
                            }};
  std::string err;
  EXPECT_TRUE(ws::viz::render_panel(cap, s.img, err)) << err;
  return s;
}

using LessonPictures = wstest::HeadlessGl;

}  // namespace

TEST_F(LessonPictures, EveryShippedStepFitsTheWallAndHolds) {
  const auto files = shipped_lessons();
  ASSERT_FALSE(files.empty()) << "no lessons/*.toml found";
  for (const auto& f : files) {
    LessonLoad l = load_lesson(f);
    ASSERT_TRUE(l.ok()) << l.error;
    const Lesson lesson = l.lesson;
    auto player = std::make_shared<LessonPlayer>(std::move(l.lesson));
    LessonPlayer& p = *player;
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& step = lesson.steps[i];
      const std::string where = f.filename().string() + " step " + std::to_string(i + 1) + " (" + step.title + ")";
      p.go(i, true);
      ASSERT_TRUE(p.wait_ready()) << where;
      EXPECT_EQ(p.error(), "") << where;
      EXPECT_EQ(p.prepare_pictures(), "") << where;
      EXPECT_EQ(check_expect(step.expect, *p.session().data(), p.session().sel), "") << where;
      for (const auto& [w, h] : {std::pair{1920, 1080}, std::pair{1280, 720}}) {
        // As `lesson --export` and the check render it: the whole shell in lesson mode, headless.
        Shot s;
        ASSERT_EQ(render_step(player, i, w, h, 1.0f, s.img, s.layout.report), "") << where;
        const size_t views = p.views().size() + p.compare_views().size();
        ASSERT_EQ(s.layout.report.views.size(), views) << where;
        for (const std::string& problem : slide_problems(s.layout.report, step, back_row_rules(float(h))))
          ADD_FAILURE() << where << " at " << w << "x" << h << ": " << problem;
        EXPECT_EQ(views_expect(step.expect, p.views()), "") << where;
        if (const char* keep = std::getenv("WS_KEEP_PNG"))
          (void)ws::viz::save_png(std::string(keep) + "/" + f.stem().string() + "-" + std::to_string(i + 1) + "-" +
                                      std::to_string(w) + ".png",
                                  s.img);
      }
    }
  }
}

// Twice the resolution, the same picture: shrunk back by 2 x 2 averaging, a 2x step matches the
// 1x one but for the edges of the glyphs (fonts are rasterized anew at each size).
TEST_F(LessonPictures, TwoXIsTheOneXPictureAtTwiceTheResolution) {
  LessonLoad l = parse_lesson(R"(
[[step]]
title = "Interleaved addressing"
caption = "two views side by side"
variant = "2"
n = 2048
select = { line = "sdata[index] += sdata[index + s]", occurrence = 1 }
views = ["access-map", { id = "timeline", x = "steps" }]
)",
                              "2x.toml");
  ASSERT_TRUE(l.ok()) << l.error;
  LessonPlayer p(l.lesson);
  p.go(0, true);
  ASSERT_TRUE(p.wait_ready());
  const Shot one = shoot(p, 960, 540);
  const Shot two = shoot(p, 960, 540, 2.0f);
  if (const char* keep = std::getenv("WS_KEEP_PNG")) {
    (void)ws::viz::save_png(std::string(keep) + "/2x-one.png", one.img);
    (void)ws::viz::save_png(std::string(keep) + "/2x-two.png", two.img);
  }
  ASSERT_EQ(two.img.width, 2 * one.img.width);
  ASSERT_EQ(two.img.height, 2 * one.img.height);
  // The same layout: the boxes, in screen pixels, are where the 1x picture has them.
  ASSERT_EQ(one.layout.view_min.size(), two.layout.view_min.size());
  for (size_t v = 0; v < one.layout.view_min.size(); ++v) {
    EXPECT_EQ(two.layout.view_min[v].x, one.layout.view_min[v].x);
    EXPECT_EQ(two.layout.view_min[v].y, one.layout.view_min[v].y);
    EXPECT_EQ(two.layout.view_max[v].x, one.layout.view_max[v].x);
    EXPECT_EQ(two.layout.view_max[v].y, one.layout.view_max[v].y);
  }
  // The pixels: over 4 x 4 blocks of the 1x picture (text edges, rasterized anew at each size,
  // average out), the 2x picture's block holds the same colors. A panel or a row of text out of
  // place would not.
  constexpr int B = 4;
  size_t close = 0, n = 0;
  double total = 0;
  for (int by = 0; by + B <= one.img.height; by += B)
    for (int bx = 0; bx + B <= one.img.width; bx += B) {
      int diff = 0;
      for (int c = 0; c < 3; ++c) {
        int a = 0, b = 0;
        for (int y = by; y < by + B; ++y)
          for (int x = bx; x < bx + B; ++x) {
            a += one.img.pixel(x, y)[c];
            b += two.img.pixel(2 * x, 2 * y)[c] + two.img.pixel(2 * x + 1, 2 * y)[c] + two.img.pixel(2 * x, 2 * y + 1)[c] +
                 two.img.pixel(2 * x + 1, 2 * y + 1)[c];
          }
        diff = std::max(diff, std::abs(b / 4 - a) / (B * B));
      }
      total += diff;
      close += diff <= 24;
      ++n;
    }
  std::printf("2x against 1x: mean block difference %.2f, %.2f%% of blocks within 24\n", total / double(n),
              100.0 * double(close) / double(n));
  EXPECT_LT(total / double(n), 4.0);
  EXPECT_GT(double(close) / double(n), 0.95);
}
