// The F1 overlay: every shortcut and the few mouse gestures, centered over the panels.
#include "shell/shell.h"

namespace ws::app {

void draw_help_overlay(ShellState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowFocus();
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("Keyboard shortcuts", &s.help_open, flags)) {
    const ImVec4 key_color = ImGui::GetStyleColorVec4(ImGuiCol_CheckMark);
    if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                           ImGuiTableFlags_PadOuterX)) {
      ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, 6 * em);
      ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthFixed, 26 * em);
      for (const Shortcut& sc : shortcuts()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(key_color, "%s", sc.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(sc.what);
      }
      ImGui::EndTable();
    }
    ImGui::Spacing();
    ImGui::PushTextWrapPos(33 * em);
    ImGui::TextWrapped("Every panel: Export \u25B8 Save as PNG (1x, or 2x for slides), also on a "
                       "right-click on its title bar. Drag a title bar to move a panel, an edge "
                       "to resize it; View \u25B8 Reset layout tiles them again.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    ImGui::TextDisabled("F1 or Esc closes this help.");
  }
  ImGui::End();
}

}  // namespace ws::app
