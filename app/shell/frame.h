// One frame of the shell into the currently bound framebuffer, shared by the window and the
// headless driver so both draw exactly the same thing.
#pragma once

#include "shell/shell.h"

#include <functional>

namespace ws::app {

// `platform_new_frame` fills ImGui's io (GLFW backend in a window); headless passes nothing and
// sets io.DisplaySize / io.DeltaTime itself. `framebuffer` is the target size in pixels.
void render_frame(ShellState& s, const FrameInput& in, ImVec2 framebuffer,
                  const std::function<void()>& platform_new_frame = {});

}  // namespace ws::app
