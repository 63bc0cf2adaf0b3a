// The viewer in a GLFW window. The only file that knows GLFW and key codes: it turns keys into
// Actions and hands every frame to the same shell the headless path draws.
#pragma once

#include "model/options.h"

namespace ws::app {

// Returns the exit code. Without a display it prints one line saying how to render headless.
int run_window(const Options& opt);

}  // namespace ws::app
