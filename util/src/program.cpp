#include "ws/util/program.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>

extern char** environ;

namespace ws {

ProgramRun run_program(const std::vector<std::string>& argv, const ProgramOptions& o) {
  ProgramRun r;
  const std::string what = !o.what.empty() ? o.what : argv.empty() ? std::string("the program") : argv[0];
  const auto t0 = std::chrono::steady_clock::now();
  int fd[2];
  if (argv.empty() || pipe2(fd, O_CLOEXEC) != 0) {
    r.failure = "could not start " + what + " (" + std::string(std::strerror(errno)) + ")";
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group, so a time-out stops its children (a compiler's cc1plus, ptxas) too.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // Its temporary files (gcc's, nvcc's) go to `tmpdir`: one stopped early leaves them there.
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e)
    if (o.tmpdir.empty() || std::strncmp(*e, "TMPDIR=", 7) != 0) env_text.push_back(*e);
  if (!o.tmpdir.empty()) env_text.push_back("TMPDIR=" + o.tmpdir);
  std::vector<char*> env;
  for (std::string& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, args[0], &fa, &attr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(fd[1]);
  if (err != 0) {
    close(fd[0]);
    r.failure = "could not run " + what + " (" + std::strerror(err) + ")";
    return r;
  }
  char buf[8192];
  bool open = true;
  while (open) {
    pollfd p{fd[0], POLLIN, 0};
    const int ready = poll(&p, 1, 50);
    if (ready > 0) {
      const ssize_t got = read(fd[0], buf, sizeof buf);
      if (got <= 0) open = false;
      else if (r.output.size() < o.max_output) r.output.append(buf, size_t(std::min<ssize_t>(got, ssize_t(o.max_output - r.output.size()))));
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const bool stop_cancel = o.cancel && o.cancel->load();
    if (open && ((o.timeout_seconds > 0 && elapsed > o.timeout_seconds) || stop_cancel)) {
      kill(-pid, SIGKILL);
      (stop_cancel ? r.cancelled : r.timed_out) = true;
      open = false;
    }
  }
  close(fd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status) && !r.timed_out && !r.cancelled) r.signal = WTERMSIG(status);
  if (r.timed_out) r.failure = what + " took longer than " + std::to_string(int(o.timeout_seconds)) + " s and was stopped";
  else if (r.cancelled) r.failure = "stopped: " + what + " was cancelled";
  else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) r.ok = true;
  else if (WIFSIGNALED(status)) r.failure = what + " was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  else r.failure = what + " failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  return r;
}

}  // namespace ws
