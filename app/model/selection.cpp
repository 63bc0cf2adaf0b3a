#include "model/selection.h"

#include "ws/analysis/views.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace ws::app {

namespace {

// "0-3, 7" for {0, 1, 2, 3, 7} (sorted).
std::string ranges_text(std::vector<uint32_t> v) {
  std::sort(v.begin(), v.end());
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string parse_selection(const std::string& spec, SelectionSpec& out) {
  static const char* const kKeys[] = {"launch", "block", "warp", "event", "step", "site",
                                      "lane",   "alloc", "element", "cursor", "hazard"};
  out = {};
  std::stringstream in(spec);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) return "'" + item + "' in --select is not key=value";
    const std::string key = item.substr(0, eq), val = item.substr(eq + 1);
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys))
      return "unknown key '" + key +
             "' in --select (keys: launch, block, warp, event, step, site, lane, alloc, element, cursor, hazard)";
    int64_t v = 0;
    auto [p, ec] = std::from_chars(val.data(), val.data() + val.size(), v);
    if (ec != std::errc() || p != val.data() + val.size() || v < 0)
      return "'" + val + "' for " + key + " in --select is not a number >= 0";
    out.keys[key] = v;
  }
  return {};
}

std::string apply_selection(Session& s, const std::string& spec) {
  SelectionSpec sel;
  if (std::string err = parse_selection(spec, sel); !err.empty()) return err;
  return apply_selection(s, sel);
}

std::string apply_selection(Session& s, const SelectionSpec& spec) {
  auto given = [&](const char* k) { return spec.keys.count(k) > 0; };
  auto get = [&](const char* k) { return spec.keys.at(k); };
  const auto d = s.data();
  if (!d || d->result.launches.empty())
    return d && !d->error.empty() ? "nothing to select in: " + d->error : "the run has no trace to select in";
  const size_t launches = d->result.launches.size();
  if (given("launch")) {
    if (size_t(get("launch")) >= launches)
      return "launch " + std::to_string(get("launch")) + " does not exist (the run has " + std::to_string(launches) +
             ", numbered from 0)";
    s.sel.launch = uint32_t(get("launch"));
  }
  const Trace& t = d->result.launches[s.sel.launch];
  if (given("block")) {
    const uint64_t b = uint64_t(get("block"));
    if (std::find(t.recorded_blocks.begin(), t.recorded_blocks.end(), b) == t.recorded_blocks.end()) {
      std::vector<uint32_t> rec(t.recorded_blocks.begin(), t.recorded_blocks.end());
      return "block " + std::to_string(b) + " was not recorded (recorded blocks: " +
             (rec.empty() ? std::string("none") : ranges_text(rec)) + ")";
    }
    s.sel.block = uint32_t(b);
  }
  const uint64_t warps = (t.launch.block.count() + 31) / 32;
  if (given("warp")) {
    if (uint64_t(get("warp")) >= warps)
      return "warp " + std::to_string(get("warp")) + " does not exist: a block of " +
             std::to_string(t.launch.block.count()) + " threads has warps 0-" + std::to_string(warps - 1);
    s.sel.warp = uint32_t(get("warp"));
  }
  if (given("site")) {
    if (size_t(get("site")) >= t.sites.size())
      return "site " + std::to_string(get("site")) + " does not exist (the trace has " + std::to_string(t.sites.size()) +
             " sites, numbered from 0)";
    s.sel.site = uint32_t(get("site"));
  }
  if (given("lane") && get("lane") > 31) return "lane " + std::to_string(get("lane")) + " does not exist: lanes are 0-31";
  if (given("alloc")) {
    if (size_t(get("alloc")) >= t.allocations.size())
      return "alloc " + std::to_string(get("alloc")) + " does not exist (the trace has " +
             std::to_string(t.allocations.size()) + " allocations, numbered from 0)";
    s.sel.alloc = uint32_t(get("alloc"));
  }
  if (given("element")) {
    if (s.sel.alloc == kNone || s.sel.alloc >= t.allocations.size()) return "element needs alloc=N first";
    if (uint64_t(get("element")) >= t.allocations[s.sel.alloc].extent)
      return "element " + std::to_string(get("element")) + " is past " + t.allocations[s.sel.alloc].name + "'s " +
             std::to_string(t.allocations[s.sel.alloc].extent) + " elements";
    s.sel.element = get("element");
  }
  if (given("hazard")) {
    // The launch's hazard pair number `hazard` (races first, then lockstep-only ones).
    const analysis::Report* rep = s.report();
    const size_t count = rep ? rep->hazards.size() : 0;
    if (size_t(get("hazard")) >= count)
      return "hazard " + std::to_string(get("hazard")) + " does not exist (launch " + std::to_string(s.sel.launch) +
             " has " + std::to_string(count) + ")";
    s.select_hazard(rep->hazards[size_t(get("hazard"))]);
  } else if (given("event")) {
    if (size_t(get("event")) >= t.events.size())
      return "event " + std::to_string(get("event")) + " is past the trace's " + std::to_string(t.events.size()) + " events";
    s.select_event(get("event"));
  } else if (given("step")) {
    // The warp's step-th instruction in the block.
    auto [first, last] = analysis::block_events(t, s.sel.block);
    int64_t found = -1;
    for (size_t i = first; i < last; ++i)
      if (t.events[i].warp == s.sel.warp && t.events[i].step == uint64_t(get("step"))) found = int64_t(i);
    if (found < 0)
      return "warp " + std::to_string(s.sel.warp) + " of block " + std::to_string(s.sel.block) + " has no step " +
             std::to_string(get("step"));
    s.select_event(found);
  } else if (given("block") || given("warp") || given("site")) {
    // Block / warp / site given alone: the warp's first memory instruction (at the site).
    auto [first, last] = analysis::block_events(t, s.sel.block);
    bool found = false;
    for (size_t i = first; i < last && !found; ++i)
      if (t.events[i].warp == s.sel.warp && t.events[i].type == EventType::Access &&
          (s.sel.site == kNone || t.events[i].site == s.sel.site)) {
        const uint32_t site = s.sel.site;
        s.select_event(int64_t(i));
        if (site != kNone) s.sel.site = site;
        found = true;
      }
    if (!found && given("site"))
      return "warp " + std::to_string(s.sel.warp) + " of block " + std::to_string(s.sel.block) +
             " has no instruction at site " + std::to_string(s.sel.site);
  }
  if (given("lane")) s.sel.lane = int(get("lane"));
  if (given("cursor")) s.set_cursor(get("cursor"));
  ++s.sel_version;
  return {};
}

}  // namespace ws::app
