// The default tiled layout (ImGui 1.86 has no docking): menu bar on top, status bar at the
// bottom, the panels tiled in three columns in between, each view in the slot its registry row
// names (views/view.h, Slot). Everything is measured in font sizes so the layout looks the same at
// every UI scale; only the split of the window is proportional.
#pragma once

#include <imgui.h>

#include <vector>

namespace ws::app {

struct Rect {
  ImVec2 pos;
  ImVec2 size;
};

struct ShellLayout {
  float menu_height = 0;    // main menu bar
  float status_height = 0;  // status bar
  Rect status;
  std::vector<Rect> panels;  // in view_types() order
};

// `style` must be the style in use (its frame padding decides the bar heights).
ShellLayout compute_layout(ImVec2 display, float font_px, const ImGuiStyle& style);

// Status bar padding in font sizes (shared by the layout and the status bar window).
inline constexpr float kStatusPadX = 0.6f;
inline constexpr float kStatusPadY = 0.3f;

}  // namespace ws::app
