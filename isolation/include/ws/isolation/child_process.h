// warpscope's run process, from warpscope's side: a second copy of the program (`warpscope
// serve-runs`) that runs what could take the viewer down with it — GPU work (a sticky fault, a
// kernel that never ends, a driver reset) and a kernel file's own host code (a null pointer, an
// endless loop). It is started on first use and again after it died or was stopped.
//
//   ChildProcess p({.exe = "/usr/bin/warpscope"});
//   Answer a = p.call(Kind::Device, {}, {.timeout_seconds = 30});
//   if (!a.ok) show(a.error);   // "the run process ended: signal 11 (Segmentation fault) ..."
//
// One request at a time (callers queue on a lock): the GPU has one user at a time anyway.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ws/isolation/channel.h"

namespace ws::isolation {

struct ChildOptions {
  std::string exe;                 // the warpscope executable (its serve-runs command)
  std::vector<std::string> args = {"serve-runs", "--fd", "3"};
};

// A stage of a request with a time limit of its own, from the moment the run process says it
// begins (Server::enter_phase): a kernel file's build may compile for minutes, but loading it
// (its static initialisers) gets a run's limit.
struct CallPhase {
  std::string name;               // as the run process names it: "load"
  double timeout_seconds = 60;    // from its start
  std::string what;               // for the messages: "loading saxpy.cu (its static initialisers)"
};

struct CallLimits {
  double timeout_seconds = 60;     // then the process is stopped and the call fails; 0: none
  std::vector<CallPhase> phases;   // later stages' own limits, replacing timeout_seconds
  double cancel_grace_seconds = 2; // after `cancel` turns true, how long the request may take to stop
  const std::atomic<bool>* cancel = nullptr;
  std::string what = "the run";    // for the messages: "the run did not finish in 60 s"
};

struct Answer {
  bool ok = false;
  std::string payload;   // Kind::Reply's
  std::string error;     // why not: the request failed, the process ended, the time ran out
  bool process_lost = false;  // the process ended or was stopped: what it kept is gone
  bool cancelled = false;     // stopped because `cancel` turned true
  bool timed_out = false;     // stopped at CallLimits::timeout_seconds
  bool out_of_memory = false; // the request ran out of the process's memory (std::bad_alloc there)
};

class ChildProcess {
 public:
  explicit ChildProcess(ChildOptions o);
  ~ChildProcess();  // stops the process
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Sends a request and waits for its answer, starting the process first when none runs.
  Answer call(Kind kind, const std::string& payload, const CallLimits& limits);
  // Queues a notice (no answer) for the running process: sent before the next request, never
  // waiting for one that is going (a replay dropped on the UI thread). Dropped when the process
  // ends first: what it was about ended with it.
  void notify(Kind kind, const std::string& payload);
  // Increases each time a process is started: what an older one kept (a replay) is gone.
  uint64_t generation() const { return generation_.load(); }
  // The running process's id, 0 when none (tests stop it from outside).
  int pid() const { return pid_.load(); }
  void stop();

 private:
  bool start_locked(std::string& error);
  void stop_locked();
  std::string end_text_locked(int status) const;  // "signal 11 (Segmentation fault)"
  // Waits for the ended process and says how it ended; `exited`: by exit(), not by a signal.
  std::string reap_locked(bool* exited = nullptr);

  ChildOptions options_;
  std::mutex mu_;
  int fd_ = -1;
  std::atomic<int> pid_{0};
  std::atomic<uint64_t> generation_{0};
  uint64_t next_id_ = 1;
  FrameReader reader_;
  std::mutex notices_mu_;
  std::vector<Frame> notices_;  // at most kMaxNotices; the oldest go first
};

}  // namespace ws::isolation
