// Runs the built warpscope binary with a shell command line and captures what it prints.
#pragma once

#include <string>

struct RunResult {
  int exit_code = -1;
  std::string out;  // stdout and stderr together
};

// `args` is appended to the binary path verbatim; `env` (e.g. "DISPLAY= ") goes before it.
RunResult run_warpscope(const std::string& args, const std::string& env = "");
