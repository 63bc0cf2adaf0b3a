// The rules a slide is held to, on hand-made reports: the sizes for the back row, the limiting
// axis a picture must fill, the labels a caption names, and the words of place it uses.
#include "lessons/lesson.h"
#include "lessons/slide_report.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ws::app;

namespace {

ViewReport view(const char* id, ImVec2 box, ImVec2 picture, ImVec2 natural = {0, 0}) {
  ViewReport v;
  v.id = id;
  v.box_max = box;
  v.picture_max = picture;
  v.natural = natural;
  v.smallest_px = 16;
  v.smallest_text = "0";
  return v;
}

bool has(const std::vector<std::string>& problems, const std::string& part) {
  return std::any_of(problems.begin(), problems.end(), [&](const std::string& p) { return p.find(part) != std::string::npos; });
}

std::vector<NamedLabel> labels(const std::string& caption) { return caption_labels(caption); }

}  // namespace

TEST(SlideRules, SizesScaleWithTheWall) {
  EXPECT_EQ(back_row_rules(720).caption_px, 22);
  EXPECT_EQ(back_row_rules(720).label_px, 16);
  EXPECT_EQ(back_row_rules(1080).caption_px, 33);
  EXPECT_EQ(back_row_rules(1080).label_px, 24);
}

TEST(SlideRules, SmallTypeAndASmallCaptionFail) {
  SlideReport r;
  r.title_px = 30;
  r.caption_px = 14;
  r.layout = "row";
  r.views = {view("access-map", {600, 400}, {600, 300})};
  r.views[0].smallest_px = 11;
  r.views[0].smallest_text = "31";
  r.group_views = 1;
  const auto p = slide_problems(r, LessonStep{}, back_row_rules(720));
  EXPECT_TRUE(has(p, "the caption is 14 px; the back row needs 22 px"));
  EXPECT_TRUE(has(p, "'31' is 11 px; the back row needs 16 px"));
  EXPECT_FALSE(has(p, "the title"));
}

// A picture grown until it meets one side of its box fills that side: the axis its natural size
// meets first is the one held to 60%; a view that takes any box must fill both.
TEST(SlideRules, AViewMustFillItsBoxOnTheLimitingAxis) {
  // Natural 800 x 200 in a 1000 x 600 box: width limits (0.8 > 0.33). 90% wide, 30% high: fine.
  ViewReport wide = view("access-map", {1000, 600}, {900, 180}, {800, 200});
  EXPECT_STREQ(wide.limiting_axis(), "width");
  EXPECT_NEAR(wide.fill(), 0.9f, 1e-6);
  // The same picture with no natural size (any box): the less filled axis, 30%.
  ViewReport any = view("memory-heatmap", {1000, 600}, {900, 180});
  EXPECT_NEAR(any.fill(), 0.3f, 1e-6);
  SlideReport r;
  r.layout = "column";
  r.group_views = 2;
  r.views = {wide, any};
  const auto p = slide_problems(r, LessonStep{}, back_row_rules(720));
  EXPECT_FALSE(has(p, "view 1 "));
  EXPECT_TRUE(has(p, "view 2 (memory-heatmap): the picture fills 90% of its box's width and 30% of its height"));
}

TEST(SlideRules, TheLabelsACaptionNames) {
  auto values = [](const std::vector<NamedLabel>& l, const char* kind) {
    std::vector<long> v;
    for (const NamedLabel& x : l)
      if (x.kind == kind) v.push_back(x.value);
    return v;
  };
  EXPECT_EQ(values(labels("only banks 0, 8, 16 and 24 are used"), "bank"), (std::vector<long>{0, 8, 16, 24}));
  EXPECT_EQ(values(labels("lanes 0 and 16 both need bank 0"), "lane"), (std::vector<long>{0, 16}));
  EXPECT_EQ(values(labels("lanes 8 to 11 wait"), "lane"), (std::vector<long>{8, 9, 10, 11}));
  EXPECT_EQ(values(labels("Who wrote cache[128 .. 131]?"), "element"), (std::vector<long>{128, 129, 130, 131}));
  // Counts are no labels: "bank 0, 32 passes", "the whole warp 8 trips", "block 87%".
  EXPECT_EQ(values(labels("every lane in bank 0, 32 passes"), "bank"), (std::vector<long>{0}));
  EXPECT_TRUE(labels("A row of 8 costs the whole warp 8 trips").empty());
  EXPECT_TRUE(labels("rows of a 32 x 8 block 87%").empty());
}

TEST(SlideRules, ANamedLabelMustBeDrawn) {
  SlideReport r;
  r.layout = "row";
  r.group_views = 1;
  r.views = {view("access-map", {1000, 600}, {1000, 300}, {800, 200})};
  for (const char* t : {"0", "8", "16"}) r.views[0].texts.push_back(ws::viz::DrawnText{t, 16, {0, 0}, {10, 16}, false});
  r.views[0].left_out = {"bank numbers 10-31 (22, no room at the slide's type size)"};
  LessonStep step;
  step.caption = "only banks 0, 8, 16 and 24 are used";
  const auto p = slide_problems(r, step, back_row_rules(720));
  EXPECT_TRUE(has(p, "the caption names bank 24, which no view labels"));
  EXPECT_TRUE(has(p, "left out bank numbers 10-31"));
  EXPECT_FALSE(has(p, "bank 16"));
}

// "Left:" needs pictures side by side; "(bottom)" one under another; "is left:" and "top to
// bottom," say something else.
TEST(SlideRules, WordsOfPlaceMustBeTrueOfTheLayout) {
  SlideReport side, stacked;
  side.compare_layout = "row";
  stacked.compare_layout = "column";
  side.layout = stacked.layout = "row";
  side.group_views = stacked.group_views = 1;
  LessonStep step;
  step.caption = "Left: one word. Right, hierarchical: one per block.";
  EXPECT_FALSE(has(slide_problems(side, step, back_row_rules(720)), "left/right"));
  EXPECT_TRUE(has(slide_problems(stacked, step, back_row_rules(720)), "the caption says left/right"));
  step.caption = "2 passes (top), one pass (bottom).";
  EXPECT_TRUE(has(slide_problems(side, step, back_row_rules(720)), "the caption says top/bottom"));
  EXPECT_FALSE(has(slide_problems(stacked, step, back_row_rules(720)), "top/bottom"));
  step.caption = "One shared slot per warp is left: the first warp reads them. Top to bottom, the loop sweeps the array.";
  EXPECT_TRUE(slide_problems(side, step, back_row_rules(720)).empty());
}
