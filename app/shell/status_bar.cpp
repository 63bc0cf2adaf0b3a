// The status bar: which backend runs the kernels, the last export's result (or a missing-font
// warning, which stays), and the frame time.
#include "shell/layout.h"
#include "shell/shell.h"

#include <cstdio>

namespace ws::app {

namespace {
constexpr double kMessageSeconds = 8.0;  // long enough to read a file path aloud
const ImVec4 kError(1.0f, 0.42f, 0.38f, 1.0f);
const ImVec4 kOk(0.55f, 0.85f, 0.55f, 1.0f);
}  // namespace

void draw_status_bar(ShellState& s, const ShellLayout& L) {
  const float em = ImGui::GetFontSize();
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImGui::GetStyleColorVec4(ImGuiCol_MenuBarBg));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));  // thinner than the default minimum
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(kStatusPadX * em, kStatusPadY * em));
  ImGui::SetNextWindowPos(L.status.pos);
  ImGui::SetNextWindowSize(L.status.size);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoScrollWithMouse;
  if (ImGui::Begin("##status", nullptr, flags)) {
    char right[96];
    std::snprintf(right, sizeof right, "%.1f ms/frame   UI %d%%", s.frame_ms,
                  static_cast<int>(s.look.scale * 100.0f + 0.5f));
    const float right_w = ImGui::CalcTextSize(right).x;
    const float right_x = ImGui::GetWindowWidth() - kStatusPadX * em - right_w;
    const ImVec2 start = ImGui::GetCursorPos();
    ImGui::SetCursorPosX(right_x);
    ImGui::TextUnformatted(right);

    // Left part, clipped before the right part so long paths never overprint it.
    ImGui::SetCursorPos(start);
    const ImVec2 win = ImGui::GetWindowPos();
    ImGui::PushClipRect(win, ImVec2(win.x + right_x - em, win.y + ImGui::GetWindowHeight()), true);
    ImGui::Text("Backend: %s", s.backend.c_str());
    const double age = std::chrono::duration<double>(std::chrono::steady_clock::now() - s.message_time).count();
    if (!s.font_warning.empty()) {
      ImGui::SameLine(0, 2 * em);
      ImGui::TextColored(kError, "%s", s.font_warning.c_str());
    } else if (!s.message.empty() && age < kMessageSeconds) {
      ImGui::SameLine(0, 2 * em);
      ImGui::TextColored(s.message_is_error ? kError : kOk, "%s", s.message.c_str());
    }
    ImGui::PopClipRect();
  }
  ImGui::End();
  ImGui::PopStyleVar(4);
  ImGui::PopStyleColor();
}

}  // namespace ws::app
