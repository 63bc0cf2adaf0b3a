// warpscope's run process, from its own side: reads requests from the socket warpscope gave it,
// answers each with the handler registered for its kind, one at a time, in order. A Cancel notice
// sets the request's cancel flag (handlers pass it on to RunConfig::cancel). When warpscope's end
// closes (warpscope ended), the process ends at once, even mid-request.
//
//   Server s;
//   s.on(Kind::Device, [](const std::string&, const auto&) { return encode(device()); });
//   return s.serve(3);
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "ws/isolation/channel.h"

namespace ws::isolation {

class Server {
 public:
  // Returns the answer's payload; throws (any std::exception) to answer Failed with its text.
  using Handler = std::function<std::string(const std::string& payload, const std::shared_ptr<std::atomic<bool>>& cancel)>;
  // Notices (no answer).
  using NoticeHandler = std::function<void(const std::string& payload)>;

  void on(Kind kind, Handler h) { handlers_[kind] = std::move(h); }
  void on_notice(Kind kind, NoticeHandler h) { notices_[kind] = std::move(h); }
  // After each answer: false ends serving (the GPU's context is lost: a new process is cleaner).
  void after_each(std::function<bool()> keep_going) { keep_going_ = std::move(keep_going); }

  // Serves until warpscope's end closes or after_each says stop; returns the exit status.
  int serve(int fd);

  // Called by a handler as its request enters a stage with a time limit of its own
  // (CallLimits::phases): tells warpscope, which restarts the request's clock. Any thread.
  static void enter_phase(const std::string& name);

  // From a crash handler (a signal handler: no allocation, no lock): tells warpscope how the
  // request being answered is ending ("block [0,0,0], thread [5,0,0] ran past the end of its
  // stack"), which it shows with the signal the process ended by. Nothing when none is answered.
  static void say_last_words(const char* text, std::size_t size) noexcept;

 private:
  std::map<Kind, Handler> handlers_;
  std::map<Kind, NoticeHandler> notices_;
  std::function<bool()> keep_going_;
};

}  // namespace ws::isolation
