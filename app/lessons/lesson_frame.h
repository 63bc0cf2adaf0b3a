// A lesson step filling the window: a header band (the lesson's title, "4 / 12", the step's title
// and caption in presentation-size type) and the step's views in the rest, laid out as the step
// says; a comparison's second launch beside or under the first, each with its caption.
//
//   +--------------------------------------------------------------------------------+
//   | Parallel reduction                                                      4 / 12 |
//   | Step 2: interleaved addressing, bank conflicts                                 |
//   | index = 2*s*tid: which banks does warp 0 touch at s = 2?                       |
//   +----------------------------------------+---------------------------------------+
//   | Warp access map                        | Bank-conflict heatmap                 |
//   |                                        |                                       |
//   +----------------------------------------+---------------------------------------+
#pragma once

#include "lessons/slide_report.h"

#include <imgui.h>

#include <vector>

namespace ws::app {

class LessonPlayer;

struct LessonFrameLayout {
  ImVec2 header_min{0, 0}, header_max{0, 0};
  std::vector<ImVec2> view_min, view_max;  // main views, then the comparison's
  // Per view: its picture was larger than its box (it scrolls: something is cut off on a wall).
  std::vector<bool> view_clipped;
  // What was drawn, measured (only when asked for: it reads back every glyph).
  SlideReport report;
};

// A step is a slide laid out for 1920 x 1080 and scaled to the display: a 720p projector shows the
// same slide at 2/3 the size, a 4K one at twice (type and pictures alike), so what fits on a
// 1080p wall fits on every wall. The factor multiplies the UI scale while a lesson is shown;
// it moves in whole font pixels, so resizing a window rebuilds the fonts only at each pixel.
inline constexpr float kSlideWidth = 1920, kSlideHeight = 1080;
float slide_scale(ImVec2 display);

// Draws the step into the whole display (one window, no menu bar). `jump` is a step number being
// typed ("" when none). Returns where things went (tests), and with `measure` what was drawn.
LessonFrameLayout draw_lesson(LessonPlayer& p, ImVec2 display, const char* jump, bool measure = false);
// The same into the current window's content region (an export of the step alone).
LessonFrameLayout draw_lesson_body(LessonPlayer& p, const char* jump, bool measure = false);

}  // namespace ws::app
