// Helpers for the emulator tests: run a kernel, pick events by source text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ws/emu/launch.h"

namespace ws::test {

// The emulator's ways of letting a thread run on (deferred loads, eager shuffles), each on and
// off, and its converged issue (a scheduler shortcut): what a kernel gives must not depend on them.
struct RunAhead {
  bool defer_loads, eager_shuffles, converged_issue;
};
inline constexpr RunAhead kRunAheadModes[] = {{true, true, true},  {true, false, true},  {false, true, true},
                                              {false, false, true}, {true, true, false}, {false, false, false}};
inline constexpr RunAhead kNoRunAhead = {false, false, false};  // every thread stops at every load and shuffle
inline std::string to_string(RunAhead m) {
  return std::string("defer_loads ") + (m.defer_loads ? "on" : "off") + ", eager_shuffles " +
         (m.eager_shuffles ? "on" : "off") + ", converged_issue " + (m.converged_issue ? "on" : "off");
}

inline emu::LaunchOptions options(uint32_t grid, uint32_t block, unsigned workers = 1) {
  emu::LaunchOptions o;
  o.grid = {grid, 1, 1};
  o.block = {block, 1, 1};
  o.workers = workers;
  return o;
}
inline emu::LaunchOptions options(uint32_t grid, uint32_t block, RunAhead mode) {
  emu::LaunchOptions o = options(grid, block);
  o.defer_loads = mode.defer_loads;
  o.eager_shuffles = mode.eager_shuffles;
  o.converged_issue = mode.converged_issue;
  return o;
}

// Events of `block`/`warp` whose site's source line contains `text`, of one type/kind.
inline std::vector<Event> events_at(const Trace& t, const std::string& text, EventType type,
                                    AccessKind kind, uint32_t block, uint32_t warp) {
  std::vector<Event> out;
  for (const Event& e : t.events) {
    if (e.block != block || e.warp != warp || e.type != type) continue;
    if (type == EventType::Access && e.kind != kind) continue;
    if (t.sites.at(e.site).text.find(text) == std::string::npos) continue;
    out.push_back(e);
  }
  return out;
}

inline std::vector<uint32_t> masks(const std::vector<Event>& es) {
  std::vector<uint32_t> m;
  for (const Event& e : es) m.push_back(e.mask);
  return m;
}

inline std::vector<int> iota_input(size_t n, int start = 1) {
  std::vector<int> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = int(i) * 7 % 13 + start;
  return v;
}

}  // namespace ws::test
