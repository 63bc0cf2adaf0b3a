// `warpscope lesson FILE [--export DIR] [--size WxH] [--scale F] [--check]`: a lesson's steps as
// slides, or checked (it loads, and every step shows what it names).
#pragma once

namespace CLI { class App; }

namespace ws::app {

void register_lesson_command(CLI::App& app);
// The exit code when `lesson` was chosen, else -1.
int run_lesson_if_selected();

}  // namespace ws::app
