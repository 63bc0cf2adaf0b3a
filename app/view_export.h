// One view alone, without a display: `warpscope --headless --view NAME --kernel K --variant V
// [--n N --block B] [--select block=0,warp=1,event=12] --screenshot F [--scale 2]`.
// The kernel runs in the session (emulator), the selection is applied, and the panel body is
// rendered by the panel capture (ws::viz::render_panel) at --size x --scale pixels.
#pragma once

#include "session.h"

#include "ws/viz/image.h"

#include <imgui.h>

#include <optional>
#include <string>

namespace ws::app {

struct ViewRun {
  std::string view;          // a panel id ("warp-access-map") or a short name ("access-map")
  RunRequest request;        // what to run
  std::string select;        // "block=0,warp=1,event=12,lane=3,site=2,launch=1,cursor=40"
  int width = 1000, height = 640;  // the panel's size at 1x
  float factor = 1.0f;       // output pixels per panel pixel (2 for slides)
  bool presentation = false;
  int memory_color = 0;  // the memory heatmap's color: 0 accesses, 1 bank conflicts, 2 first touch
  int timeline_x = 0;    // the divergence timeline's x: 0 aligned steps, 1 issue clock, 2 time (ns)
  bool compare = false;  // the divergence timeline: the same launch on the other backend below
  std::optional<ImVec2> mouse;  // where the mouse rests, in output pixels (the tooltip there)
};

// The panel id for a view name, or "" (then `error` lists the names).
std::string view_panel_id(const std::string& name, std::string& error);
// Applies "key=value,..." to the session's selection; returns "" or what was wrong.
std::string apply_selection(Session& s, const std::string& spec);
// Runs, selects, renders. Returns false with a message on failure.
bool render_view(const ViewRun& run, ws::viz::Image& out, std::string& error);

}  // namespace ws::app
