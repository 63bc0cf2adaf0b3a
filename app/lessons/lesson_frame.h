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

#include <imgui.h>

#include <vector>

namespace ws::app {

class LessonPlayer;

struct LessonFrameLayout {
  ImVec2 header_min{0, 0}, header_max{0, 0};
  std::vector<ImVec2> view_min, view_max;  // main views, then the comparison's
};

// Draws the step into the whole display (one window, no menu bar). `jump` is a step number being
// typed ("" when none). Returns where things went (tests).
LessonFrameLayout draw_lesson(LessonPlayer& p, ImVec2 display, const char* jump);

}  // namespace ws::app
