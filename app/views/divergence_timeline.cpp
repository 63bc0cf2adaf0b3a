// Divergence timeline: for each warp of the selected block a band of 32 lane rows; x = issue
// steps (each warp's own steps, aligned at every __syncthreads(); or the block's issue clock).
// A cell is lit when the lane executed that instruction, colored by what it was (shared, global,
// warp-synchronous); barriers are vertical lines across all warps. Drawn by viz/shaders/timeline.frag.
#include "views/divergence_timeline.h"
#include "views/view_common.h"

#include "ws/analysis/views.h"

#include "ws/viz/colormap.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

namespace ws::app {

namespace {

uint8_t kind_of(const Event& e) {
  switch (e.type) {
    case EventType::Access: return e.space == MemSpace::Shared ? ws::viz::kTlShared : ws::viz::kTlGlobal;
    case EventType::WarpSync: return ws::viz::kTlSync;
    case EventType::Fence: return ws::viz::kTlFence;
    case EventType::Barrier: return ws::viz::kTlBarrier;
  }
  return ws::viz::kTlNone;
}

}  // namespace

BackendKind compare_backend(BackendKind main) {
  return main == BackendKind::Emu ? BackendKind::GpuTrace : BackendKind::Emu;
}

const ViewOption TimelineView::kOptions[5] = {
    {"x", "steps|clock|time",
     "x axis: each warp's issue steps aligned at barriers, the block's issue clock, or real time in ns (gpu-trace)",
     [](const View& v) { return int(static_cast<const TimelineView&>(v).mode); },
     [](View& v, int k) { static_cast<TimelineView&>(v).mode = analysis::TimelineMode(k); }},
    {"compare", "off|on", "draw the same launch on the other backend below (emulator above, GPU below)",
     [](const View& v) { return static_cast<const TimelineView&>(v).compare ? 1 : 0; },
     [](View& v, int k) { static_cast<TimelineView&>(v).compare = k == 1; }},
    {"zoom", "fit|2|4|8", "the whole block's width, or 2, 4 or 8 times closer around the selected instruction",
     [](const View& v) { return std::countr_zero(unsigned(static_cast<const TimelineView&>(v).zoom_times)); },
     [](View& v, int k) {
       auto& t = static_cast<TimelineView&>(v);
       t.zoom_times = 1 << k, t.zoom = 0;
     }},
    {"lanes", "grouped|0-31",
     "each warp's lanes grouped by the paths they took (a branch's sides are solid blocks), or in lane order",
     [](const View& v) { return static_cast<const TimelineView&>(v).grouped ? 0 : 1; },
     [](View& v, int k) {
       auto& t = static_cast<TimelineView&>(v);
       t.grouped = k == 0, t.cache_key = ~0ull;
     }},
    kControlsOption};

std::string TimelineView::prepare_picture(Session& s) {
  if (!compare) return {};
  if (!compare_session(s).wait_idle(std::chrono::minutes(2)))
    return "the comparison run did not finish within two minutes";
  return {};
}

Session& TimelineView::compare_session(Session& s) {
  if (!other) {
    other = std::make_unique<Session>();
    other_view = std::make_unique<TimelineView>();
  }
  const auto d = s.data();
  if (d && other_for != d->generation) {
    other_for = d->generation;
    RunRequest r = d->request;
    r.backend = compare_backend(d->request.backend);
    r.config.cancel.reset();
    other->request(std::move(r));
  }
  return *other;
}

void TimelineView::draw(Session& s) {
  const auto d = s.data();
  if (!compare || !d) {
    draw_one(s, true);
    return;
  }
  // Two timelines of the same launch, one above the other, with the same block, x mode and zoom.
  Session& o = compare_session(s);
  o.poll();
  TimelineView& ov = *other_view;
  o.sel.launch = s.sel.launch;
  o.sel.block = s.sel.block;
  ov.mode = mode;
  const float half = std::floor(ImGui::GetContentRegionAvail().y * 0.5f);
  const bool emu_main = d->request.backend == BackendKind::Emu;
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  ImGui::BeginChild("##main-timeline", ImVec2(0, half), false, ImGuiWindowFlags_NoScrollbar);
  ImGui::TextColored(vc.text_dim, emu_main ? "Emulator: the textbook SIMT model (divergent paths serialized, "
                                             "reconvergence after if/else and loops)"
                                           : "GPU (gpu-trace): what the hardware grouped");
  draw_one(s, true);
  ImGui::EndChild();
  ImGui::BeginChild("##other-timeline", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
  ImGui::TextColored(vc.text_dim, emu_main ? "GPU (gpu-trace), the same launch: what the hardware grouped"
                                           : "Emulator, the same launch: the textbook SIMT model");
  // One x scale for both: each fits the longer of the two.
  common_extent = ov.common_extent = float(std::max(timeline.columns, ov.timeline.columns));
  ov.col0 = col0;
  ov.draw_one(o, false);
  ImGui::EndChild();
}

namespace {

// Over the bands, at each column where a warp splits (its mask a part of its last one's), the
// source line of that instruction: the branch's line, read where the picture changes. Labels that
// would overlap the one before are left out (a panel's tooltip has them).
void split_labels(const Trace& t, const analysis::BlockTimeline& tl, float x0, float width, float col_px, float col0) {
  std::vector<std::pair<uint32_t, uint32_t>> splits;  // (column, line)
  for (size_t w = 0; w < tl.per_warp.size(); ++w) {
    const auto& warp = tl.per_warp[w];
    const uint32_t live = w < tl.live_lanes.size() ? tl.live_lanes[w] : 32;
    uint32_t last = live >= 32 ? 0xffffffffu : (1u << live) - 1u;  // (a warp may start split)
    for (const auto& en : warp) {
      const Event& e = t.events[size_t(en.event)];
      if (e.type == EventType::Barrier) continue;
      if (last && e.mask != last && (e.mask & ~last) == 0 && e.site < t.sites.size())
        splits.push_back({en.column, t.sites[e.site].line});
      last = e.mask;
    }
  }
  std::sort(splits.begin(), splits.end());
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  float next_free = x0;
  uint32_t shown_line = 0;
  for (const auto& [column, line] : splits) {
    const float x = x0 + (float(column) - col0) * col_px;
    if (x < x0 || x > x0 + width) continue;
    char lab[16];
    std::snprintf(lab, sizeof lab, ":%u", line);
    const float tw = ImGui::CalcTextSize(lab).x;
    if (x < next_free || (line == shown_line && x < next_free + 4 * tw)) continue;
    dl->AddText(ImVec2(std::min(x, x0 + width - tw), p.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), lab);
    next_free = x + tw + 0.5f * ImGui::GetFontSize();
    shown_line = line;
  }
  ImGui::Dummy(ImVec2(1, ImGui::GetTextLineHeight()));
}

}  // namespace

// The x mode, fit / zoom buttons and the comparison box (the main timeline's, with controls).
// Real time only where the records carry it (gpu-trace: %globaltimer); the emulator's clock counts
// issue slots, not nanoseconds.
TimelineView::ZoomClicks TimelineView::draw_controls(Session& s, bool main) {
  const bool has_time = s.trace()->launch.backend == to_string(BackendKind::GpuTrace);
  if (!has_time && mode == analysis::TimelineMode::Time) mode = analysis::TimelineMode::AlignedSteps;
  ZoomClicks z;
  if (!main || !controls) return z;
  selection_bar(s, false);
  ImGui::SameLine();
  int choice = int(mode);
  ImGui::SetNextItemWidth(8.5f * em());
  const char* modes[] = {"steps, aligned at barriers", "block issue clock", "time (ns, this block's SM)"};
  if (ImGui::Combo("##x", &choice, modes, has_time ? 3 : 2)) {
    mode = analysis::TimelineMode(choice);
    zoom = 0;
    col0 = 0;
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("fit")) zoom = 0, col0 = 0;
  ImGui::SameLine();
  z.in = ImGui::SmallButton("+");
  ImGui::SameLine();
  z.out = ImGui::SmallButton("-");
  ImGui::SameLine();
  // The comparison needs the other backend: gpu-trace wants a CUDA device (without one the lower
  // half says so).
  ImGui::Checkbox(s.data()->request.backend == BackendKind::Emu ? "compare with the GPU" : "compare with the emulator", &compare);
  return z;
}

// The block's timeline and its grid for the shader, recomputed when the run, block, x mode or lane
// order changes. Row k of a warp's band shows lane lane_order[k]: grouped, a branch's two sides
// are solid blocks.
void TimelineView::compute(Session& s) {
  const Trace& t = *s.trace();
  uint64_t key = ws::viz::hash_mix(ws::viz::kHashSeed, s.data()->generation);
  key = ws::viz::hash_mix(key, s.sel.launch);
  key = ws::viz::hash_mix(key, s.sel.block);
  key = ws::viz::hash_mix(key, uint64_t(mode));
  key = ws::viz::hash_mix(key, uint64_t(grouped));
  if (key == cache_key) return;
  cache_key = key;
  timeline = analysis::block_timeline(t, s.sel.block, mode);
  const auto& tl = timeline;
  auto& g = grid;
  g.warps = int(std::min<uint32_t>(tl.warps, ws::viz::kTimelineMaxWarps));
  g.columns = int(tl.columns);
  g.masks.assign(size_t(g.warps) * size_t(g.columns), 0);
  g.kinds.assign(size_t(g.warps) * size_t(g.columns), 0);
  g.column_flags.assign(size_t(g.columns), 0);
  g.live.assign(size_t(g.warps), 0);
  lane_order.assign(size_t(g.warps), {});
  auto permuted = [](uint32_t mask, const std::array<uint8_t, 32>& order) {
    uint32_t out = 0;
    for (int k = 0; k < 32; ++k) out |= ((mask >> order[size_t(k)]) & 1u) << k;
    return out;
  };
  for (int w = 0; w < g.warps; ++w) {
    auto& order = lane_order[size_t(w)];
    if (grouped) order = analysis::grouped_lanes(t, tl, uint32_t(w));
    else
      for (int l = 0; l < 32; ++l) order[size_t(l)] = uint8_t(l);
    const uint32_t live = tl.live_lanes[size_t(w)];
    g.live[size_t(w)] = permuted(live >= 32 ? 0xffffffffu : ((1u << live) - 1u), order);
    for (const auto& en : tl.per_warp[size_t(w)]) {
      const Event& e = t.events[size_t(en.event)];
      const size_t i = size_t(w) * size_t(g.columns) + en.column;
      g.masks[i] = permuted(e.mask, order);
      g.kinds[i] = kind_of(e);
    }
  }
  for (uint32_t c : tl.barrier_columns) g.column_flags[c] = ws::viz::kTlBarrier;
  ++g.version;
}

// The block's instructions and SIMD efficiency; as a picture also what x and y are, in one
// sentence; and what is not drawn.
void TimelineView::draw_summary(Session& s, bool main) {
  const auto& tl = timeline;
  if (main && !controls)
    ImGui::TextWrapped("block %u: %llu instructions, SIMD efficiency %.0f%%; x: %s, y: 32 lanes per warp%s", s.sel.block,
                       static_cast<unsigned long long>(tl.instructions), 100.0 * tl.simd_efficiency(),
                       mode == analysis::TimelineMode::AlignedSteps ? "issue steps aligned at barriers"
                       : mode == analysis::TimelineMode::IssueClock ? "the block's issue clock"
                                                                    : "time (ns)",
                       grouped ? ", lanes that took the same path together" : "");
  else
    ImGui::TextWrapped("block %u: %llu instructions, SIMD efficiency %.0f%% (active lanes / 32)", s.sel.block,
                       static_cast<unsigned long long>(tl.instructions), 100.0 * tl.simd_efficiency());
  if (tl.warps > uint32_t(grid.warps)) ImGui::TextDisabled("(the first %d of %u warps are drawn)", grid.warps, tl.warps);
  if (!hidden_note.empty()) ImGui::TextDisabled("%s", hidden_note.c_str());
}

// How tall the lanes and gaps are and how wide the canvas is. A picture (controls off) shows
// every warp: the gaps and the lanes shrink until the bands fit (a warp's band at least a pixel).
// With controls, lanes stay readable and the bands scroll.
TimelineView::Layout TimelineView::plan() const {
  Layout L;
  const float E = em();
  const int warps = grid.warps;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  L.label_w = std::floor(4.6f * E);
  // The legend under the bands: its swatches wrap in a narrow view (swatch()).
  const float legend_w = ImGui::CalcTextSize("shared  global  warp sync  inactive lane  __syncthreads").x + 7 * E;
  const float legend_h =
      ImGui::GetTextLineHeightWithSpacing() * (std::ceil(legend_w / std::max(avail.x, E)) + (controls ? 1.0f : 0.0f)) + 0.2f * E;
  L.gap_px = std::floor(std::max(0.35f * E, 3.0f));
  const float splits_h = ImGui::GetTextLineHeightWithSpacing();  // the split lines' labels
  L.room = std::max(avail.y - legend_h - splits_h, controls ? 4 * E : E);
  if (!controls && warps > 1) L.gap_px = std::clamp(std::floor(0.25f * L.room / float(warps - 1)), 1.0f, L.gap_px);
  const float min_lane = controls ? 0.05f * E : 1.0f / 32;
  // Lane rows fill the height (whole pixels once they are 3 px or more; below that, the eye sees
  // the band, not the rows).
  L.lane_px = std::clamp((L.room - 2 - L.gap_px * float(warps - 1)) / float(32 * warps), min_lane, 0.5f * E);
  if (L.lane_px >= 3) L.lane_px = std::floor(L.lane_px);
  L.band = 32 * L.lane_px + L.gap_px;
  L.height = L.band * warps - L.gap_px;
  L.scrolls = L.height + 2 > L.room;
  L.canvas_w = std::floor(std::max(avail.x - L.label_w - (L.scrolls ? ImGui::GetStyle().ScrollbarSize + 2 : 0.0f), 8 * E));
  L.fit = L.canvas_w / std::max(float(grid.columns), common_extent) / E;
  return L;
}

// The zoom is kept in font units: an export at twice the font shows the same columns. Compared
// with another launch, both fit the longer one (one step as wide on both sides). Zoomed in by an
// option, the selected instruction's column is in the middle of the picture.
void TimelineView::apply_zoom(Session& s, const Layout& L, ZoomClicks z) {
  const Trace& t = *s.trace();
  const float E = em();
  extent = float(grid.columns);
  if (!controls && common_extent > 0 && zoom_times == 1 && std::abs(zoom - L.fit) > 1e-6f) zoom = 0;
  if (zoom <= 0) {
    zoom = L.fit * float(zoom_times);
    if (zoom_times > 1 && s.sel.event >= 0 && t.events[size_t(s.sel.event)].block == s.sel.block) {
      const Event& e = t.events[size_t(s.sel.event)];
      if (e.warp < timeline.per_warp.size())
        for (const auto& en : timeline.per_warp[e.warp])
          if (int64_t(en.event) == s.sel.event) col0 = float(en.column) - 0.5f * L.canvas_w / (zoom * E);
    }
  }
  if (z.in) zoom *= 2;
  if (z.out) zoom = std::max(zoom / 2, L.fit);
  col_px = zoom * E;
  col0 = std::clamp(col0, 0.0f, std::max(0.0f, float(grid.columns) - L.canvas_w / col_px));
}

// The bands through the timeline shader, columns not yet issued dimmed during playback. Returns
// whether the picture is hovered.
bool TimelineView::draw_bands(Session& s, const Layout& L) {
  const Trace& t = *s.trace();
  ws::viz::TimelineView view;
  view.col0 = col0;
  view.col_px = col_px;
  view.lane_px = L.lane_px;
  view.gap_px = L.gap_px;
  auto [first, last] = analysis::block_events(t, s.sel.block);
  if (s.sel.cursor >= 0) {
    view.cursor = 0;
    const uint64_t issued_end = first + uint64_t(s.sel.cursor);
    for (const auto& w : timeline.per_warp)
      for (const auto& en : w)
        if (en.event < issued_end) view.cursor = std::max(view.cursor, float(en.column + 1));
  }
  const ImVec2 o = ImGui::GetCursorScreenPos();
  grid_min = ImVec2(std::floor(o.x) + L.label_w, std::floor(o.y));
  lane_px = L.lane_px;
  gap_px = L.gap_px;
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const ws::viz::TimelineColors colors = {vc.empty, vc.inactive, vc.active, vc.global, vc.sync, vc.sync, vc.barrier, vc.empty};
  uint64_t ck = ws::viz::hash_mix(grid.version, uint64_t(col_px * 64));
  ck = ws::viz::hash_mix(ck, uint64_t(col0 * 64));
  ck = ws::viz::hash_mix(ck, uint64_t(view.cursor));
  ck = ws::viz::hash_mix(ck, uint64_t(L.lane_px * 16));
  ck = ws::viz::hash_mix(ck, uint64_t(vc.background.x * 1000));
  ImGui::SetCursorScreenPos(grid_min);
  std::string err;
  if (!canvas.show(ImVec2(L.canvas_w, L.height), ck, [&](std::string& e) { return renderer.draw(grid, view, colors, e); }, err))
    ImGui::TextColored(vc.conflict, "cannot draw the timeline: %s", err.c_str());
  return ImGui::IsItemHovered();
}

// Left of each band its warp number and SIMD efficiency (bands thinner than a line of text: every
// k-th warp); the selected warp's mark and the selected instruction's frame.
void TimelineView::draw_marks(Session& s, const Layout& L) {
  const Trace& t = *s.trace();
  const analysis::Report* rep = s.report();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float th = ImGui::GetTextLineHeight(), x0 = grid_min.x - L.label_w;
  const int label_every = std::max(1, int(std::ceil(th / L.band)));
  for (int w = 0; w < grid.warps; ++w) {
    const float y = grid_min.y + w * L.band;
    if (w % label_every != 0 && uint32_t(w) != s.sel.warp) continue;
    double eff = 0;
    if (rep)
      for (const auto& wm : rep->warps)
        if (wm.block == s.sel.block && wm.warp == uint32_t(w)) eff = wm.simd_efficiency();
    char lab[32];
    std::snprintf(lab, sizeof lab, "warp %d", w);
    const bool two_lines = 32 * L.lane_px >= 2 * th;
    dl->AddText(ImVec2(x0, y + (two_lines ? 0 : (32 * L.lane_px - th) / 2)), ImGui::GetColorU32(ImGuiCol_Text), lab);
    if (two_lines) {
      std::snprintf(lab, sizeof lab, "%.0f%%", 100 * eff);
      dl->AddText(ImVec2(x0, y + th), ImGui::GetColorU32(ImGuiCol_TextDisabled), lab);
    }
    if (uint32_t(w) == s.sel.warp)
      dl->AddRectFilled(ImVec2(grid_min.x - 4, y), ImVec2(grid_min.x - 2, y + 32 * L.lane_px), ImGui::ColorConvertFloat4ToU32(vc.selection));
  }
  if (s.sel.event < 0 || t.events[size_t(s.sel.event)].block != s.sel.block) return;
  const Event& e = t.events[size_t(s.sel.event)];
  if (e.warp >= uint32_t(grid.warps)) return;
  for (const auto& en : timeline.per_warp[e.warp])
    if (int64_t(en.event) == s.sel.event) {
      const float x = grid_min.x + (float(en.column) - col0) * col_px;
      const float y = grid_min.y + e.warp * L.band;
      if (x >= grid_min.x - col_px && x <= grid_min.x + L.canvas_w)
        dl->AddRect(ImVec2(x - 1, y - 1), ImVec2(x + std::max(col_px, 2.0f) + 1, y + 32 * L.lane_px + 1),
                    ImGui::ColorConvertFloat4ToU32(vc.selection), 0, 0, 2.0f);
    }
}

// The hovered lane's instruction (a click selects it); wheel zooms around the mouse, shift+wheel
// or a drag pans.
void TimelineView::hover(Session& s, const Layout& L) {
  const Trace& t = *s.trace();
  const auto& tl = timeline;
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 mp = io.MousePos;
  const int col = int(std::floor(col0 + (mp.x - grid_min.x) / col_px));
  const int w = int((mp.y - grid_min.y) / L.band);
  const int row = int((mp.y - grid_min.y - float(w) * L.band) / L.lane_px);
  const int lane = w >= 0 && w < grid.warps && row >= 0 && row < 32 ? int(lane_order[size_t(w)][size_t(row)]) : -1;
  if (lane >= 0 && col >= 0 && col < grid.columns) {
    const analysis::TimelineEntry* hit = nullptr;
    for (const auto& en : tl.per_warp[size_t(w)])
      if (en.column == uint32_t(col)) hit = &en;
    const Dim3 th = t.thread_index(uint32_t(w), uint32_t(lane));
    if (hit) {
      const Event& e = t.events[size_t(hit->event)];
      const bool active = (e.mask >> lane) & 1u;
      const std::string when = tl.ns_per_column ? ", t = " + std::to_string(e.time - tl.time0) + " ns" : "";
      wrapped_tooltip("warp %d, lane %d (threadIdx %u,%u,%u): %s\n%s at %s\n%s\nmask %08x: %d of 32 lanes active (step %u%s)", w, lane,
                      th.x, th.y, th.z, active ? "active" : "inactive", e.type == EventType::Access ? to_string(e.kind) : to_string(e.type),
                      site_label(t, e.site).c_str(), e.site < t.sites.size() ? t.sites[e.site].text.c_str() : "", e.mask,
                      std::popcount(e.mask), e.step, when.c_str());
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        s.select_event(int64_t(hit->event));
        s.sel.lane = lane;
      }
    } else {
      ImGui::SetTooltip("warp %d, lane %d (threadIdx %u,%u,%u)\nno instruction of this warp in column %d", w, lane, th.x, th.y, th.z, col);
    }
  }
  const float E = em();
  if (io.MouseWheel != 0 && (io.KeyCtrl || !L.scrolls)) {
    if (io.KeyShift) {
      col0 -= io.MouseWheel * 8 / col_px * E;
    } else {
      const float at = col0 + (mp.x - grid_min.x) / col_px;
      zoom = std::max(L.fit, zoom * (io.MouseWheel > 0 ? 1.25f : 0.8f));
      col0 = at - (mp.x - grid_min.x) / (zoom * E);
    }
  }
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) col0 -= io.MouseDelta.x / col_px;
}

