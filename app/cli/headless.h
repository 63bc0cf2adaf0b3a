// The shell without any display: an EGL device context (ws::viz::HeadlessContext), an offscreen
// framebuffer, a few frames so the layout settles, then the picture.
//
//   warpscope --headless --size 1600x900 --scale 2 --screenshot out.png
#pragma once

#include "shell/actions.h"
#include "model/session.h"

#include "ws/viz/image.h"

#include <imgui.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ws::app {

class LessonPlayer;
struct SlideReport;

struct HeadlessRun {
  int width = 1600;
  int height = 900;
  float scale = 1.0f;   // UI scale: larger text and panels in the same picture
  float factor = 1.0f;  // output pixels per layout pixel: the same picture at factor x the size
  bool presentation = false;
  int frames = 4;
  std::vector<Action> actions;  // applied on the first frame (e.g. ToggleHelp for the overlay)
  std::optional<RunRequest> request;  // the session's run (default: the viewer's default run)
  std::string select;                 // then this selection (view_export.h: apply_selection)
  std::optional<ImVec2> mouse;        // where the mouse rests (pixels); none: outside the window
  // A lesson's step instead of the panels (lesson mode), its runs in and selected first.
  std::shared_ptr<LessonPlayer> lesson;
  size_t step = 0;
  // With a lesson: the last frame's slide report (lessons/slide_report.h) goes here.
  SlideReport* slide_report = nullptr;
};

// Renders the shell; on success `out` is the last frame. `renderer` gets GL_RENDERER.
bool render_headless(const HeadlessRun& run, ws::viz::Image& out, std::string& renderer,
                     std::string& error, bool* bad_input = nullptr);

}  // namespace ws::app
