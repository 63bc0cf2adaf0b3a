#include "ws/isolation/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

extern char** environ;

namespace ws::isolation {

namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMaxNotices = 1024;

std::string seconds_text(double s) {
  char b[32];
  std::snprintf(b, sizeof b, s >= 10 || s == std::floor(s) ? "%.0f s" : "%.1f s", s);
  return b;
}

}  // namespace

ChildProcess::ChildProcess(ChildOptions o) : options_(std::move(o)) {}

ChildProcess::~ChildProcess() { stop(); }

void ChildProcess::stop() {
  std::lock_guard lock(mu_);
  stop_locked();
}

bool ChildProcess::start_locked(std::string& error) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    error = std::string("cannot make a socket for the run process: ") + std::strerror(errno);
    return false;
  }
  // The child's end becomes its fd 3 (dup2 clears close-on-exec there; dup2 of 3 onto itself
  // would not, so an end that is already 3 is moved first).
  int child_end = sv[1];
  int moved = -1;
  if (child_end == 3) {
    moved = ::fcntl(child_end, F_DUPFD_CLOEXEC, 10);
    child_end = moved;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, child_end, 3);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  // Its own process group: a process the kernel file's code forks is stopped with it.
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  std::vector<std::string> args;
  args.push_back(options_.exe);
  for (const std::string& a : options_.args) args.push_back(a);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, options_.exe.c_str(), &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(sv[1]);
  if (moved >= 0) ::close(moved);
  if (rc != 0) {
    ::close(sv[0]);
    error = "cannot start the run process (" + options_.exe + "): " + std::strerror(rc);
    return false;
  }
  fd_ = sv[0];
  pid_ = pid;
  reader_ = FrameReader{};
  ++generation_;
  {
    std::lock_guard lock(notices_mu_);
    notices_.clear();  // about the process before
  }
  return true;
}

std::string ChildProcess::end_text_locked(int status) const {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return "signal " + std::to_string(sig) + " (" + (name ? name : "unknown") + ")";
  }
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "status " + std::to_string(status);
}

std::string ChildProcess::reap_locked(bool* exited) {
  const pid_t pid = pid_.load();
  std::string how = "it ended";
  if (exited) *exited = false;
  if (pid > 0) {
    int status = 0;
    // It closed its end, so it is ending; give it a moment, then make sure.
    const auto until = Clock::now() + std::chrono::seconds(2);
    pid_t got = 0;
    while ((got = ::waitpid(pid, &status, WNOHANG)) == 0 && Clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (got == 0) {
      ::kill(pid, SIGKILL);
      got = ::waitpid(pid, &status, 0);
    }
    if (got == pid) how = end_text_locked(status);
    if (got == pid && exited) *exited = WIFEXITED(status);
    ::kill(-pid, SIGKILL);  // what it left running in its group
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  pid_ = 0;
  return how;
}

void ChildProcess::stop_locked() {
  const pid_t pid = pid_.load();
  if (pid > 0) {
    ::kill(-pid, SIGKILL);  // it and what it started
    ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  pid_ = 0;
}

void ChildProcess::notify(Kind kind, const std::string& payload) {
  std::lock_guard lock(notices_mu_);
  if (notices_.size() >= kMaxNotices) notices_.erase(notices_.begin());
  notices_.push_back(Frame{kind, 0, payload});
}

Answer ChildProcess::call(Kind kind, const std::string& payload, const CallLimits& limits) {
  std::lock_guard lock(mu_);
  Answer a;
  if (fd_ < 0 && !start_locked(a.error)) return a;
  std::vector<Frame> notices;
  {
    std::lock_guard nl(notices_mu_);
    notices.swap(notices_);
  }
  const uint64_t id = next_id_++;
  auto lost = [&](std::string why) {
    a.ok = false;
    a.process_lost = true;
    a.error = std::move(why);
    return a;
  };
  for (const Frame& n : notices) send_frame(fd_, n);
  if (!send_frame(fd_, Frame{kind, id, payload}))
    return lost("the run process ended before " + limits.what + " could start, by " + reap_locked());
  auto start = Clock::now();
  double timeout = limits.timeout_seconds;
  std::string what = limits.what;
  std::string last_words;  // the process's crash handler's, when it is crashing
  bool cancel_sent = false;
  Clock::time_point grace_end{};
  for (;;) {
    Frame f;
    std::string err;
    while (reader_.next(f, err)) {
      if (f.id != id) continue;  // (an answer to a request given up on: none are, but be sure)
      if (f.kind == Kind::LastWords) {
        last_words = std::move(f.payload);
        continue;
      }
      if (f.kind == Kind::Phase) {  // the next stage: its own limit from now
        for (const CallPhase& p : limits.phases)
          if (p.name == f.payload) start = Clock::now(), timeout = p.timeout_seconds, what = p.what;
        continue;
      }
      const bool ending = uint32_t(f.kind) & kEndsAfter;
      if (Kind(uint32_t(f.kind) & ~kEndsAfter) == Kind::Reply) {
        a.ok = true;
        a.payload = std::move(f.payload);
      } else {
        a.error = f.payload.empty() ? "the run process could not answer" : f.payload;
        a.out_of_memory = Kind(uint32_t(f.kind) & ~kEndsAfter) == Kind::OutOfMemory;
      }
      a.cancelled = cancel_sent;
      if (ending) {  // it lost its CUDA context: the next request starts a new process
        reap_locked();
        a.process_lost = true;
      }
      return a;
    }
    if (!err.empty()) {
      stop_locked();
      return lost("the run process sent a message warpscope cannot read (" + err + "); it was stopped");
    }
    pollfd pfd{fd_, POLLIN, 0};
    const int k = ::poll(&pfd, 1, 20);
    if (k > 0) {
      std::string why;
      if (!reader_.read_some(fd_, why)) {
        while (reader_.next(f, err)) {
          if (f.id == id && f.kind == Kind::LastWords) last_words = std::move(f.payload);
          if (f.id == id && Kind(uint32_t(f.kind) & ~kEndsAfter) == Kind::Reply) {  // it answered, then ended
            reap_locked();
            a.ok = true;
            a.payload = std::move(f.payload);
            a.process_lost = true;
            return a;
          }
        }
        bool exited = false;  // (it ended itself: exit(), not a signal)
        const std::string how = reap_locked(&exited);
        const std::string where = !last_words.empty() ? "in the kernel, " + last_words
                                  : exited ? "code in it called exit() (a kernel file's host code?)"
                                           : "a crash in host code (a kernel file's) or in the GPU driver";
        return lost("the run process ended during " + what + ", by " + how + ": " + where +
                    ". warpscope goes on; the next run starts a new process");
      }
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (limits.cancel && limits.cancel->load() && !cancel_sent) {
      cancel_sent = true;
      send_frame(fd_, Frame{Kind::Cancel, id, {}});
      grace_end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(limits.cancel_grace_seconds));
    }
    if (cancel_sent && Clock::now() >= grace_end) {
      stop_locked();
      a.cancelled = true;
      return lost(limits.what + " was cancelled and did not stop within " + seconds_text(limits.cancel_grace_seconds) +
                  ", so its process was stopped");
    }
    if (timeout > 0 && elapsed >= timeout) {
      stop_locked();
      a.timed_out = true;
      return lost(what + " did not finish in " + seconds_text(timeout) +
                  ", so its process was stopped (a kernel that never ends, or host code in an endless loop?). "
                  "warpscope goes on; the next run starts a new process (WARPSCOPE_RUN_TIMEOUT sets the limit)");
    }
  }
}

}  // namespace ws::isolation
