#include "helper_threads.h"

#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

namespace ws::emu {

struct HelperThreads::Helper {
  std::mutex mutex;
  std::condition_variable cv;
  const std::function<void()>* job = nullptr;  // set: run it; cleared when done
  bool done = false;
  std::thread thread;

  void loop() {
    for (;;) {
      std::unique_lock lock(mutex);
      cv.wait(lock, [&] { return job != nullptr; });
      const std::function<void()>* j = job;
      lock.unlock();
      (*j)();  // (a launch's work catches its own errors: see launch.cpp)
      lock.lock();
      job = nullptr;
      done = true;
      cv.notify_all();
    }
  }
};

namespace {
struct Idle {
  std::mutex mutex;
  std::vector<HelperThreads::Helper*> helpers;
};
Idle& idle() {
  static Idle& i = *new Idle;  // never destroyed, nor are the helpers (see the header)
  return i;
}
}  // namespace

HelperThreads::Helper* HelperThreads::take() {
  {
    Idle& i = idle();
    std::lock_guard lock(i.mutex);
    if (!i.helpers.empty()) {
      Helper* h = i.helpers.back();
      i.helpers.pop_back();
      return h;
    }
  }
  auto* h = new Helper;
  try {
    h->thread = std::thread([h] { h->loop(); });
  } catch (const std::system_error&) {  // (no thread to be had: the launch runs with fewer workers)
    delete h;
    return nullptr;
  }
  h->thread.detach();
  return h;
}

void HelperThreads::give(Helper* h) {
  Idle& i = idle();
  std::lock_guard lock(i.mutex);
  i.helpers.push_back(h);
}

HelperThreads::Batch::Batch(unsigned count, const std::function<void()>& job) {
  helpers_.reserve(count);
  for (unsigned k = 0; k < count; ++k) {
    Helper* h = take();
    if (!h) break;  // (the calling thread and the helpers started take every block anyway)
    {
      std::lock_guard lock(h->mutex);
      h->done = false;
      h->job = &job;
    }
    h->cv.notify_all();
    helpers_.push_back(h);
  }
}

void HelperThreads::Batch::wait() {
  for (Helper* h : helpers_) {
    {
      std::unique_lock lock(h->mutex);
      h->cv.wait(lock, [&] { return h->done; });
    }
    give(h);
  }
  helpers_.clear();
}

}  // namespace ws::emu
