// Running another program as a child process: its output captured (up to a cap), a time limit,
// and a way to stop it early. The child has its own process group, so stopping it stops what it
// started too (a compiler's cc1plus, a grader's run process).
//
//   ws::ProgramRun r = ws::run_program({"/usr/bin/c++", "-c", "k.cpp"}, {.timeout_seconds = 120});
//   if (!r.ok) puts(r.failure.c_str());   // "/usr/bin/c++ took longer than 120 s and was stopped"
#pragma once

#include <atomic>
#include <string>
#include <vector>

namespace ws {

struct ProgramOptions {
  double timeout_seconds = 60;
  const std::atomic<bool>* cancel = nullptr;  // turns true: stop it
  std::string tmpdir;                         // its TMPDIR ("" keeps ours)
  std::string what;                           // for the messages ("" : argv[0])
  size_t max_output = 1 << 20;                // stdout and stderr together; the rest is read and dropped
};

struct ProgramRun {
  bool ok = false;          // started and exited with status 0
  bool timed_out = false;
  bool cancelled = false;
  int exit_status = -1;     // when it exited
  int signal = 0;           // when a signal ended it (not the time limit's)
  std::string output;       // stdout and stderr together, at most max_output bytes
  std::string failure;      // why it did not run or did not succeed, for the user
  double seconds = 0;
};

// Runs argv[0] (a path, or a name looked up in PATH) with the arguments, stdin from /dev/null.
ProgramRun run_program(const std::vector<std::string>& argv, const ProgramOptions& options);

}  // namespace ws
