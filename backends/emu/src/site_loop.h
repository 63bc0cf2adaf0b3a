// The innermost loop around a kernel's call site, from the site's source file (read once per file):
// the scheduler's reconvergence inside loops (Worker::issues_before) asks it.
#pragma once

#include <cstdint>

namespace ws::emu {

struct SiteLoop {
  bool found = false;           // false also when the source file cannot be read
  uint64_t begin = 0, end = 0;  // as issue keys (issue_order: line << 24 | column << 8), end inclusive
};

// `site_key` is a site's std::source_location pointer (site_key in emu_hooks.h).
SiteLoop site_loop(const void* site_key);

}  // namespace ws::emu
