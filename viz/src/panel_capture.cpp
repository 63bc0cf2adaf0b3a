#include "ws/viz/panel_capture.h"

#include "ws/viz/framebuffer.h"
#include "ws/viz/gl.h"
#include "ws/viz/imgui_gl.h"

#include <cfloat>
#include <cmath>

namespace ws::viz {

namespace {

// Restores the caller's ImGui context and GL bindings however render_panel() leaves.
struct Restore {
  ImGuiContext* imgui;
  GLint fbo = 0;
  GLint viewport[4] = {0, 0, 0, 0};
  Restore() : imgui(ImGui::GetCurrentContext()) {
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &fbo);
    glGetIntegerv(GL_VIEWPORT, viewport);
  }
  ~Restore() {
    ImGui::SetCurrentContext(imgui);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(fbo));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  }
};

}  // namespace

bool render_panel(const PanelCapture& capture, Image& out, std::string& error) {
  const int w = static_cast<int>(std::lround(capture.size.x * capture.factor));
  const int h = static_cast<int>(std::lround(capture.size.y * capture.factor));
  if (w <= 0 || h <= 0) {
    error = "panel '" + capture.title + "' has no size to export";
    return false;
  }
  Restore restore;
  Framebuffer fb;
  if (!fb.resize(w, h, error)) return false;

  ImGuiContext* ctx = ImGui::CreateContext();
  ImGui::SetCurrentContext(ctx);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // a throw-away context: nothing to persist
  io.LogFilename = nullptr;
  // Laid out at 1x, drawn at `factor` output pixels per layout pixel: the same picture, sharper.
  io.DisplaySize = capture.size;
  io.DisplayFramebufferScale = ImVec2(capture.factor, capture.factor);
  io.MousePos = capture.mouse ? ImVec2(capture.mouse->x / capture.factor, capture.mouse->y / capture.factor)
                              : ImVec2(-FLT_MAX, -FLT_MAX);  // none: no hover highlights
  io.MouseDrawCursor = capture.mouse.has_value();  // the arrow, so that the picture shows where
  Look look = capture.look;
  look.raster = capture.factor;
  apply_look(look);
  bool ok = imgui_gl_init();
  if (!ok) error = "cannot initialize the OpenGL renderer for the export";

  const ImVec4 bg = background_color(look.theme());
  // A window that is new in a context may be hidden for its first frame while ImGui measures it;
  // three frames make sure the last one is complete.
  for (int frame = 0; ok && frame < 3; ++frame) {
    io.DeltaTime = 1.0f / 60.0f;
    imgui_gl_new_frame();
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin(capture.title.c_str(), nullptr,
                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                     ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
    if (capture.draw) capture.draw();
    ImGui::End();
    ImGui::Render();
    fb.bind();
    glClearColor(bg.x, bg.y, bg.z, bg.w);
    glClear(GL_COLOR_BUFFER_BIT);
    imgui_gl_render(ImGui::GetDrawData());
  }
  if (ok) out = fb.read();
  imgui_gl_shutdown();
  ImGui::DestroyContext(ctx);
  return ok;
}

}  // namespace ws::viz
