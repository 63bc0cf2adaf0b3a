#include "view_export.h"

#include "ws/analysis/views.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/panel_capture.h"

#include <charconv>
#include <sstream>

namespace ws::app {

MadeView make_view(std::string_view name, std::span<const std::string> options, std::string& error) {
  MadeView m;
  std::string preset;
  m.type = find_view_type(name, &preset);
  if (!m.type) {
    error = view_names_error(name);
    return {};
  }
  m.view = m.type->make();
  if (!preset.empty()) error = apply_option(*m.type, *m.view, preset);
  for (const std::string& o : options)
    if (error.empty()) error = apply_option(*m.type, *m.view, o);
  if (!error.empty()) return {};
  return m;
}

std::string apply_selection(Session& s, const std::string& spec) {
  std::stringstream in(spec);
  std::string item;
  int64_t event = -1, step = -1, cursor = -2, hazard = -1;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) return "'" + item + "' in --select is not key=value";
    const std::string key = item.substr(0, eq), val = item.substr(eq + 1);
    int64_t v = 0;
    auto [p, ec] = std::from_chars(val.data(), val.data() + val.size(), v);
    if (ec != std::errc() || p != val.data() + val.size() || v < 0)
      return "'" + val + "' for " + key + " in --select is not a number >= 0";
    if (key == "launch") s.sel.launch = uint32_t(v);
    else if (key == "block") s.sel.block = uint32_t(v);
    else if (key == "warp") s.sel.warp = uint32_t(v);
    else if (key == "event") event = v;
    else if (key == "step") step = v;
    else if (key == "site") s.sel.site = uint32_t(v);
    else if (key == "lane") s.sel.lane = int(v);
    else if (key == "alloc") s.sel.alloc = uint32_t(v);
    else if (key == "element") s.sel.element = v;
    else if (key == "cursor") cursor = v;
    else if (key == "hazard") hazard = v;
    else
      return "unknown key '" + key +
             "' in --select (keys: launch, block, warp, event, step, site, lane, alloc, element, cursor, hazard)";
  }
  const Trace* t = s.trace();
  if (!t) return s.data() && !s.data()->error.empty() ? std::string() : "the run has no trace to select in";
  if (s.sel.launch >= s.data()->result.launches.size())
    return "launch " + std::to_string(s.sel.launch) + " does not exist (the run has " +
           std::to_string(s.data()->result.launches.size()) + ")";
  if (hazard >= 0) {
    // The launch's hazard pair number `hazard` (races first, then lockstep-only ones).
    const analysis::Report* rep = s.report();
    const size_t count = rep ? rep->hazards.size() : 0;
    if (size_t(hazard) >= count)
      return "hazard " + std::to_string(hazard) + " does not exist (launch " + std::to_string(s.sel.launch) + " has " +
             std::to_string(count) + ")";
    s.select_hazard(rep->hazards[size_t(hazard)]);
  } else if (event >= 0) {
    if (size_t(event) >= t->events.size())
      return "event " + std::to_string(event) + " is past the trace's " + std::to_string(t->events.size()) + " events";
    s.select_event(event);
  } else if (step >= 0) {
    // The warp's step-th instruction in the block.
    auto [first, last] = analysis::block_events(*t, s.sel.block);
    int64_t found = -1;
    for (size_t i = first; i < last; ++i)
      if (t->events[i].warp == s.sel.warp && t->events[i].step == uint64_t(step)) found = int64_t(i);
    if (found < 0) return "warp " + std::to_string(s.sel.warp) + " of block " + std::to_string(s.sel.block) + " has no step " + std::to_string(step);
    s.select_event(found);
  } else {
    // Block / warp given alone: the warp's first memory instruction.
    auto [first, last] = analysis::block_events(*t, s.sel.block);
    if (first == last) return "block " + std::to_string(s.sel.block) + " was not recorded";
    for (size_t i = first; i < last; ++i)
      if (t->events[i].warp == s.sel.warp && t->events[i].type == EventType::Access &&
          (s.sel.site == kNone || t->events[i].site == s.sel.site)) {
        const uint32_t site = s.sel.site;
        s.select_event(int64_t(i));
        if (site != kNone) s.sel.site = site;
        break;
      }
  }
  if (cursor >= 0) s.set_cursor(cursor);
  ++s.sel_version;
  return {};
}

bool render_view(const ViewRun& run, ws::viz::Image& out, std::string& error) {
  MadeView m = make_view(run.view, run.options, error);
  if (!m.view) return false;
  Session& s = session();
  s.request(run.request);
  if (!s.wait_idle()) {
    error = "the run did not finish within a minute";
    return false;
  }
  if (!run.select.empty())
    if (std::string err = apply_selection(s, run.select); !err.empty()) {
      error = err;
      return false;
    }
  if (std::string err = m.view->prepare_picture(s); !err.empty()) {
    error = err;
    return false;
  }
  auto ctx = ws::viz::HeadlessContext::create(error);
  if (!ctx) return false;
  View& view = *m.view;
  ws::viz::PanelCapture cap{m.type->title, ImVec2(float(run.width), float(run.height)),
                            ws::viz::Look{1.0f, run.presentation}, run.factor, [&] { view.draw(s); }, run.mouse};
  return ws::viz::render_panel(cap, out, error);
}

}  // namespace ws::app
