// The threads that run a launch's workers after the first (the calling thread is the first),
// kept from one launch to the next: starting a thread costs a launch about as much as running a
// small block, waking one that waits costs little.
//
//   HelperThreads::Batch batch(workers - 1, work);  // work() starts on workers - 1 helpers
//   work();                                         // and on this thread
//   batch.wait();                                    // (also done by ~Batch)
//
// Launches from several threads at once each get helpers of their own (more are started when
// none is waiting; when no thread can be started the launch runs with fewer workers, which
// changes nothing but its speed). Helpers are never stopped: at exit they wait on, touching
// nothing.
#pragma once

#include <functional>
#include <memory>
#include <vector>

namespace ws::emu {

class HelperThreads {
 public:
  struct Helper;
  class Batch {
   public:
    Batch(unsigned count, const std::function<void()>& job);
    ~Batch() { wait(); }
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;
    void wait();  // until every helper of the batch has finished `job`, then gives them back

   private:
    std::vector<Helper*> helpers_;
  };

 private:
  static Helper* take();
  static void give(Helper* h);
};

}  // namespace ws::emu
