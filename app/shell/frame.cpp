#include "shell/frame.h"

#include "ws/viz/gl.h"
#include "ws/viz/imgui_gl.h"

namespace ws::app {

void render_frame(ShellState& s, const FrameInput& in, ImVec2 framebuffer,
                  const std::function<void()>& platform_new_frame) {
  ws::viz::imgui_gl_new_frame();
  if (platform_new_frame) platform_new_frame();
  ImGui::NewFrame();
  shell_frame(s, in);
  ImGui::Render();
  glViewport(0, 0, static_cast<GLsizei>(framebuffer.x), static_cast<GLsizei>(framebuffer.y));
  const ImVec4 bg = ws::viz::background_color(s.look.theme());
  glClearColor(bg.x, bg.y, bg.z, bg.w);
  glClear(GL_COLOR_BUFFER_BIT);
  ws::viz::imgui_gl_render(ImGui::GetDrawData());
}

}  // namespace ws::app