// The swatches; with controls also what x and y are (a picture says it above the bands).
void TimelineView::draw_legend(const Layout& L) {
  const float E = em();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  swatch(vc.active, "shared");
  ImGui::SameLine(0, E);
  swatch(vc.global, "global");
  ImGui::SameLine(0, E);
  swatch(vc.sync, "warp sync");
  ImGui::SameLine(0, E);
  swatch(vc.inactive, "inactive lane");
  ImGui::SameLine(0, E);
  swatch(vc.barrier, "__syncthreads");
  if (!controls) return;
  const auto& tl = timeline;
  ImGui::PushTextWrapPos(0);
  if (mode == analysis::TimelineMode::Time) {
    // The visible span in ns, so the slide says how long the block took.
    const double visible_ns = double(L.canvas_w / col_px) * double(tl.ns_per_column);
    ImGui::TextDisabled("x: time of the recorded run (recording slows it), %llu ns per column (%.0f ns across the view; "
                        "the block took %llu ns), y: lanes 0-31 per warp",
                        static_cast<unsigned long long>(tl.ns_per_column), visible_ns,
                        static_cast<unsigned long long>(uint64_t(tl.columns) * tl.ns_per_column));
  } else {
    ImGui::TextDisabled("x: %s, y: %s per warp (over the bands: the source line where a warp splits)",
                        mode == analysis::TimelineMode::AlignedSteps ? "issue steps" : "issue clock",
                        grouped ? "its 32 lanes, those that took the same path together" : "lanes 0-31");
  }
  ImGui::PopTextWrapPos();
}

