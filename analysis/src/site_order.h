// Source order of sites: (file, line, rank), then the site index. Shared by the per-site rows of
// the recorded blocks and of the whole grid, so both tables list a kernel's lines alike.
#pragma once

#include <cstdint>
#include <vector>

#include "ws/trace/trace.h"

namespace ws::analysis {

inline bool site_before(const std::vector<Site>& sites, uint32_t a, uint32_t b) {
  if (a >= sites.size() || b >= sites.size()) return a < b;
  const Site& x = sites[a];
  const Site& y = sites[b];
  if (x.file != y.file) return x.file < y.file;
  if (x.line != y.line) return x.line < y.line;
  if (x.rank != y.rank) return x.rank < y.rank;
  return a < b;
}

}  // namespace ws::analysis
