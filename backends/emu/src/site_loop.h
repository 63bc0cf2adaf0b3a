// The innermost loop around a kernel's call site, from the site's source file (read once per file):
// the issue rule's reconvergence inside loops (issue_policy.h, rule 4) asks it.
#pragma once

#include <cstdint>
#include <unordered_map>

namespace ws::emu {

struct SiteLoop {
  bool found = false;           // false also when the source file cannot be read
  uint64_t begin = 0, end = 0;  // as issue keys (issue_order: line << 24 | column << 8), end inclusive
};

// `site_key` is a site's std::source_location pointer (site_key in emu_hooks.h).
SiteLoop site_loop(const void* site_key);

// A worker's answers to the issue rule's question, each site's loop looked up once (site_loop
// takes a lock).
class SiteLoops {
 public:
  // Whether the site `site` (at issue key `key`) lies inside the innermost loop around the site
  // `around`, in one file.
  bool inside_loop_around(const void* site, uint64_t key, const void* around);

 private:
  std::unordered_map<const void*, SiteLoop> loops_;  // site_loop's answers, by site key
};

}  // namespace ws::emu
