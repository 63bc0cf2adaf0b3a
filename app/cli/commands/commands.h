// The subcommands of `warpscope` that work on kernels and traces (list, run, trace, analyze, ...).
// The shell (app/cli) owns the top-level parser and calls register_commands() once; each
// subcommand lives in its own cmd_*.cpp next to this file.
#pragma once

namespace CLI { class App; }

namespace ws::app {

// Adds the subcommands to `app`. When one of them was chosen on the command line, the shell calls
// run_selected_command() after parsing; it returns the process exit code, or -1 if no subcommand
// of ours was selected (then the shell starts the viewer).
void register_commands(CLI::App& app);
int run_selected_command(CLI::App& app);

}  // namespace ws::app
