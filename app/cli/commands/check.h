// `warpscope check EXERCISE.toml [--file F.cu | --file DIR ...] [--json]`: an exercise's goals
// graded on a student's file (without --file: on the exercise's starting file, which should not
// pass), or on a folder of submissions, several at once, each in its own confined process.
// Exit 0 when every goal holds for every file, 1 when some do not (or a file does not build, loops
// or crashes), 2 on bad input (an exercise that does not load, a missing file, bad options).
#pragma once

namespace CLI { class App; }

namespace ws::app {

void register_check_command(CLI::App& app);
// The exit code when `check` was chosen, else -1.
int run_check_if_selected();

}  // namespace ws::app
