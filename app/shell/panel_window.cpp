// A panel in its own movable, resizable window, with the export actions every panel has.
#include "shell/layout.h"
#include "model/session.h"
#include "shell/shell.h"

#include <cmath>

namespace ws::app {

namespace {

void export_items(ShellState& s, int panel, ImVec2 body_size) {
  if (ImGui::MenuItem("Save as PNG (1x)")) s.exports.push_back({panel, 1.0f, body_size});
  if (ImGui::MenuItem("Save as PNG (2x, for slides)")) s.exports.push_back({panel, 2.0f, body_size});
}

bool differs(ImVec2 a, ImVec2 b) { return std::fabs(a.x - b.x) > 0.5f || std::fabs(a.y - b.y) > 0.5f; }

}  // namespace

void draw_panel_window(ShellState& s, int panel, const Rect& tile) {
  const ViewType& p = view_types()[static_cast<size_t>(panel)];
  const ImGuiCond cond = s.layout_dirty ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(tile.pos, cond);
  ImGui::SetNextWindowSize(tile.size, cond);
  bool open = true;
  const bool visible = ImGui::Begin(p.title, &open, ImGuiWindowFlags_MenuBar);

  // The exported picture is the panel without its menu bar: what remains is the title and body.
  const ImVec2 size = ImGui::GetWindowSize();
  const ImVec2 body_size(size.x, size.y - ImGui::GetFrameHeight());
  if (s.panel_sizes.size() <= static_cast<size_t>(panel)) s.panel_sizes.resize(panel + 1);
  s.panel_sizes[static_cast<size_t>(panel)] = body_size;

  // Right-clicking the title bar offers the same export (the last item after Begin is the title).
  if (ImGui::BeginPopupContextItem()) {
    export_items(s, panel, body_size);
    ImGui::EndPopup();
  }
  // Only a drag or resize by hand makes the layout the user's own; then we stop re-tiling it.
  if (!s.layout_dirty && ImGui::IsMouseDown(ImGuiMouseButton_Left) &&
      (differs(ImGui::GetWindowPos(), tile.pos) || differs(size, tile.size)) &&
      !s.settings.user_arranged) {
    s.settings.user_arranged = true;
    s.settings_dirty = true;
  }
  if (visible) {
    if (ImGui::BeginMenuBar()) {
      if (ImGui::BeginMenu("Export")) {
        export_items(s, panel, body_size);
        ImGui::EndMenu();
      }
      ImGui::EndMenuBar();
    }
    s.views[static_cast<size_t>(panel)]->draw(session());
  }
  ImGui::End();
  if (!open) {
    s.settings.hidden.insert(p.id);
    s.settings_dirty = true;
  }
}

}  // namespace ws::app
