// Dear ImGui's OpenGL 3 renderer (from Debian's libimgui.a) behind a small interface, so the
// window path and the headless path render the UI with exactly the same code. All functions act on
// the current ImGui context; each context needs its own imgui_gl_init().
#pragma once

#include <imgui.h>

namespace ws::viz {

bool imgui_gl_init();        // GLSL 330 core; needs a current GL 3.3 context
void imgui_gl_shutdown();
bool imgui_gl_ready();       // initialized in the current ImGui context
void imgui_gl_new_frame();
void imgui_gl_render(ImDrawData* data);
void imgui_gl_reload_fonts();  // after the atlas was rebuilt (new scale)

}  // namespace ws::viz
