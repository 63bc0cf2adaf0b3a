#include "view_export.h"

#include "panels/panels.h"
#include "timing_runner.h"
#include "views/views.h"

#include "ws/analysis/views.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/panel_capture.h"

#include <charconv>
#include <thread>
#include <sstream>

namespace ws::app {

namespace {

const std::pair<const char*, const char*> kAliases[] = {
    {"access-map", "warp-access-map"},   {"access", "warp-access-map"},
    {"bank-heatmap", "bank-conflict-heatmap"}, {"banks", "bank-conflict-heatmap"},
    {"timeline", "divergence-timeline"}, {"divergence", "divergence-timeline"},
    {"layout", "block-layout"},          {"memory", "memory-heatmap"},
    {"source", "source-view"},           {"lab", "reduction-lab"},
    {"timing-variants", "timing"},       {"timing-live", "timing"},
    {"timing-sweep", "timing"},
};

}  // namespace

TimingViewState& timing_view_state();          // panels/timing.cpp
MemoryHeatmapState& memory_heatmap_state();   // panels/memory_heatmap.cpp
TimelineState& timeline_state();              // panels/divergence_timeline.cpp

namespace {
// The Timing view measures in the background: ask for what it shows and wait, so the picture has
// numbers. With a GPU: the ceilings and the reduction table (n from --n when it is 2^20 or more,
// else 2^24); without one: the emulator's counts for the run.
// `timing-live` lets live mode run for two seconds first; `timing-sweep` sweeps the block size.
bool prepare_timing(const std::string& view, const RunRequest& req, std::string& error) {
  TimingRunner& r = timing_runner();
  TimingViewState& st = timing_view_state();
  if (timing::device().present) {
    st.asked_ceilings = true;
    r.request_ceilings();
    const uint64_t n = req.config.n >= (1u << 20) ? req.config.n : (1u << 24);
    RunConfig cfg = req.config;
    cfg.n = n;
    cfg.record.blocks.clear();
    if (view == "timing-live") {
      st.open_tab = 1;
      st.live_size_index = 3;  // the Live tab's n: 2^24 (the session's run stays as it is)
      const LiveTarget t = live_target(req, st);
      r.set_live(t.kernel, t.config, t.name);
      if (!r.wait_idle(std::chrono::minutes(1))) {
        error = "measuring the ceilings did not finish within a minute";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::seconds(2));
      r.set_paused(true);
    } else if (view == "timing-sweep") {
      st.open_tab = 2;
      r.request_sweep(req.kernel, cfg, "block", {32, 64, 128, 256, 512, 1024});
    } else {
      r.request_table(n, req.config.dtype.empty() ? "int" : req.config.dtype, 256);
    }
  } else {
    st.counts_requested = Session::history_key(req.kernel, req.config);
    r.request_counts(req.kernel, req.config);
  }
  if (!r.wait_idle(std::chrono::minutes(5))) {
    error = "the timing measurements did not finish within 5 minutes";
    return false;
  }
  return true;
}
}  // namespace

std::string view_panel_id(const std::string& name, std::string& error) {
  if (find_panel(name) >= 0) return name;
  for (const auto& [alias, id] : kAliases)
    if (name == alias) return id;
  std::string list;
  for (const PanelInfo& p : all_panels()) list += (list.empty() ? "" : ", ") + std::string(p.id);
  error = "no view named '" + name + "' (views: " + list + ")";
  return {};
}

std::string apply_selection(Session& s, const std::string& spec) {
  std::stringstream in(spec);
  std::string item;
  int64_t event = -1, step = -1, cursor = -2;
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
    else
      return "unknown key '" + key + "' in --select (keys: launch, block, warp, event, step, site, lane, alloc, element, cursor)";
  }
  const Trace* t = s.trace();
  if (!t) return s.data() && !s.data()->error.empty() ? std::string() : "the run has no trace to select in";
  if (s.sel.launch >= s.data()->result.launches.size())
    return "launch " + std::to_string(s.sel.launch) + " does not exist (the run has " +
           std::to_string(s.data()->result.launches.size()) + ")";
  if (event >= 0) {
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
  const std::string id = view_panel_id(run.view, error);
  if (id.empty()) return false;
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
  if (id == "timing" && !prepare_timing(run.view, s.last_request(), error)) return false;
  memory_heatmap_state().mode = run.memory_color;
  timeline_state().mode = analysis::TimelineMode(run.timeline_x);
  timeline_state().compare = run.compare;
  if (run.compare && id == "divergence-timeline") {
    Session& other = compare_session(s, timeline_state());
    if (!other.wait_idle(std::chrono::minutes(2))) {
      error = "the comparison run did not finish within two minutes";
      return false;
    }
  }
  auto ctx = ws::viz::HeadlessContext::create(error);
  if (!ctx) return false;
  const PanelInfo& p = all_panels()[size_t(find_panel(id))];
  ws::viz::PanelCapture cap{p.title, ImVec2(float(run.width), float(run.height)), ws::viz::Look{1.0f, run.presentation},
                            run.factor, p.draw, run.mouse};
  return ws::viz::render_panel(cap, out, error);
}

}  // namespace ws::app
