#include "ws/viz/imgui_gl.h"

#include <backends/imgui_impl_opengl3.h>

namespace ws::viz {

bool imgui_gl_init() { return ImGui_ImplOpenGL3_Init("#version 330 core"); }

void imgui_gl_shutdown() {
  if (imgui_gl_ready()) ImGui_ImplOpenGL3_Shutdown();
}

bool imgui_gl_ready() { return ImGui::GetIO().BackendRendererUserData != nullptr; }

void imgui_gl_new_frame() { ImGui_ImplOpenGL3_NewFrame(); }

void imgui_gl_render(ImDrawData* data) { ImGui_ImplOpenGL3_RenderDrawData(data); }

void imgui_gl_reload_fonts() {
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

}  // namespace ws::viz
