// The `warpscope` command line: the viewer's options plus the subcommands of app/cli/commands/.
// Exit codes: 0 ok, 1 a runtime failure (e.g. unwritable screenshot path), 2 bad usage.
#pragma once

namespace ws::app {

int run_cli(int argc, char** argv);

}  // namespace ws::app
