#include "ws/isolation/server.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

namespace ws::isolation {

namespace {
// The request being answered, for enter_phase (from any thread of its handler); its answer is
// sent under the same lock, so no phase notice follows it.
struct Answering {
  std::mutex mu;
  int fd = -1;
  uint64_t id = 0;
};
Answering g_answering;
// The same, readable from a signal handler (say_last_words).
std::atomic<int> g_crash_fd{-1};
std::atomic<uint64_t> g_crash_id{0};

// A frame's header as channel.cpp writes it (little-endian kind, id, size), without allocating.
void put_le(char* at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) at[i] = char((v >> (8 * i)) & 0xff);
}
}  // namespace

void Server::say_last_words(const char* text, std::size_t size) noexcept {
  const int fd = g_crash_fd.load();
  if (fd < 0) return;
  char frame[4 + 8 + 8 + 1024];
  size = size < 1024 ? size : 1024;
  put_le(frame, uint32_t(Kind::LastWords), 4);
  put_le(frame + 4, g_crash_id.load(), 8);
  put_le(frame + 12, size, 8);
  std::memcpy(frame + 20, text, size);
  for (std::size_t sent = 0, total = 20 + size; sent < total;) {
    const ssize_t k = ::send(fd, frame + sent, total - sent, MSG_NOSIGNAL);
    if (k <= 0 && errno != EINTR) return;
    if (k > 0) sent += std::size_t(k);
  }
}

int Server::serve(int fd) {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Frame> queue;
  uint64_t current = 0;  // the request being answered
  std::shared_ptr<std::atomic<bool>> current_cancel;
  std::vector<uint64_t> cancelled;  // cancel notices for requests still queued

  // The reader: requests into the queue, notices at once. warpscope gone: end now (a kernel that
  // never ends would otherwise keep its GPU busy for nobody).
  std::thread reader([&] {
    FrameReader in;
    for (;;) {
      Frame f;
      std::string error;
      if (!receive_frame(fd, in, f, error)) ::_exit(0);
      std::lock_guard lock(mu);
      if (f.kind == Kind::Cancel) {
        if (f.id == current && current_cancel) current_cancel->store(true);
        else if (cancelled.size() < 1024) cancelled.push_back(f.id);
        continue;
      }
      queue.push_back(std::move(f));
      cv.notify_one();
    }
  });
  reader.detach();

  for (;;) {
    Frame f;
    std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return !queue.empty(); });
      f = std::move(queue.front());
      queue.pop_front();
      current = f.id;
      current_cancel = cancel;
      for (auto it = cancelled.begin(); it != cancelled.end(); ++it)
        if (*it == f.id) {
          cancel->store(true);
          cancelled.erase(it);
          break;
        }
    }
    if (auto n = notices_.find(f.kind); n != notices_.end()) {
      try {
        n->second(f.payload);
      } catch (...) {
      }
      continue;
    }
    Frame answer{Kind::Reply, f.id, {}};
    if (auto h = handlers_.find(f.kind); h == handlers_.end()) {
      answer.kind = Kind::Failed;
      answer.payload = "the run process does not know request " + std::to_string(uint32_t(f.kind));
    } else {
      {
        std::lock_guard lock(g_answering.mu);
        g_answering.fd = fd;
        g_answering.id = f.id;
        g_crash_id = f.id;
        g_crash_fd = fd;
      }
      try {
        answer.payload = h->second(f.payload, cancel);
      } catch (const std::bad_alloc&) {
        answer.kind = Kind::OutOfMemory;
        answer.payload = "ran out of the memory it was given (std::bad_alloc)";
      } catch (const std::exception& e) {
        answer.kind = Kind::Failed;
        answer.payload = e.what();
      } catch (...) {
        answer.kind = Kind::Failed;
        answer.payload = "the request failed with an unknown error";
      }
    }
    {
      std::lock_guard lock(mu);
      current = 0;
      current_cancel.reset();
    }
    const bool ending = keep_going_ && !keep_going_();
    if (ending) answer.kind = Kind(uint32_t(answer.kind) | kEndsAfter);
    std::lock_guard lock(g_answering.mu);  // (no phase notice after the answer)
    g_answering.fd = -1;
    g_crash_fd = -1;
    if (!send_frame(fd, answer) || ending) return 0;
  }
}

void Server::enter_phase(const std::string& name) {
  std::lock_guard lock(g_answering.mu);
  if (g_answering.fd >= 0) send_frame(g_answering.fd, Frame{Kind::Phase, g_answering.id, name});
}

}  // namespace ws::isolation
