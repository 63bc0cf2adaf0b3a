// Offscreen export of one panel: the right size at 1x and 2x, the panel's own title bar on top,
// its body scaled (not stretched), and nothing of other windows in it.
#include "ws/viz/headless_context.h"
#include "ws/viz/imgui_gl.h"
#include "ws/viz/panel_capture.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

bool near(const uint8_t* p, ImVec4 c, int tol = 3) {
  return std::abs(p[0] - int(std::lround(c.x * 255))) <= tol &&
         std::abs(p[1] - int(std::lround(c.y * 255))) <= tol &&
         std::abs(p[2] - int(std::lround(c.z * 255))) <= tol;
}

// A body that draws a pure green square, 2 font sizes wide, at the content origin.
void green_square() {
  float em = ImGui::GetFontSize();
  ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + 2 * em, p.y + 2 * em), IM_COL32(0, 255, 0, 255));
  ImGui::Dummy(ImVec2(2 * em, 2 * em));
}

}  // namespace

TEST(PanelCapture, OneXAndTwoX) {
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  ASSERT_TRUE(ctx) << err;
  ws::viz::Look look{1.0f, false};
  for (float factor : {1.0f, 2.0f}) {
    ws::viz::PanelCapture cap{"Test panel", ImVec2(300, 200), look, factor, green_square};
    ws::viz::Image img;
    ASSERT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
    ASSERT_EQ(img.width, int(300 * factor));
    ASSERT_EQ(img.height, int(200 * factor));
    ImGuiStyle style = ws::viz::make_style(look.theme(), look.style_scale() * factor);
    const float em = std::round(look.font_px() * factor);
    const float title_h = em + 2 * style.FramePadding.y;
    // Title bar (the only window, so focused) across the top, right of the title text.
    EXPECT_TRUE(near(img.pixel(img.width - int(3 * em), int(title_h / 2)), style.Colors[ImGuiCol_TitleBgActive]))
        << "factor " << factor;
    // The body starts below the title at the window padding; the square is em-sized, so it
    // doubles with the factor instead of being clipped or stretched.
    const int sx = int(style.WindowPadding.x + em), sy = int(title_h + style.WindowPadding.y + em);
    const uint8_t* g = img.pixel(sx, sy);
    EXPECT_TRUE(g[0] < 10 && g[1] > 245 && g[2] < 10) << "factor " << factor << " at " << sx << "," << sy;
    // Right of the square: window background again.
    EXPECT_TRUE(near(img.pixel(int(style.WindowPadding.x + 3 * em), sy), style.Colors[ImGuiCol_WindowBg]));
  }
}

TEST(PanelCapture, OtherWindowsNeverAppear) {
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  ASSERT_TRUE(ctx) << err;
  // A main UI context with a red window covering everything, mid-frame bookkeeping done.
  ImGuiContext* main_ctx = ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::GetIO().DisplaySize = ImVec2(400, 300);
  ws::viz::apply_look({1.0f, false});
  ASSERT_TRUE(ws::viz::imgui_gl_init());
  ws::viz::imgui_gl_new_frame();
  ImGui::NewFrame();
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(1, 0, 0, 1));
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(400, 300));
  ImGui::Begin("Covering window");
  ImGui::End();
  ImGui::PopStyleColor();
  ImGui::Render();

  ws::viz::PanelCapture cap{"Exported", ImVec2(200, 150), {1.0f, false}, 1.0f, [] { ImGui::Text("hello"); }};
  ws::viz::Image img;
  ASSERT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
  for (size_t i = 0; i < img.rgba.size(); i += 4)
    ASSERT_FALSE(img.rgba[i] > 200 && img.rgba[i + 1] < 40 && img.rgba[i + 2] < 40) << "red pixel at " << i / 4;
  // The caller's context is current again and still usable.
  EXPECT_EQ(ImGui::GetCurrentContext(), main_ctx);
  ws::viz::imgui_gl_new_frame();
  ImGui::NewFrame();
  ImGui::Render();
  ws::viz::imgui_gl_shutdown();
  ImGui::DestroyContext(main_ctx);
}
