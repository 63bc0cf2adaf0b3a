// One view alone, without a display: `warpscope --headless --view NAME --kernel K --variant V
// [--n N --block B] [--select block=0,warp=1,event=12] --screenshot F [--scale 2]`.
// The kernel runs in the session (emulator), the selection is applied, and a view of its own is
// rendered by the panel capture (ws::viz::render_panel) at --size x --scale pixels.
#pragma once

#include "model/selection.h"
#include "model/session.h"
#include "views/view.h"

#include "ws/viz/image.h"

#include <imgui.h>

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ws::app {

struct ViewRun {
  std::string view;          // a panel id ("warp-access-map") or a short name ("access-map")
  RunRequest request;        // what to run
  std::string select;        // "block=0,warp=1,event=12,lane=3,site=2,launch=1,cursor=40"
  int width = 1000, height = 640;  // the panel's size at 1x
  float factor = 1.0f;       // output pixels per panel pixel (2 for slides)
  bool presentation = false;
  std::vector<std::string> options;  // the view's options, "key=value" (views/registry.cpp lists them)
  std::optional<ImVec2> mouse;  // where the mouse rests, in output pixels (the tooltip there)
};

// Runs, selects, renders. Returns false with a message on failure; `bad_input` (when given) says
// whether the failure was the input's (a view, option or selection that does not exist: exit 2).
bool render_view(const ViewRun& run, ws::viz::Image& out, std::string& error, bool* bad_input = nullptr);

}  // namespace ws::app
