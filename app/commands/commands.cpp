#include "commands.h"

#include <CLI/CLI.hpp>

namespace ws::app {

// Filled in as the subcommands land (list, run, trace, analyze).
void register_commands(CLI::App&) {}
int run_selected_command(CLI::App&) { return -1; }

}  // namespace ws::app
