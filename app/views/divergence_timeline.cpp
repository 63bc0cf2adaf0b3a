// Divergence timeline: for each warp of the selected block a band of 32 lane rows; x = issue
// steps (each warp's own steps, aligned at every __syncthreads(); or the block's issue clock).
// A cell is lit when the lane executed that instruction, colored by what it was (shared, global,
// warp-synchronous); barriers are vertical lines across all warps. Drawn by shaders/timeline.frag.
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

namespace {
void draw_one_timeline(Session& s, TimelineView& st, bool main);
}  // namespace

BackendKind compare_backend(BackendKind main) {
  return main == BackendKind::Emu ? BackendKind::GpuTrace : BackendKind::Emu;
}

void TimelineView::set_option(std::string_view key, int choice) {
  if (key == "x") mode = analysis::TimelineMode(choice);
  if (key == "compare") compare = choice == 1;
  if (key == "zoom") zoom_times = 1 << choice, zoom = 0;  // fit|2|4|8
  if (key == "lanes") grouped = choice == 0, cache_key = ~0ull;
}

std::string TimelineView::prepare_picture(Session& s) {
  if (!compare) return {};
  if (!compare_session(s).wait_idle(std::chrono::minutes(2)))
    return "the comparison run did not finish within two minutes";
  return {};
}

Session& TimelineView::compare_session(Session& s) {
  TimelineView& st = *this;
  if (!st.other) {
    st.other = std::make_unique<Session>();
    st.other_view = std::make_unique<TimelineView>();
  }
  const auto d = s.data();
  if (d && st.other_for != d->generation) {
    st.other_for = d->generation;
    RunRequest r = d->request;
    r.backend = compare_backend(d->request.backend);
    r.config.cancel.reset();
    st.other->request(std::move(r));
  }
  return *st.other;
}

