#include "site_loop.h"

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "loop_spans.h"
#include "site_registry.h"
#include "ws/trace/sources.h"

namespace ws::emu {

namespace {
// Per file: the text the loops were found in and the loops. A kernel file built again has a new
// text under the same name: its loops are found again.
struct FileLoops {
  std::string text;
  std::vector<LoopSpan> loops;
};
struct LoopTable {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const FileLoops>> by_file;
};
}  // namespace

SiteLoop site_loop(const void* site_key) {
  // Never destroyed: a run may still be going on another thread while statics are destroyed at
  // exit (a viewer that quits during a run), and this table is made at the first divergent issue,
  // which can be after the thread's owner was made (so it would be destroyed before it).
  static LoopTable& table = *new LoopTable;
  const std::source_location loc = site_location(site_key);
  std::shared_ptr<const FileLoops> loops;
  {
    std::string text = source_text(kernel_relative_path(loc.file_name()), loc.file_name());
    std::lock_guard lock(table.mutex);
    std::shared_ptr<const FileLoops>& slot = table.by_file[loc.file_name()];
    if (!slot || slot->text != text) {
      std::vector<LoopSpan> found = find_loops(text);
      slot = std::make_shared<const FileLoops>(FileLoops{std::move(text), std::move(found)});
    }
    loops = slot;
  }
  const std::optional<LoopSpan> l = innermost_loop(loops->loops, {loc.line(), loc.column()});
  if (!l) return {};
  // (To the end of the loop's last line: a store on it has its key past its column, sub_order.)
  return {true, issue_order(l->begin.line, l->begin.column), issue_order(l->end.line, 0xffff) | 0xff};
}

bool SiteLoops::inside_loop_around(const void* site, uint64_t key, const void* around) {
  auto [it, added] = loops_.try_emplace(around);
  if (added) it->second = site_loop(around);
  const SiteLoop& l = it->second;
  return l.found && key >= l.begin && key <= l.end &&
         std::strcmp(site_location(site).file_name(), site_location(around).file_name()) == 0;
}

}  // namespace ws::emu
