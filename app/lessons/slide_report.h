// What a lesson step's slide shows, measured from what was drawn: for each view its box, the share
// of the box its picture fills, the smallest type in it, the text its box cuts, and what the view
// says it left out; for the header, the size of the step's title and caption.
//
// Sizes come from the glyphs in the draw lists (ws::viz::drawn_text), not from what the code
// meant to draw, so a view cannot pass the check by claiming a size. `lesson --export` writes one
// report per step beside its picture (NN-title.layout.json); `warpscope lesson FILE` renders each
// step at 1280x720 and holds it to the rules for the back row of a lecture hall:
//
//   SlideRules r = back_row_rules(720);   // caption and title >= 22 px, view text >= 16 px
//   for (const std::string& p : slide_problems(report, step, r)) fail(p);
//   // "view 1 (access-map): '31' is 11 px; the back row needs 16"
#pragma once

#include "ws/viz/drawn_text.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace ws::app {

struct LessonStep;

struct ViewReport {
  std::string id;                     // the view's registry id
  ImVec2 box_min{0, 0}, box_max{0, 0};          // its box on the slide
  ImVec2 picture_min{0, 0}, picture_max{0, 0};  // what it drew (its title line not counted)
  ImVec2 natural{0, 0};               // the box it asked for (View::natural_size), 0: any length
  float zoom = 1;                     // how much larger than the slide's font it drew
  float smallest_px = 0;              // its smallest text (0: none)
  std::string smallest_text;
  std::vector<std::string> clipped;   // text its box (or a clip inside it) cuts
  std::vector<std::string> left_out;  // the view's own account of what it did not draw, and why
  bool scrolls = false;               // its picture is larger than its box
  std::vector<ws::viz::DrawnText> texts;

  float fill_w() const;
  float fill_h() const;
  // The share of the box filled on the limiting axis: a picture grown until it meets one side of
  // its box fills that side. The limiting axis is the one its natural size meets first; where it
  // asks for a length on one axis only, the other (it grows there); where it asks for none, the
  // less filled (it promised to fill any box).
  float fill() const;
  const char* limiting_axis() const;  // "width" or "height"
};

struct SlideReport {
  ImVec2 size{0, 0};              // the slide, in layout pixels
  float title_px = 0, caption_px = 0;  // the step's title and caption: their smallest glyphs
  std::string layout;             // the views as drawn: "row", "column" or "grid"
  std::string compare_layout;     // the two launches as drawn ("" without a comparison)
  std::vector<ViewReport> views;  // the step's, then the comparison's
  size_t group_views = 0;         // how many of them are the step's (one group's)
};

// The rules at a display `height` (pixels): type a projector carries to the last row.
struct SlideRules {
  float caption_px = 22;  // the step's title and caption
  float label_px = 16;    // every number and label in a view
  float min_fill = 0.6f;  // each view's picture, on its limiting axis
};
SlideRules back_row_rules(float height);

// Everything on the slide that breaks `rules` or contradicts the step's caption: small type,
// a view that fills too little of its box, text cut off, a label the caption names that is not
// drawn, words of layout ("left", "below") the layout does not have. Empty when the slide holds.
std::vector<std::string> slide_problems(const SlideReport& r, const LessonStep& step, const SlideRules& rules);

// The numbers a caption names for a kind of label: "banks 0, 8, 16 and 24" -> bank 0, 8, 16, 24;
// "lanes 8 to 11" -> 8, 9, 10, 11 (ranges of at most 32); "cache[128 .. 159]" -> elements 128 to
// 159. A number that counts something ("8 trips", "32 passes") names nothing.
struct NamedLabel {
  std::string kind;  // "lane", "bank", "warp", "pass", "element", "block"
  long value = 0;
};
std::vector<NamedLabel> caption_labels(const std::string& caption);

// The report as JSON (lengths in output pixels: layout pixels times `factor`).
std::string slide_report_json(const SlideReport& r, float factor);

}  // namespace ws::app
