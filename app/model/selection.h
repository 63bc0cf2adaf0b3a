// A selection given as text ("block=0,warp=1,event=12"), as --select, a lesson step's `select`
// and the headless view export give it: parsed, then applied to the session's run.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "model/session.h"

namespace ws::app {

// A selection as typed ("block=0,warp=1,event=12"): its keys checked, not yet against a run.
struct SelectionSpec {
  std::map<std::string, int64_t> keys;  // launch, block, warp, event, step, site, lane, alloc, element, cursor, hazard
};
// Returns "" or what is wrong with the text (a key that does not exist, a value that is no number).
std::string parse_selection(const std::string& spec, SelectionSpec& out);
// Applies a selection to the session's run; returns "" or what does not exist in it ("warp 99
// does not exist: a block of 256 threads has warps 0-7"), leaving the selection as it was then.
std::string apply_selection(Session& s, const SelectionSpec& spec);
std::string apply_selection(Session& s, const std::string& spec);

}  // namespace ws::app