void TimelineView::draw(Session& s) {
  TimelineView& st = *this;
  const auto d = s.data();
  if (!st.compare || !d) {
    draw_one_timeline(s, st, true);
    return;
  }
  // Two timelines of the same launch, one above the other, with the same block, x mode and zoom.
  Session& o = compare_session(s);
  o.poll();
  TimelineView& ov = *st.other_view;
  o.sel.launch = s.sel.launch;
  o.sel.block = s.sel.block;
  ov.mode = st.mode;
  const float half = std::floor(ImGui::GetContentRegionAvail().y * 0.5f);
  const bool emu_main = d->request.backend == BackendKind::Emu;
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  ImGui::BeginChild("##main-timeline", ImVec2(0, half), false, ImGuiWindowFlags_NoScrollbar);
  ImGui::TextColored(vc.text_dim, emu_main ? "Emulator: the textbook SIMT model (divergent paths serialized, "
                                             "reconvergence after if/else and loops)"
                                           : "GPU (gpu-trace): what the hardware grouped");
  draw_one_timeline(s, st, true);
  ImGui::EndChild();
  ImGui::BeginChild("##other-timeline", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
  ImGui::TextColored(vc.text_dim, emu_main ? "GPU (gpu-trace), the same launch: what the hardware grouped"
                                           : "Emulator, the same launch: the textbook SIMT model");
  // One x scale for both: each fits the longer of the two.
  st.common_extent = ov.common_extent = float(std::max(st.timeline.columns, ov.timeline.columns));
  ov.col0 = st.col0;
  draw_one_timeline(o, ov, false);
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

void draw_timeline_body(Session& s, TimelineView& st, bool main) {
  if (!view_ready(s, "the timeline shows which lanes of each warp were active at every step.", !st.controls)) return;
  const Trace& t = *s.trace();
  const auto d = s.data();
  const float E = em();
  if (main && st.controls) {
    selection_bar(s, false);
    ImGui::SameLine();
  }
  // Real time only where the records carry it (gpu-trace: %globaltimer); the emulator's clock
  // counts issue slots, not nanoseconds.
  const bool has_time = t.launch.backend == to_string(BackendKind::GpuTrace);
  if (!has_time && st.mode == analysis::TimelineMode::Time) st.mode = analysis::TimelineMode::AlignedSteps;
  bool zoom_in = false, zoom_out = false;
  if (main && st.controls) {
    int mode = int(st.mode);
    ImGui::SetNextItemWidth(8.5f * E);
    const char* modes[] = {"steps, aligned at barriers", "block issue clock", "time (ns, this block's SM)"};
    if (ImGui::Combo("##x", &mode, modes, has_time ? 3 : 2)) {
      st.mode = analysis::TimelineMode(mode);
      st.zoom = 0;
      st.col0 = 0;
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("fit")) st.zoom = 0, st.col0 = 0;
    ImGui::SameLine();
    zoom_in = ImGui::SmallButton("+");
    ImGui::SameLine();
    zoom_out = ImGui::SmallButton("-");
    ImGui::SameLine();
    // The comparison needs the other backend: gpu-trace wants a CUDA device (without one the lower
    // half says so).
    ImGui::Checkbox(d->request.backend == BackendKind::Emu ? "compare with the GPU" : "compare with the emulator",
                    &st.compare);
  } else if (!has_time && st.mode == analysis::TimelineMode::Time) {
    st.mode = analysis::TimelineMode::AlignedSteps;
  }

  uint64_t key = ws::viz::hash_mix(ws::viz::kHashSeed, d->generation);
  key = ws::viz::hash_mix(key, s.sel.launch);
  key = ws::viz::hash_mix(key, s.sel.block);
  key = ws::viz::hash_mix(key, uint64_t(st.mode));
  key = ws::viz::hash_mix(key, uint64_t(st.grouped));
  if (key != st.cache_key) {
    st.cache_key = key;
    st.timeline = analysis::block_timeline(t, s.sel.block, st.mode);
    auto& g = st.grid;
    const auto& tl = st.timeline;
    g.warps = int(std::min<uint32_t>(tl.warps, ws::viz::kTimelineMaxWarps));
    g.columns = int(tl.columns);
    g.masks.assign(size_t(g.warps) * size_t(g.columns), 0);
    g.kinds.assign(size_t(g.warps) * size_t(g.columns), 0);
    g.column_flags.assign(size_t(g.columns), 0);
    g.live.assign(size_t(g.warps), 0);
    st.lane_order.assign(size_t(g.warps), {});
    // Row k of a warp's band shows lane order[k]: grouped, a branch's sides are solid blocks.
    auto permuted = [](uint32_t mask, const std::array<uint8_t, 32>& order) {
      uint32_t out = 0;
      for (int k = 0; k < 32; ++k) out |= ((mask >> order[size_t(k)]) & 1u) << k;
      return out;
    };
    for (int w = 0; w < g.warps; ++w) {
      auto& order = st.lane_order[size_t(w)];
      if (st.grouped) order = analysis::grouped_lanes(t, tl, uint32_t(w));
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
  const auto& tl = st.timeline;
  const auto& g = st.grid;
  if (g.columns == 0 || g.warps == 0) {
    ImGui::TextWrapped("Block %u has no recorded instruction.", s.sel.block);
    return;
  }

  // Block SIMD efficiency and the per-warp numbers (from the report) on the left of each band.
  const analysis::Report* rep = s.report();
  if (main && !st.controls)  // a picture: what it shows and its axes, in one sentence
    ImGui::TextWrapped("block %u: %llu instructions, SIMD efficiency %.0f%%; x: %s, y: 32 lanes per warp%s", s.sel.block,
                       static_cast<unsigned long long>(tl.instructions), 100.0 * tl.simd_efficiency(),
                       st.mode == analysis::TimelineMode::AlignedSteps ? "issue steps aligned at barriers"
                       : st.mode == analysis::TimelineMode::IssueClock ? "the block's issue clock"
                                                                        : "time (ns)",
                       st.grouped ? ", lanes that took the same path together" : "");
  else
    ImGui::TextWrapped("block %u: %llu instructions, SIMD efficiency %.0f%% (active lanes / 32)", s.sel.block,
                       static_cast<unsigned long long>(tl.instructions), 100.0 * tl.simd_efficiency());
  if (tl.warps > uint32_t(g.warps))
    ImGui::TextDisabled("(the first %d of %u warps are drawn)", g.warps, tl.warps);
  if (!st.hidden_note.empty()) ImGui::TextDisabled("%s", st.hidden_note.c_str());

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float label_w = std::floor(4.6f * E);
  // The legend under the bands: its swatches wrap in a narrow view (swatch()).
  const float legend_w = ImGui::CalcTextSize("shared  global  warp sync  inactive lane  __syncthreads").x + 7 * E;
  const float legend_h = ImGui::GetTextLineHeightWithSpacing() *
                         (std::ceil(legend_w / std::max(avail.x, E)) + (st.controls ? 1.0f : 0.0f)) + 0.2f * E;
  float gap_px = std::floor(std::max(0.35f * E, 3.0f));
  // A line over the bands for the source lines of the columns where warps split.
  const float splits_h = ImGui::GetTextLineHeightWithSpacing();
  const float room = std::max(avail.y - legend_h - splits_h, st.controls ? 4 * E : E);
  // A picture (controls off) shows every warp: the gaps and the lanes shrink until the bands fit
  // (a warp's band at least a pixel). With controls, lanes stay readable and the bands scroll.
  if (!st.controls && g.warps > 1) gap_px = std::clamp(std::floor(0.25f * room / float(g.warps - 1)), 1.0f, gap_px);
  const float min_lane = st.controls ? 0.05f * E : 1.0f / 32;
  // Lane rows fill the height (whole pixels once they are 3 px or more; below that, the eye
  // sees the band, not the rows).
  float lane_px = std::clamp((room - 2 - gap_px * float(g.warps - 1)) / float(32 * g.warps), min_lane, 0.5f * E);
  if (lane_px >= 3) lane_px = std::floor(lane_px);
  const float band = 32 * lane_px + gap_px;
  const float height = band * g.warps - gap_px;
  const bool scrolls = height + 2 > room;
  const float canvas_w =
      std::floor(std::max(avail.x - label_w - (scrolls ? ImGui::GetStyle().ScrollbarSize + 2 : 0.0f), 8 * E));
  // The zoom is kept in font units: an export at twice the font shows the same columns. Compared
  // with another launch, both fit the longer one (one step as wide on both sides).
  st.extent = float(g.columns);
  const float fit = canvas_w / std::max(float(g.columns), st.common_extent) / E;
  if (!st.controls && st.common_extent > 0 && st.zoom_times == 1 && std::abs(st.zoom - fit) > 1e-6f) st.zoom = 0;
  if (st.zoom <= 0) {
    st.zoom = fit * float(st.zoom_times);
    // Zoomed in by an option: the selected instruction's column in the middle of the picture.
    if (st.zoom_times > 1 && s.sel.event >= 0 && t.events[size_t(s.sel.event)].block == s.sel.block) {
      const Event& e = t.events[size_t(s.sel.event)];
      if (e.warp < tl.per_warp.size())
        for (const auto& en : tl.per_warp[e.warp])
          if (int64_t(en.event) == s.sel.event) st.col0 = float(en.column) - 0.5f * canvas_w / (st.zoom * E);
    }
  }
  if (zoom_in) st.zoom *= 2;
  if (zoom_out) st.zoom = std::max(st.zoom / 2, fit);
  const float col_px = st.zoom * E;
  const float visible_cols = canvas_w / col_px;
  st.col0 = std::clamp(st.col0, 0.0f, std::max(0.0f, float(g.columns) - visible_cols));
  split_labels(t, tl, ImGui::GetCursorScreenPos().x + label_w, canvas_w, col_px, st.col0);
  // Taller than the panel (many warps): the bands scroll, the legend stays.
  ImGui::BeginChild("##bands", ImVec2(0, std::min(height + 2, room)), false,
                    scrolls ? ImGuiWindowFlags_AlwaysVerticalScrollbar : ImGuiWindowFlags_None);
  if (scrolls) {
    // Not every warp fits: which ones the picture shows (a slide must say what it leaves out).
    const int first = int(ImGui::GetScrollY() / band), shown = std::max(1, int((room + gap_px) / band));
    st.hidden_note = "warps " + std::to_string(first) + "-" + std::to_string(std::min(g.warps, first + shown) - 1) + " of " +
                     std::to_string(g.warps) + " shown (scroll for the rest)";
  } else {
    st.hidden_note.clear();
  }

  // Playback: columns of events not yet issued are dimmed.
  ws::viz::TimelineView view;
  view.col0 = st.col0;
  view.col_px = col_px;
  view.lane_px = lane_px;
  view.gap_px = gap_px;
  auto [first, last] = analysis::block_events(t, s.sel.block);
  if (s.sel.cursor >= 0) {
    view.cursor = 0;
    const uint64_t issued_end = first + uint64_t(s.sel.cursor);
    for (const auto& w : tl.per_warp)
      for (const auto& en : w)
        if (en.event < issued_end) view.cursor = std::max(view.cursor, float(en.column + 1));
  }

  ImVec2 o = ImGui::GetCursorScreenPos();
  o = ImVec2(std::floor(o.x), std::floor(o.y));
  const ImVec2 gmin(o.x + label_w, o.y);
  st.grid_min = gmin;
  st.col_px = col_px;
  st.lane_px = lane_px;
  st.gap_px = gap_px;
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  ws::viz::TimelineColors colors = {vc.empty, vc.inactive, vc.active, vc.global, vc.sync, vc.sync, vc.barrier, vc.empty};
  uint64_t ck = ws::viz::hash_mix(g.version, uint64_t(col_px * 64));
  ck = ws::viz::hash_mix(ck, uint64_t(st.col0 * 64));
  ck = ws::viz::hash_mix(ck, uint64_t(view.cursor));
  ck = ws::viz::hash_mix(ck, uint64_t(lane_px * 16));
  ck = ws::viz::hash_mix(ck, uint64_t(vc.background.x * 1000));
  ImGui::SetCursorScreenPos(gmin);
  std::string err;
  if (!st.canvas.show(ImVec2(canvas_w, height), ck, [&](std::string& e) { return st.renderer.draw(g, view, colors, e); }, err))
    ImGui::TextColored(vc.conflict, "cannot draw the timeline: %s", err.c_str());
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Warp labels with their SIMD efficiency.
  // Bands thinner than a line of text: every k-th warp is labelled.
  const int label_every = std::max(1, int(std::ceil(ImGui::GetTextLineHeight() / band)));
  for (int w = 0; w < g.warps; ++w) {
    const float y = gmin.y + w * band;
    if (w % label_every != 0 && uint32_t(w) != s.sel.warp) continue;
    double eff = 0;
    if (rep)
      for (const auto& wm : rep->warps)
        if (wm.block == s.sel.block && wm.warp == uint32_t(w)) eff = wm.simd_efficiency();
    char lab[32];
    std::snprintf(lab, sizeof lab, "warp %d", w);
    const float th = ImGui::GetTextLineHeight();
    const bool two_lines = 32 * lane_px >= 2 * th;
    dl->AddText(ImVec2(o.x, y + (two_lines ? 0 : (32 * lane_px - th) / 2)), ImGui::GetColorU32(ImGuiCol_Text), lab);
    if (two_lines) {
      std::snprintf(lab, sizeof lab, "%.0f%%", 100 * eff);
      dl->AddText(ImVec2(o.x, y + th), ImGui::GetColorU32(ImGuiCol_TextDisabled), lab);
    }
    if (uint32_t(w) == s.sel.warp)
      dl->AddRectFilled(ImVec2(gmin.x - 4, y), ImVec2(gmin.x - 2, y + 32 * lane_px), ImGui::ColorConvertFloat4ToU32(vc.selection));
  }
  // The selected instruction.
  if (s.sel.event >= 0 && t.events[size_t(s.sel.event)].block == s.sel.block) {
    const Event& e = t.events[size_t(s.sel.event)];
    for (const auto& en : tl.per_warp[e.warp])
      if (int64_t(en.event) == s.sel.event && e.warp < uint32_t(g.warps)) {
        const float x = gmin.x + (float(en.column) - st.col0) * col_px;
        const float y = gmin.y + e.warp * band;
        if (x >= gmin.x - col_px && x <= gmin.x + canvas_w)
          dl->AddRect(ImVec2(x - 1, y - 1), ImVec2(x + std::max(col_px, 2.0f) + 1, y + 32 * lane_px + 1),
                      ImGui::ColorConvertFloat4ToU32(vc.selection), 0, 0, 2.0f);
      }
  }
  if (hovered) {
    ImGuiIO& io = ImGui::GetIO();
    const ImVec2 mp = io.MousePos;
    const int col = int(std::floor(st.col0 + (mp.x - gmin.x) / col_px));
    const int w = int((mp.y - gmin.y) / band);
    const float within = mp.y - gmin.y - float(w) * band;
    const int row = int(within / lane_px);
    const int lane = w >= 0 && w < g.warps && row >= 0 && row < 32 ? int(st.lane_order[size_t(w)][size_t(row)]) : -1;
    if (w >= 0 && w < g.warps && lane >= 0 && lane < 32 && col >= 0 && col < g.columns) {
      const analysis::TimelineEntry* hit = nullptr;
      for (const auto& en : tl.per_warp[size_t(w)])
        if (en.column == uint32_t(col)) hit = &en;
      const Dim3 th = t.thread_index(uint32_t(w), uint32_t(lane));
      if (hit) {
        const Event& e = t.events[size_t(hit->event)];
        const bool active = (e.mask >> lane) & 1u;
        const std::string when = tl.ns_per_column ? ", t = " + std::to_string(e.time - tl.time0) + " ns" : "";
        wrapped_tooltip("warp %d, lane %d (threadIdx %u,%u,%u): %s\n%s at %s\n%s\nmask %08x: %d of 32 lanes active (step %u%s)",
                          w, lane, th.x, th.y, th.z, active ? "active" : "inactive", e.type == EventType::Access ? to_string(e.kind) : to_string(e.type),
                          site_label(t, e.site).c_str(), e.site < t.sites.size() ? t.sites[e.site].text.c_str() : "", e.mask,
                          std::popcount(e.mask), e.step, when.c_str());
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
          s.select_event(int64_t(hit->event));
          s.sel.lane = lane;
        }
      } else {
        ImGui::SetTooltip("warp %d, lane %d (threadIdx %u,%u,%u)\nno instruction of this warp in column %d", w, lane, th.x, th.y,
                          th.z, col);
      }
    }
    // Wheel: zoom around the mouse; shift+wheel or drag: pan.
    if (io.MouseWheel != 0 && (io.KeyCtrl || !scrolls)) {
      if (io.KeyShift) {
        st.col0 -= io.MouseWheel * 8 / col_px * E;
      } else {
        const float at = st.col0 + (mp.x - gmin.x) / col_px;
        st.zoom = std::max(fit, st.zoom * (io.MouseWheel > 0 ? 1.25f : 0.8f));
        st.col0 = at - (mp.x - gmin.x) / (st.zoom * E);
      }
    }
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) st.col0 -= io.MouseDelta.x / col_px;
  }
  ImGui::EndChild();
  swatch(vc.active, "shared");
  ImGui::SameLine(0, E);
  swatch(vc.global, "global");
  ImGui::SameLine(0, E);
  swatch(vc.sync, "warp sync");
  ImGui::SameLine(0, E);
  swatch(vc.inactive, "inactive lane");
  ImGui::SameLine(0, E);
  swatch(vc.barrier, "__syncthreads");
  if (!st.controls) return;  // the line above the bands says what x and y are
  ImGui::PushTextWrapPos(0);
  if (st.mode == analysis::TimelineMode::Time) {
    // The visible span in ns, so the slide says how long the block took.
    const double visible_ns = double(canvas_w / col_px) * double(tl.ns_per_column);
    ImGui::TextDisabled("x: time of the recorded run (recording slows it), %llu ns per column (%.0f ns across the view; "
                        "the block took %llu ns), y: lanes 0-31 per warp",
                        static_cast<unsigned long long>(tl.ns_per_column), visible_ns,
                        static_cast<unsigned long long>(uint64_t(tl.columns) * tl.ns_per_column));
  } else {
    ImGui::TextDisabled("x: %s, y: %s per warp (over the bands: the source line where a warp splits)",
                        st.mode == analysis::TimelineMode::AlignedSteps ? "issue steps" : "issue clock",
                        st.grouped ? "its 32 lanes, those that took the same path together" : "lanes 0-31");
  }
  ImGui::PopTextWrapPos();
}

// The comparison's lower timeline draws the same widgets: its own ID scope.
void draw_one_timeline(Session& s, TimelineView& st, bool main) {
  ImGui::PushID(main ? 0 : 1);
  draw_timeline_body(s, st, main);
  ImGui::PopID();
}

}  // namespace

}  // namespace ws::app
