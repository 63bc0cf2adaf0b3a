#include "ws/viz/theme.h"

namespace ws::viz {

namespace {

void dark_colors(ImGuiStyle& s) {
  ImGui::StyleColorsDark(&s);
  ImVec4* c = s.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.105f, 0.110f, 0.125f, 1.00f);
  c[ImGuiCol_ChildBg] = ImVec4(0.00f, 0.00f, 0.00f, 0.00f);
  c[ImGuiCol_PopupBg] = ImVec4(0.130f, 0.135f, 0.155f, 0.98f);
  c[ImGuiCol_Border] = ImVec4(0.260f, 0.270f, 0.300f, 1.00f);
  // Title bars: inactive clearly darker than active, both distinct from the menu bar, so a
  // screenshot shows at a glance which panel has focus.
  c[ImGuiCol_TitleBg] = ImVec4(0.150f, 0.180f, 0.240f, 1.00f);
  c[ImGuiCol_TitleBgActive] = ImVec4(0.180f, 0.330f, 0.560f, 1.00f);
  c[ImGuiCol_TitleBgCollapsed] = ImVec4(0.150f, 0.180f, 0.240f, 0.80f);
  c[ImGuiCol_MenuBarBg] = ImVec4(0.170f, 0.175f, 0.200f, 1.00f);
  c[ImGuiCol_Text] = ImVec4(0.920f, 0.925f, 0.940f, 1.00f);
  c[ImGuiCol_TextDisabled] = ImVec4(0.580f, 0.600f, 0.640f, 1.00f);
}

// Projectors wash out dark greys: pure black and white, saturated accents, thicker borders.
void high_contrast_colors(ImGuiStyle& s) {
  ImGui::StyleColorsDark(&s);
  ImVec4* c = s.Colors;
  const ImVec4 black(0.f, 0.f, 0.f, 1.f), white(1.f, 1.f, 1.f, 1.f);
  const ImVec4 accent(1.00f, 0.85f, 0.10f, 1.f);  // yellow reads on every projector
  c[ImGuiCol_Text] = white;
  c[ImGuiCol_TextDisabled] = ImVec4(0.85f, 0.85f, 0.85f, 1.f);
  c[ImGuiCol_WindowBg] = black;
  c[ImGuiCol_ChildBg] = black;
  c[ImGuiCol_PopupBg] = black;
  c[ImGuiCol_Border] = white;
  c[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.15f, 0.15f, 1.f);
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.30f, 0.30f, 0.30f, 1.f);
  c[ImGuiCol_FrameBgActive] = ImVec4(0.40f, 0.40f, 0.40f, 1.f);
  c[ImGuiCol_TitleBg] = ImVec4(0.20f, 0.20f, 0.20f, 1.f);
  c[ImGuiCol_TitleBgActive] = ImVec4(0.00f, 0.25f, 0.70f, 1.f);
  c[ImGuiCol_TitleBgCollapsed] = ImVec4(0.20f, 0.20f, 0.20f, 1.f);
  c[ImGuiCol_MenuBarBg] = ImVec4(0.12f, 0.12f, 0.12f, 1.f);
  c[ImGuiCol_Header] = ImVec4(0.00f, 0.25f, 0.70f, 1.f);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.00f, 0.35f, 0.90f, 1.f);
  c[ImGuiCol_HeaderActive] = ImVec4(0.00f, 0.45f, 1.00f, 1.f);
  c[ImGuiCol_Button] = ImVec4(0.00f, 0.25f, 0.70f, 1.f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.00f, 0.35f, 0.90f, 1.f);
  c[ImGuiCol_ButtonActive] = ImVec4(0.00f, 0.45f, 1.00f, 1.f);
  c[ImGuiCol_CheckMark] = accent;
  c[ImGuiCol_SliderGrab] = accent;
  c[ImGuiCol_SliderGrabActive] = accent;
  c[ImGuiCol_PlotLines] = accent;
  c[ImGuiCol_PlotHistogram] = accent;
  c[ImGuiCol_Separator] = white;
  c[ImGuiCol_ScrollbarBg] = black;
  c[ImGuiCol_ScrollbarGrab] = ImVec4(0.60f, 0.60f, 0.60f, 1.f);
  s.WindowBorderSize = 2.0f;
  s.FrameBorderSize = 1.0f;
}

}  // namespace

ImGuiStyle make_style(Theme theme, float scale) {
  ImGuiStyle s;  // fresh defaults, so scaling never compounds
  if (theme == Theme::HighContrast)
    high_contrast_colors(s);
  else
    dark_colors(s);
  s.WindowRounding = 4.0f;
  s.FrameRounding = 3.0f;
  s.GrabRounding = 3.0f;
  s.PopupRounding = 3.0f;
  s.ScrollbarRounding = 4.0f;
  s.WindowTitleAlign = ImVec2(0.0f, 0.5f);
  s.ScaleAllSizes(scale);
  return s;
}

ImVec4 background_color(Theme theme) {
  return theme == Theme::HighContrast ? ImVec4(0.f, 0.f, 0.f, 1.f)
                                      : ImVec4(0.060f, 0.063f, 0.072f, 1.f);
}

}  // namespace ws::viz
