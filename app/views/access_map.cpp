// Warp access map: one warp instruction. The 32 lanes in a row on top; below, memory as the
// hardware serves it: shared memory as 32 bank columns with one row per wavefront (a 4-way
// conflict is four rows), global memory as 32-byte sectors grouped in 128-byte lines with the
// bytes used marked. A line from every active lane to what it touches.
//
// The picture is small (32 lanes, a few rows), so it is drawn with ImGui's draw list; every number
// comes from analysis::metrics_of(), every position from access_map_layout().
#include "views/access_map.h"
#include "views/access_map_layout.h"
#include "views/view_common.h"

#include "ws/analysis/views.h"

#include "ws/analysis/instruction.h"
#include "ws/viz/colormap.h"
#include "ws/viz/fonts.h"

#include <algorithm>
#include <tuple>
#include <bit>
#include <cmath>
#include <cfloat>
#include <cstdio>

namespace ws::app {

namespace {

ImU32 u32(ImVec4 c, float alpha = 1.0f) {
  c.w *= alpha;
  return ImGui::ColorConvertFloat4ToU32(c);
}

// The previous / next Access event of the same warp and block.
int64_t step_event(const Trace& t, int64_t from, int dir) {
  if (from < 0) return -1;
  const Event& e0 = t.events[size_t(from)];
  for (int64_t i = from + dir; i >= 0 && i < int64_t(t.events.size()); i += dir) {
    const Event& e = t.events[size_t(i)];
    if (e.block != e0.block) break;
    if (e.warp == e0.warp && e.type == EventType::Access) return i;
  }
  return -1;
}

constexpr const char* kSharedNote =
    "Numbers in cells: element index. White corner: several lanes read one word (multicast, free).";

// Numbers smaller than this (in font sizes: 9 px at 24 px) are not drawn (no one reads them on a
// wall); the picture says so. A picture for the wall (no controls) draws none under 14 px of a
// 1080p slide (its 24 px font).
constexpr float kMinLabelEm = 0.375f;
constexpr float kWallLabelEm = 14.0f / 24.0f;

// `px`: the layout's size for this kind of number (lanes and banks, or elements), one per picture;
// under `min_px` none is drawn.
void centered_text(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, const char* text, float px, float min_px) {
  ImFont* f = ImGui::GetFont();
  if (px < min_px) return;
  const ImVec2 ts = f->CalcTextSizeA(px, FLT_MAX, 0, text);
  if (ts.x > (b.x - a.x) - 2 || ts.y > (b.y - a.y) + 2) return;  // does not fit: the tooltip has it
  dl->AddText(f, px, ImVec2(std::floor((a.x + b.x - ts.x) / 2), std::floor((a.y + b.y - ts.y) / 2)), col, text);
}

// Text that reads on a colored cell: black on light colors, white on dark ones.
ImU32 ink_for(ImVec4 c) { return (0.299f * c.x + 0.587f * c.y + 0.114f * c.z) > 0.55f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255); }

}  // namespace

