// Stacks for the per-thread fibers.
//
// Each fiber gets its own mmap'd stack with a guard page below it (an overflow faults instead of
// corrupting a neighbour). The stack tops are staggered by a few cache lines per fiber: with
// 256 KiB stacks every top would otherwise fall into the same L1/L2 cache sets, and the warp
// scheduler, which touches all 32..1024 stacks in turn, would miss the cache at every switch.
#pragma once

#include <boost/context/stack_context.hpp>
#include <cstddef>
#include <new>
#include <sys/mman.h>
#include <unistd.h>

namespace ws::emu {

class StaggeredStack {
 public:
  StaggeredStack(std::size_t size, unsigned index) : size_(size), offset_((index % 173) * 320) {}

  boost::context::stack_context allocate() {
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    void* base = ::mmap(nullptr, size_ + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    ::mprotect(base, page, PROT_NONE);  // guard page: the stack grows down into it
    boost::context::stack_context sctx;
    sctx.size = size_ - offset_;
    sctx.sp = static_cast<char*>(base) + page + size_ - offset_;
    return sctx;
  }

  void deallocate(boost::context::stack_context& sctx) noexcept {
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    char* base = static_cast<char*>(sctx.sp) + offset_ - size_ - page;
    ::munmap(base, size_ + page);
  }

 private:
  std::size_t size_;
  std::size_t offset_;
};

}  // namespace ws::emu
