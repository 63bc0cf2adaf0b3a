#include "site_loop.h"

#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "loop_spans.h"
#include "site_registry.h"
#include "ws/trace/sources.h"

namespace ws::emu {

namespace {
struct LoopTable {
  std::mutex mutex;
  std::map<std::string, std::vector<LoopSpan>> loops_by_file;  // (nodes stay put)
};
}  // namespace

SiteLoop site_loop(const void* site_key) {
  // Never destroyed: a run may still be going on another thread while statics are destroyed at
  // exit (a viewer that quits during a run), and this table is made at the first divergent issue,
  // which can be after the thread's owner was made (so it would be destroyed before it).
  static LoopTable& table = *new LoopTable;
  const std::source_location loc = site_location(site_key);
  const std::vector<LoopSpan>* loops;
  {
    std::lock_guard lock(table.mutex);
    auto [it, added] = table.loops_by_file.try_emplace(loc.file_name());
    if (added) it->second = find_loops(source_text(kernel_relative_path(loc.file_name()), loc.file_name()));
    loops = &it->second;
  }
  const std::optional<LoopSpan> l = innermost_loop(*loops, {loc.line(), loc.column()});
  if (!l) return {};
  return {true, issue_order(l->begin.line, l->begin.column), issue_order(l->end.line, l->end.column) | 0xff};
}

bool SiteLoops::inside_loop_around(const void* site, uint64_t key, const void* around) {
  auto [it, added] = loops_.try_emplace(around);
  if (added) it->second = site_loop(around);
  const SiteLoop& l = it->second;
  return l.found && key >= l.begin && key <= l.end &&
         std::strcmp(site_location(site).file_name(), site_location(around).file_name()) == 0;
}

}  // namespace ws::emu