// One timeline (the comparison's lower one draws the same widgets: its own ID scope).
void TimelineView::draw_one(Session& s, bool main) {
  ImGui::PushID(main ? 0 : 1);
  if (view_ready(s, "the timeline shows which lanes of each warp were active at every step.", !controls)) {
    const ZoomClicks z = draw_controls(s, main);
    compute(s);
    if (grid.columns == 0 || grid.warps == 0) {
      ImGui::TextWrapped("Block %u has no recorded instruction.", s.sel.block);
    } else {
      draw_summary(s, main);
      const Layout L = plan();
      apply_zoom(s, L, z);
      split_labels(*s.trace(), timeline, ImGui::GetCursorScreenPos().x + L.label_w, L.canvas_w, col_px, col0);
      // Taller than the panel (many warps): the bands scroll, the legend stays; a slide says which
      // warps it shows.
      ImGui::BeginChild("##bands", ImVec2(0, std::min(L.height + 2, L.room)), false,
                        L.scrolls ? ImGuiWindowFlags_AlwaysVerticalScrollbar : ImGuiWindowFlags_None);
      if (L.scrolls) {
        const int first = int(ImGui::GetScrollY() / L.band), shown = std::max(1, int((L.room + L.gap_px) / L.band));
        hidden_note = "warps " + std::to_string(first) + "-" + std::to_string(std::min(grid.warps, first + shown) - 1) + " of " +
                      std::to_string(grid.warps) + " shown (scroll for the rest)";
      } else {
        hidden_note.clear();
      }
      const bool hovered = draw_bands(s, L);
      draw_marks(s, L);
      if (hovered) hover(s, L);
      ImGui::EndChild();
      draw_legend(L);
    }
  }
  ImGui::PopID();
}


}  // namespace ws::app