void AccessMapView::draw(Session& s) {
  AccessMapView& st = *this;
  st.wavefront_rows = 0;
  st.sector_boxes = 0;
  wanted_h = 0;
  if (!view_ready(s, "the access map shows one warp instruction at a time.", !controls)) return;
  const Trace& t = *s.trace();
  if (st.controls) selection_bar(s, true);

  int64_t ev = s.sel.event;
  if (ev < 0 || size_t(ev) >= t.events.size()) {
    ImGui::TextDisabled("No instruction selected: click a cell in the bank heatmap or the timeline, or pick a warp.");
    return;
  }
  // Arrow keys step through the warp's memory instructions (when this panel has focus).
  if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) {
    int dir = 0;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) dir = 1;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) dir = -1;
    if (dir) {
      const int64_t next = step_event(t, ev, dir);
      if (next >= 0) s.select_event(next), ev = next;
    }
  }
  const Event& e = t.events[size_t(ev)];
  st.event = ev;
  const ws::viz::ViewColors vc = ws::viz::view_colors();

  // Position among the warp's memory instructions, for the header and the step buttons.
  int index = 0, count = 0;
  {
    auto [first, last] = analysis::block_events(t, e.block);
    for (size_t i = first; i < last; ++i) {
      const Event& x = t.events[i];
      if (x.warp != e.warp || x.type != EventType::Access) continue;
      if (int64_t(i) < ev) ++index;
      ++count;
    }
  }
  if (st.controls) {
    ImGui::SameLine();
    if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) {
      if (int64_t p = step_event(t, ev, -1); p >= 0) s.select_event(p);
    }
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) {
      if (int64_t n = step_event(t, ev, +1); n >= 0) s.select_event(n);
    }
    ImGui::SameLine();
    ImGui::Text("instruction %d of %d", index + 1, count);
  }

  // Header: the source line and the instruction's numbers.
  const Site* site = e.site < t.sites.size() ? &t.sites[e.site] : nullptr;
  ImGui::PushFont(ws::viz::mono_font());
  ImGui::TextWrapped("%s  %s", site_label(t, e.site).c_str(), site ? site->text.c_str() : "");
  ImGui::PopFont();
  if (e.type != EventType::Access) {
    ImGui::TextWrapped("%s (mask %08x, %d lanes): not a memory instruction. Use the arrows to step to one.",
                       to_string(e.type), e.mask, std::popcount(e.mask));
    return;
  }
  const analysis::InstructionMetrics m = analysis::metrics_of(t, e);
  const Allocation* a = e.alloc < t.allocations.size() ? &t.allocations[e.alloc] : nullptr;
  const bool shared = e.space == MemSpace::Shared;
  st.shared = shared;
  const AccessMapCaption cap = access_map_caption(m, e, a);
  if (st.controls)
    ImGui::TextWrapped("%s", cap.what.c_str());
  else  // the pickers say where this is; without them, one line does
    ImGui::TextWrapped("%s; block %u, warp %u, instruction %d of %d", cap.what.c_str(), e.block, e.warp, index + 1, count);
  ImGui::PushStyleColor(ImGuiCol_Text, cap.costly ? vc.conflict : vc.text);
  ImGui::TextWrapped("%s", cap.numbers.c_str());
  ImGui::PopStyleColor();
  // Half of the racing pair the lab showed: its lane is outlined below, the pair said here.
  const Session::HazardPair& hp = s.hazard_pair;
  const bool pair_here = hp.valid() && hp.launch == s.sel.launch && (hp.first_event == ev || hp.second_event == ev);
  const int pair_lane = !pair_here ? -1 : hp.first_event == ev ? int(hp.first_lane) : int(hp.second_lane);
  if (pair_here) {
    ImGui::PushStyleColor(ImGuiCol_Text, vc.conflict);
    ImGui::TextWrapped("%s access of the pair: %s", hp.first_event == ev ? "first" : "second", hp.sentence.c_str());
    ImGui::PopStyleColor();
  }
  for (const AccessMapCaption::Note& note : cap.notes) {
    ImGui::PushStyleColor(ImGuiCol_Text, note.costly ? vc.conflict : vc.text_dim);
    ImGui::TextWrapped("%s", note.text.c_str());
    ImGui::PopStyleColor();
  }

  // What goes where (access_map_layout), then the paint, at the cursor.
  const float E = em();
  // The picture fits the room left under the text and the legend below it: its swatches wrap,
  // and (shared memory) a note under them.
  const float room_w = std::max(ImGui::GetContentRegionAvail().x, E);
  const float swatches_w = shared ? ImGui::CalcTextSize("served in the first pass  waited: bank conflict  inactive lane").x
                                  : ImGui::CalcTextSize("bytes used  moved, not used (32-byte sectors)  inactive lane").x;
  const float min_label_px = (st.controls ? kMinLabelEm : kWallLabelEm) * E;
  // (A picture without controls has no hover note: nobody hovers a projected slide. It says only
  // that element numbers are left out, where they are.)
  const char* wall_note = "element numbers left out: the cells are too narrow here";
  auto lay_out = [&](bool hidden_note) {
    const float note_w = !shared ? 0.0f
                         : st.controls ? ImGui::CalcTextSize(kSharedNote).x
                         : hidden_note ? ImGui::CalcTextSize(wall_note).x
                                       : 0.0f;
    const float legend_lines = std::ceil((swatches_w + 4 * E) / room_w) + std::ceil(note_w / room_w);
    const float legend_h = legend_lines * ImGui::GetTextLineHeightWithSpacing() + 1.2f * E;
    return std::pair{access_map_layout(m, e, a, ImGui::GetContentRegionAvail().x, ImGui::GetFontSize(),
                                       ImGui::CalcTextSize("999").x,
                                       std::max(ImGui::GetContentRegionAvail().y - legend_h, 0.0f),
                                       st.controls ? 0.45f : 0.05f),
                     legend_h};
  };
  auto [L, legend_h] = lay_out(false);
  const bool elements_hidden = !L.cells.empty() && L.label_px < min_label_px;
  if (!st.controls && shared && elements_hidden) std::tie(L, legend_h) = lay_out(true);
  {
    // At full size, the picture would need this much (the text above stays as it is).
    const AccessMapLayout full = access_map_layout(m, e, a, ImGui::GetContentRegionAvail().x, ImGui::GetFontSize(),
                                                   ImGui::CalcTextSize("999").x);
    st.wanted_h = ImGui::GetCursorPosY() + 0.3f * E + full.height + legend_h;
  }
  ImVec2 o = ImGui::GetCursorScreenPos();
  o.x = std::floor(o.x);
  o.y = std::floor(o.y + 0.3f * E);
  auto p0 = [&](const AccessMapLayout::Box& b) { return ImVec2(o.x + b.x0, o.y + b.y0); };
  auto p1 = [&](const AccessMapLayout::Box& b) { return ImVec2(o.x + b.x1, o.y + b.y1); };
  auto hovered = [&](const AccessMapLayout::Box& b) { return ImGui::IsMouseHoveringRect(p0(b), ImVec2(o.x + b.x1 + 1, o.y + b.y1 + 1)); };
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = u32(vc.text), text_dim = u32(vc.text_dim);
  st.lanes_min = p0(L.lanes[0].box);
  st.cell_w = L.cell_w;
  st.row_h = L.row_h;
  st.label_px = L.label_px >= min_label_px ? L.label_px : 0.0f;  // as drawn (0: left out)
  st.lane_label_px = L.lane_label_px >= min_label_px ? L.lane_label_px : 0.0f;
  st.grid_min = ImVec2(o.x + L.margin, o.y + L.grid_y);
  st.wavefront_rows = L.rows;
  st.sector_boxes = int(L.sectors.size());

  // Row labels no taller than their row (rows shrink to fit a tall conflict into the room).
  for (const AccessMapLayout::Label& lab : L.labels) {
    const float px = std::min(ImGui::GetFontSize(), std::max(lab.h, 1.0f));
    dl->AddText(ImGui::GetFont(), px, ImVec2(o.x + lab.x, o.y + lab.y + (lab.h - px) / 2), lab.dim ? text_dim : text,
                lab.text.c_str());
  }
  int hovered_lane = -1;
  for (int l = 0; l < 32; ++l) {
    const AccessMapLayout::Lane& lane = L.lanes[size_t(l)];
    const ImVec4 c = !lane.live ? vc.empty : lane.active ? vc.active : vc.inactive;
    dl->AddRectFilled(p0(lane.box), p1(lane.box), u32(c));
    if (s.sel.lane == l) dl->AddRect(p0(lane.box), p1(lane.box), u32(vc.selection), 0, 0, 2.0f);
    if (pair_lane == l)
      dl->AddRect(ImVec2(p0(lane.box).x - 2, p0(lane.box).y - 2), ImVec2(p1(lane.box).x + 2, p1(lane.box).y + 2),
                  u32(vc.conflict), 0, 0, 3.0f);
    char num[8];
    std::snprintf(num, sizeof num, "%d", l);
    centered_text(dl, p0(lane.box), p1(lane.box), lane.active ? ink_for(c) : text_dim, num, L.lane_label_px, min_label_px);
    if (hovered(lane.box)) hovered_lane = l;
  }
  std::string hover_text;
  if (shared) {
    for (int b = 0; b < int(L.bank_headers.size()); ++b) {
      char num[12];
      std::snprintf(num, sizeof num, "%d", b);
      centered_text(dl, p0(L.bank_headers[size_t(b)]), p1(L.bank_headers[size_t(b)]), text_dim, num, L.lane_label_px, min_label_px);
    }
    for (const AccessMapLayout::Box& b : L.empty_cells) dl->AddRectFilled(p0(b), p1(b), u32(vc.empty));
    for (const AccessMapLayout::Cell& c : L.cells) {
      const ImVec4 col = c.conflict ? vc.conflict : vc.ok;
      const ImVec2 a0 = p0(c.box), a1 = p1(c.box);
      dl->AddRectFilled(a0, a1, u32(col));
      char lab[24];
      std::snprintf(lab, sizeof lab, "%llu", static_cast<unsigned long long>(c.element));
      centered_text(dl, a0, a1, ink_for(col), lab, L.label_px, min_label_px);
      if (c.multicast) {  // several lanes on one word: a white corner mark
        dl->AddTriangleFilled(ImVec2(a1.x - L.row_h * 0.45f, a0.y), ImVec2(a1.x, a0.y),
                              ImVec2(a1.x, a0.y + L.row_h * 0.45f), u32(vc.selection));
      }
      if (hovered(c.box)) {
        const rules::SharedWord& w = c.word;
        char buf[256];
        std::snprintf(buf, sizeof buf, "bank %u, pass %u%s\nword %llu (byte address %llu)\n%s[%llu]\nlanes:", w.bank,
                      w.wavefront + 1, c.conflict ? " (waited: bank conflict)" : "", static_cast<unsigned long long>(w.word),
                      static_cast<unsigned long long>(w.word * 4), a ? a->name.c_str() : "?",
                      static_cast<unsigned long long>(c.element));
        hover_text = buf;
        for (uint32_t lm = w.lanes; lm; lm &= lm - 1) hover_text += " " + std::to_string(std::countr_zero(lm));
        if (c.multicast)
          hover_text += "\n(multicast: one word, " + std::to_string(std::popcount(w.lanes)) + " lanes, served together)";
      }
    }
  } else {
    const uint64_t first_line = m.global.line_addresses.empty() ? 0 : m.global.line_addresses.front();
    for (const AccessMapLayout::Box& b : L.line_boxes) {
      const float sw = (b.x1 + 1 - b.x0) / 4;
      for (int q = 0; q < 4; ++q)
        dl->AddRectFilled(ImVec2(o.x + b.x0 + q * sw, o.y + b.y0), ImVec2(o.x + b.x0 + (q + 1) * sw - 1, o.y + b.y1),
                          u32(vc.empty));
      dl->AddRect(p0(b), p1(b), text_dim);
    }
    for (const AccessMapLayout::Sector& sec : L.sectors) {
      // Moved: the whole sector (shaded); used: its bytes, byte by byte.
      const ImVec2 a0 = p0(sec.box), a1 = p1(sec.box);
      dl->AddRectFilled(a0, a1, u32(vc.global, 0.28f));
      const float sw = a1.x + 1 - a0.x;
      for (int b = 0; b < 32; ++b)
        if ((sec.used >> b) & 1u)
          dl->AddRectFilled(ImVec2(a0.x + (sw - 1) * b / 32.0f, a0.y + 2), ImVec2(a0.x + (sw - 1) * (b + 1) / 32.0f, a1.y - 2),
                            u32(vc.global));
      if (hovered(sec.box)) {
        const uint64_t line = m.global.line_addresses[size_t(sec.line)];
        char buf[200];
        std::snprintf(buf, sizeof buf, "sector at byte %llu (line +%llu, sector %d of 4)\n%d of 32 bytes used, 32 moved",
                      static_cast<unsigned long long>(sec.address), static_cast<unsigned long long>(line - first_line),
                      sec.quarter + 1, std::popcount(sec.used));
        hover_text = buf;
      }
    }
  }
  ImGui::Dummy(ImVec2(L.width, L.height));
  if (!shared && L.lines_total > L.lines_drawn)
    ImGui::TextDisabled("... and %d more lines (the numbers above count them all)", L.lines_total - L.lines_drawn);

  // Links from lanes to what they touch (drawn last: over the gap, under nothing).
  for (const AccessMapLayout::Link& k : L.links) {
    const bool hl = hovered_lane == k.lane || s.sel.lane == k.lane;
    const ImVec4 c = shared ? (k.conflict ? vc.conflict : vc.ok) : k.conflict ? vc.conflict : vc.global;
    dl->AddLine(ImVec2(o.x + k.x0, o.y + k.y0), ImVec2(o.x + k.x1, o.y + k.y1), u32(c, hl ? 1.0f : 0.75f), hl ? 2.5f : 1.2f);
  }
  // Atomic collisions: how many lanes queue at the address, on a plate inside its sector.
  for (const AccessMapLayout::Collision& c : L.collisions) {
    char txt[16];
    std::snprintf(txt, sizeof txt, "x%u", c.lanes);
    const ImVec2 ts = ImGui::CalcTextSize(txt);
    // (kept right of the row labels: an address at a line's first byte would put it over them)
    const ImVec2 at(std::round(std::max(o.x + c.x - ts.x / 2, o.x + L.margin + 0.25f * E)),
                    std::round(o.y + c.y + (L.row_h - ts.y) / 2));
    dl->AddRectFilled(ImVec2(at.x - 0.2f * E, at.y), ImVec2(at.x + ts.x + 0.2f * E, at.y + ts.y), u32(vc.background, 0.85f), 0.2f * E);
    dl->AddText(at, u32(vc.conflict), txt);
  }

  // Legend.
  if (shared) {
    swatch(vc.ok, "served in the first pass");
    ImGui::SameLine(0, E);
    swatch(vc.conflict, "waited: bank conflict");
    ImGui::SameLine(0, E);
    swatch(vc.inactive, "inactive lane");
    ImGui::PushTextWrapPos(0);
    if (st.controls && elements_hidden) ImGui::TextDisabled("Element numbers hidden (cells too narrow): hover a cell.");
    else if (st.controls) ImGui::TextDisabled("%s", kSharedNote);  // (a lesson's caption says what matters)
    else if (elements_hidden) ImGui::TextDisabled("%s", wall_note);
    ImGui::PopTextWrapPos();
  } else {
    swatch(vc.global, "bytes used");
    ImGui::SameLine(0, E);
    swatch(ImVec4(vc.global.x, vc.global.y, vc.global.z, 0.28f), "moved, not used (32-byte sectors)");
    ImGui::SameLine(0, E);
    swatch(vc.inactive, "inactive lane");
  }

  if (hovered_lane >= 0) {
    const Dim3 th = t.thread_index(e.warp, uint32_t(hovered_lane));
    char buf[256];
    const bool active = (e.mask >> hovered_lane) & 1u;
    int n = std::snprintf(buf, sizeof buf, "lane %d of warp %u: threadIdx (%u,%u,%u)%s", hovered_lane, e.warp, th.x, th.y,
                          th.z, active ? "" : "\ninactive in this instruction");
    if (active && a && n > 0) {
      // The lane's offset: its rank among the active lanes.
      const int rank = std::popcount(e.mask & ((1u << hovered_lane) - 1u));
      auto lanes = t.lanes(e);
      if (size_t(rank) < lanes.size())
        std::snprintf(buf + n, sizeof buf - size_t(n), "\n%s, byte address %llu", element_name(*a, lanes[size_t(rank)]).c_str(),
                      static_cast<unsigned long long>(m.lane_address[size_t(hovered_lane)]));
    }
    ImGui::SetTooltip("%s", buf);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      s.sel.lane = s.sel.lane == hovered_lane ? -1 : hovered_lane;
      ++s.sel_version;
    }
  } else if (!hover_text.empty()) {
    ImGui::SetTooltip("%s", hover_text.c_str());
  }
}

}  // namespace ws::app
