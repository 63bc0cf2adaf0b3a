// The emulator's side of a crash report (ws/emu/crash_report.h): read from a signal handler, so
// it formats into the caller's buffer and reads only what the faulting thread's worker holds.
#include "ws/emu/crash_report.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstring>

#include "site_registry.h"
#include "worker.h"

namespace ws::emu {

namespace {

// The file name of a path: diagnostics name the kernel file as its user knows it.
const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

constexpr std::size_t kSignalStackBytes = 64 * 1024;

// The stack goes when its thread ends: a pthread key's destructor, not a thread_local object's
// (registering one of those takes the dynamic loader's lock, which a kernel file's static
// initialiser that threw through dlopen may have left held).
void drop_signal_stack(void* base) {
  stack_t off{};
  off.ss_flags = SS_DISABLE;
  ::sigaltstack(&off, nullptr);
  ::munmap(base, kSignalStackBytes);
}

pthread_key_t signal_stack_key() {
  static const pthread_key_t key = [] {
    pthread_key_t k;
    ::pthread_key_create(&k, drop_signal_stack);
    return k;
  }();
  return key;
}

}  // namespace

void ensure_signal_stack() noexcept {
  thread_local bool done = false;  // (trivial: no destructor to register)
  if (done) return;
  done = true;
  stack_t old{};
  if (::sigaltstack(nullptr, &old) != 0 || !(old.ss_flags & SS_DISABLE)) return;  // (one is set: ASan's)
  void* base = ::mmap(nullptr, kSignalStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return;
  stack_t s{};
  s.ss_sp = base;
  s.ss_size = kSignalStackBytes;
  if (::sigaltstack(&s, nullptr) != 0) {
    ::munmap(base, kSignalStackBytes);
    return;
  }
  ::pthread_setspecific(signal_stack_key(), base);
}

std::size_t describe_crash(const void* fault_address, const char* signal_name, char* out, std::size_t room) noexcept {
  const Worker* w = t_worker;
  return w ? w->describe_crash(fault_address, signal_name, out, room) : 0;
}

std::size_t Worker::describe_crash(const void* fault_address, const char* signal_name, char* out,
                                   std::size_t room) const noexcept {
  if (!current_ || room == 0) return 0;
  const Lane& l = *current_;
  const Dim3 g = launch_.opt.grid, b = launch_.opt.block;
  const uint32_t bx = block_ % g.x, by = block_ / g.x % g.y, bz = block_ / g.x / g.y;
  const uint32_t tx = l.linear % b.x, ty = l.linear / b.x % b.y, tz = l.linear / b.x / b.y;
  int n = std::snprintf(out, room, "block [%u,%u,%u], thread [%u,%u,%u] ", bx, by, bz, tx, ty, tz);
  auto more = [&](const char* format, auto... args) {
    if (n >= 0 && std::size_t(n) < room) n += std::snprintf(out + n, room - std::size_t(n), format, args...);
  };
  if (fibers_.in_guard_page(fault_address))
    more("ran past the end of its %u KiB stack (a recursion too deep, or large local arrays?)",
         unsigned(fibers_.stack_bytes() / 1024));
  else
    more("crashed with %s (not at a recorded access: a pointer warpscope does not follow, or a host "
         "library's code?)", signal_name);
  if (l.size > 0 && l.queue[l.size - 1].loc) {
    const std::source_location loc = site_location(l.queue[l.size - 1].loc);
    more("; its last recorded access was at %s:%u", base_name(loc.file_name()), unsigned(loc.line()));
  }
  return n < 0 ? 0 : std::min<std::size_t>(std::size_t(n), room - 1);
}

}  // namespace ws::emu
