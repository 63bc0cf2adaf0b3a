// Stacks for the per-thread fibers.
//
// Each fiber gets its own mmap'd stack with a guard page below it (an overflow faults instead of
// corrupting a neighbour). The stack tops are staggered by a few cache lines per fiber: with
// 256 KiB stacks every top would otherwise fall into the same L1/L2 cache sets, and the warp
// scheduler, which touches all 32..1024 stacks in turn, would miss the cache at every switch.
//
// Stacks are kept for the next launch instead of being unmapped: a lecture re-runs a kernel at
// every toggle, and mapping 256 stacks, faulting their first pages in and unmapping them again
// (a TLB shootdown on every core) cost more than the whole emulation of a 2^16 reduction.
#pragma once

#include <cstddef>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace ws::emu {

// The most thread stacks a launch may have in use at once (its workers x threads per block;
// ws::emu::launch_workers keeps to it): each is two memory mappings, the stack and its guard page,
// and Linux allows 65530 mappings per process by default.
inline constexpr std::size_t kMaxStacksInUse = 16384;

// Process-wide free list of stack mappings of one size: the size of the launch that gave them back
// last (plan_stacks chooses it from the run's memory limit, so it changes only with the limit).
class StackPool {
 public:
  static StackPool& instance() {
    static StackPool* pool = new StackPool;  // never destroyed: workers may finish after main()
    return *pool;
  }

  // A mapping of `bytes` usable bytes above a guard page; returns its lowest usable address.
  char* take(std::size_t bytes) {
    {
      std::lock_guard lock(mutex_);
      if (bytes != bytes_) drop_free_locked(bytes);
      if (!free_.empty()) {
        char* p = free_.back();
        free_.pop_back();
#if defined(__SANITIZE_ADDRESS__)
        // A fiber that used it last may never have returned from its frames (it was left
        // suspended or unwound by switching away): their red zones must not poison the next one.
        __asan_unpoison_memory_region(p, bytes);
#endif
        return p;
      }
    }
    const std::size_t page = page_size();
    void* base = ::mmap(nullptr, bytes + page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    if (::mprotect(base, page, PROT_NONE) != 0) {  // guard page: the stack grows down into it
      ::munmap(base, bytes + page);  // (a stack without its guard would overflow silently)
      throw std::bad_alloc();
    }
#if defined(__SANITIZE_ADDRESS__)
    // The mapping may lie where a stack of another size lay (drop_free_locked): the frames it
    // held left their red zones in ASan's shadow, which unmapping does not clear.
    __asan_unpoison_memory_region(static_cast<char*>(base) + page, bytes);
#endif
    return static_cast<char*>(base) + page;
  }

  void give(char* low, std::size_t bytes) noexcept {
    {
      std::lock_guard lock(mutex_);
      // As many as a launch may have in use (kMaxStacksInUse), so that the next launch maps
      // none afresh (a pool of 2048 made every launch on a 16-thread laptop map half its stacks
      // again). What it keeps costs the pages the threads touched, a page or two each.
      if (bytes == bytes_ && free_.size() < kMaxStacksInUse) {
        free_.push_back(low);
        return;
      }
    }
    ::munmap(low - page_size(), bytes + page_size());
  }

 private:
  static std::size_t page_size() { return std::size_t(::sysconf(_SC_PAGESIZE)); }
  // Another size is asked for: the kept stacks of the old one go (what they hold counts against
  // nothing any more, and a launch never mixes sizes).
  void drop_free_locked(std::size_t bytes) noexcept {
    for (char* low : free_) ::munmap(low - page_size(), bytes_ + page_size());
    free_.clear();
    bytes_ = bytes;
  }
  std::mutex mutex_;
  std::size_t bytes_ = 0;
  std::vector<char*> free_;
};

// One fiber's stack, from the pool and back to it.
class FiberStack {
 public:
  FiberStack(std::size_t bytes, unsigned index)
      : bytes_(bytes), offset_((index % 173) * 320), low_(StackPool::instance().take(bytes)) {}
  ~FiberStack() {
    if (low_) StackPool::instance().give(low_, bytes_);
  }
  FiberStack(FiberStack&& o) noexcept : bytes_(o.bytes_), offset_(o.offset_), low_(o.low_) { o.low_ = nullptr; }
  FiberStack(const FiberStack&) = delete;
  FiberStack& operator=(const FiberStack&) = delete;
  FiberStack& operator=(FiberStack&&) = delete;

  void* top() const { return low_ + bytes_ - offset_; }  // the stack grows down from here
  // In the guard page under the stack: where a thread that overflowed it faults.
  bool guard_contains(const void* address) const {
    const char* a = static_cast<const char*>(address);
    return low_ && a < low_ && a >= low_ - ::sysconf(_SC_PAGESIZE);
  }
  std::size_t usable_bytes() const { return bytes_ - offset_; }

 private:
  std::size_t bytes_;
  std::size_t offset_;
  char* low_;
};

}  // namespace ws::emu
