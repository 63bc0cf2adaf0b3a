// Warp access map: one warp instruction. The 32 lanes in a row on top; below, memory as the
// hardware serves it: shared memory as 32 bank columns with one row per wavefront (a 4-way
// conflict is four rows), global memory as 32-byte sectors grouped in 128-byte lines with the
// bytes used marked. A line from every active lane to what it touches.
//
// The picture is small (32 lanes, a few rows), so it is drawn with ImGui's draw list; every number
// comes from analysis::metrics_of().
#include "views/access_map.h"
#include "views/view_common.h"

#include "ws/analysis/views.h"

#include "ws/analysis/instruction.h"
#include "ws/viz/colormap.h"
#include "ws/viz/fonts.h"

#include <algorithm>
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

// Cell labels share one size per picture: the UI font, or smaller so that "999" fits a cell (a
// projector's large font must not drop lane numbers 10-31).
float g_label_px = 0;

void centered_text(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, const char* text) {
  ImFont* f = ImGui::GetFont();
  const float px = g_label_px > 0 ? g_label_px : ImGui::GetFontSize();
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
  if (!view_ready(s, "the access map shows one warp instruction at a time.")) return;
  const Trace& t = *s.trace();
  selection_bar(s, true);

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
  char numbers[256];
  if (shared) {
    std::snprintf(numbers, sizeof numbers, "%s %s %s, %u B/lane, %u of 32 lanes  |  %u wavefront%s (ideal %u), %u bank conflict%s%s",
                  "shared", to_string(e.kind), a ? a->name.c_str() : "?", m.width, m.active_lanes, m.shared.wavefronts,
                  m.shared.wavefronts == 1 ? "" : "s", m.shared.ideal_wavefronts, m.shared.conflicts,
                  m.shared.conflicts == 1 ? "" : "s",
                  m.shared.max_ways > 1 ? (" (" + std::to_string(m.shared.max_ways) + "-way)").c_str() : "");
  } else {
    std::snprintf(numbers, sizeof numbers,
                  "global %s %s, %u B/lane, %u of 32 lanes  |  %u sector%s in %u line%s, %llu B requested / %llu B moved = %.0f%%",
                  to_string(e.kind), a ? a->name.c_str() : "?", m.width, m.active_lanes, m.global.sectors,
                  m.global.sectors == 1 ? "" : "s", m.global.lines, m.global.lines == 1 ? "" : "s",
                  static_cast<unsigned long long>(m.global.bytes_requested),
                  static_cast<unsigned long long>(m.global.bytes_moved), 100.0 * m.global.efficiency);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, (shared && m.shared.conflicts) ? vc.conflict : vc.text);
  ImGui::TextWrapped("%s", numbers);
  ImGui::PopStyleColor();
  if (!shared && m.global.bytes_requested > m.global.bytes_moved) {
    // Over 100% (as in Nsight Compute's bytes-per-sector metric): lanes share words.
    ImGui::TextColored(vc.text_dim, "over 100%%: lanes read the same words (%.1f lanes per word on average), "
                                    "each sector is moved once for all of them",
                       m.global.efficiency);
  }

  // Geometry: a left margin for row labels, 32 equal columns.
  const float E = em();
  const float margin = std::floor(4.2f * E);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float cw = std::floor(std::max((avail.x - margin - 2) / 32.0f, 0.6f * E));
  const float lane_h = std::floor(1.5f * E);
  const float link_h = std::floor(2.6f * E);
  const float row_h = std::floor(1.5f * E);
  ImVec2 o = ImGui::GetCursorScreenPos();
  o.x = std::floor(o.x);
  o.y = std::floor(o.y + 0.3f * E);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = u32(vc.text), text_dim = u32(vc.text_dim);
  const ImVec2 lanes_min(o.x + margin, o.y);
  g_label_px = std::min(ImGui::GetFontSize(), std::floor(ImGui::GetFontSize() * (cw - 3) / ImGui::CalcTextSize("999").x));
  st.lanes_min = lanes_min;
  st.cell_w = cw;
  st.row_h = row_h;

  // Lanes.
  dl->AddText(ImVec2(o.x, o.y + (lane_h - ImGui::GetTextLineHeight()) / 2), text, "lanes");
  const int live = int(m.live_lanes);
  int hovered_lane = -1;
  for (int l = 0; l < 32; ++l) {
    const ImVec2 a0(lanes_min.x + l * cw, lanes_min.y), a1(a0.x + cw - 1, a0.y + lane_h);
    const bool active = (e.mask >> l) & 1u;
    ImVec4 c = l >= live ? vc.empty : active ? vc.active : vc.inactive;
    dl->AddRectFilled(a0, a1, u32(c));
    if (s.sel.lane == l) dl->AddRect(a0, a1, u32(vc.selection), 0, 0, 2.0f);
    char num[8];
    std::snprintf(num, sizeof num, "%d", l);
    centered_text(dl, a0, a1, active ? ink_for(c) : text_dim, num);
    if (ImGui::IsMouseHoveringRect(a0, a1)) hovered_lane = l;
  }
  const float mem_y = lanes_min.y + lane_h + link_h;
  const ImVec2 grid_min(lanes_min.x, mem_y + ImGui::GetTextLineHeight() * 1.1f);
  st.grid_min = grid_min;

  struct Link {
    int lane;
    ImVec2 to;
    bool conflict;
  };
  std::vector<Link> links;
  std::string hover_text;

  if (shared) {
    // Bank numbers above the grid.
    for (int b = 0; b < 32; ++b) {
      char num[8];
      std::snprintf(num, sizeof num, "%d", b);
      centered_text(dl, ImVec2(grid_min.x + b * cw, mem_y), ImVec2(grid_min.x + (b + 1) * cw - 1, grid_min.y), text_dim, num);
    }
    dl->AddText(ImVec2(o.x, mem_y), text_dim, "bank");
    const int rows = int(m.shared.wavefronts);
    st.wavefront_rows = rows;
    // First wavefront of each phase: a word served later in its phase waited for a conflict.
    std::vector<int> phase_first(4, 1 << 30);
    for (const auto& w : m.shared.words) phase_first[w.phase] = std::min<int>(phase_first[w.phase], w.wavefront);
    for (int r = 0; r < rows; ++r) {
      const float y0 = grid_min.y + r * row_h;
      char lab[32];
      std::snprintf(lab, sizeof lab, "pass %d", r + 1);
      dl->AddText(ImVec2(o.x, y0 + (row_h - ImGui::GetTextLineHeight()) / 2), text, lab);
      for (int b = 0; b < 32; ++b)
        dl->AddRectFilled(ImVec2(grid_min.x + b * cw, y0), ImVec2(grid_min.x + (b + 1) * cw - 1, y0 + row_h - 1),
                          u32(vc.empty));
    }
    const uint64_t base_word = a ? a->base / 4 : 0;
    for (const auto& w : m.shared.words) {
      const bool conflict = w.wavefront > phase_first[w.phase];
      const ImVec4 c = conflict ? vc.conflict : vc.ok;
      const ImVec2 a0(grid_min.x + w.bank * cw, grid_min.y + w.wavefront * row_h);
      const ImVec2 a1(a0.x + cw - 1, a0.y + row_h - 1);
      dl->AddRectFilled(a0, a1, u32(c));
      // The element in the word (for 4-byte elements, the index; else the word number).
      char lab[24];
      const uint64_t elem = a && a->elem_size ? ((w.word - base_word) * 4) / a->elem_size : w.word;
      std::snprintf(lab, sizeof lab, "%llu", static_cast<unsigned long long>(elem));
      centered_text(dl, a0, a1, ink_for(c), lab);
      const int nl = std::popcount(w.lanes);
      if (nl > 1) {  // multicast: a white corner mark
        dl->AddTriangleFilled(ImVec2(a1.x - row_h * 0.45f, a0.y), ImVec2(a1.x, a0.y), ImVec2(a1.x, a0.y + row_h * 0.45f),
                              u32(vc.selection));
      }
      for (uint32_t lm = w.lanes; lm; lm &= lm - 1) {
        const int l = std::countr_zero(lm);
        links.push_back({l, ImVec2((a0.x + a1.x) / 2, a0.y), conflict});
      }
      if (ImGui::IsMouseHoveringRect(a0, a1)) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "bank %u, pass %u%s\nword %llu (byte address %llu)\n%s%s[%llu]\nlanes:",
                      w.bank, w.wavefront + 1, conflict ? " (waited: bank conflict)" : "",
                      static_cast<unsigned long long>(w.word), static_cast<unsigned long long>(w.word * 4),
                      "", a ? a->name.c_str() : "?", static_cast<unsigned long long>(elem));
        hover_text = buf;
        for (uint32_t lm = w.lanes; lm; lm &= lm - 1) hover_text += " " + std::to_string(std::countr_zero(lm));
        if (nl > 1) hover_text += "\n(multicast: one word, " + std::to_string(nl) + " lanes, served together)";
      }
    }
    ImGui::Dummy(ImVec2(margin + 32 * cw, (grid_min.y - o.y) + rows * row_h + 0.3f * E));
  } else {
    // Global: 128-byte lines of four 32-byte sectors; eight lane widths per sector would be too
    // wide for many lines, so a line spans 8 columns (4 lines per row of the lane width).
    const auto masks = analysis::sector_byte_masks(m);
    const auto& sectors = m.global.sector_addresses;
    // Few lines: wide sectors right under the lanes (a coalesced load reads straight down).
    const int per_row = m.global.lines <= 1 ? 1 : m.global.lines <= 2 ? 2 : 4;
    const float line_w = 32 * cw / float(per_row);
    const float sw = line_w / 4;
    const float sh = row_h;
    const int max_rows = 8;
    const uint64_t first_line = m.global.line_addresses.empty() ? 0 : m.global.line_addresses.front();
    // Place lines in order of address: slot k = k-th distinct line.
    std::vector<uint64_t> lines = m.global.line_addresses;
    const int shown_lines = std::min<int>(int(lines.size()), per_row * max_rows);
    dl->AddText(ImVec2(o.x, mem_y), text_dim, "lines");
    for (int k = 0; k < shown_lines; ++k) {
      const float x0 = grid_min.x + (k % per_row) * line_w, y0 = grid_min.y + (k / per_row) * (sh + 0.4f * E);
      char lab[48];
      std::snprintf(lab, sizeof lab, "+%llu", static_cast<unsigned long long>(lines[size_t(k)] - first_line));
      if (k % per_row == 0) dl->AddText(ImVec2(o.x, y0 + (sh - ImGui::GetTextLineHeight()) / 2), text_dim, lab);
      for (int q = 0; q < 4; ++q)
        dl->AddRectFilled(ImVec2(x0 + q * sw, y0), ImVec2(x0 + (q + 1) * sw - 1, y0 + sh - 1), u32(vc.empty));
      dl->AddRect(ImVec2(x0, y0), ImVec2(x0 + 4 * sw - 1, y0 + sh - 1), text_dim);
    }
    for (size_t si = 0; si < sectors.size(); ++si) {
      const uint64_t line = sectors[si] / rules::kLineBytes * rules::kLineBytes;
      const int k = int(std::lower_bound(lines.begin(), lines.end(), line) - lines.begin());
      if (k >= shown_lines) continue;
      const int q = int((sectors[si] - line) / rules::kSectorBytes);
      const float x0 = grid_min.x + (k % per_row) * line_w + q * sw, y0 = grid_min.y + (k / per_row) * (sh + 0.4f * E);
      // Moved: the whole sector (outlined); used: its bytes, byte by byte.
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + sw - 1, y0 + sh - 1), u32(vc.global, 0.28f));
      for (int b = 0; b < 32; ++b)
        if ((masks[si] >> b) & 1u)
          dl->AddRectFilled(ImVec2(x0 + (sw - 1) * b / 32.0f, y0 + 2), ImVec2(x0 + (sw - 1) * (b + 1) / 32.0f, y0 + sh - 3),
                            u32(vc.global));
      ++st.sector_boxes;
      if (ImGui::IsMouseHoveringRect(ImVec2(x0, y0), ImVec2(x0 + sw, y0 + sh))) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "sector at byte %llu (line +%llu, sector %d of 4)\n%d of 32 bytes used, 32 moved",
                      static_cast<unsigned long long>(sectors[si]), static_cast<unsigned long long>(line - first_line), q + 1,
                      std::popcount(masks[si]));
        hover_text = buf;
      }
    }
    for (int l = 0; l < 32; ++l) {
      const int si = m.global.lane_sector[size_t(l)];
      if (si < 0) continue;
      const uint64_t sec = sectors[size_t(si)];
      const uint64_t line = sec / rules::kLineBytes * rules::kLineBytes;
      const int k = int(std::lower_bound(lines.begin(), lines.end(), line) - lines.begin());
      if (k >= shown_lines) continue;
      const int q = int((sec - line) / rules::kSectorBytes);
      const float off = float(m.lane_address[size_t(l)] - sec) + float(m.width) / 2;
      links.push_back({l, ImVec2(grid_min.x + (k % per_row) * line_w + q * sw + (sw - 1) * off / 32.0f,
                                 grid_min.y + (k / per_row) * (sh + 0.4f * E)),
                       false});
    }
    const int rows_used = std::max(1, (shown_lines + per_row - 1) / per_row);
    st.wavefront_rows = 0;
    ImGui::Dummy(ImVec2(margin + 32 * cw, (grid_min.y - o.y) + rows_used * (sh + 0.4f * E)));
    if (int(lines.size()) > shown_lines)
      ImGui::TextDisabled("... and %d more lines (the numbers above count them all)", int(lines.size()) - shown_lines);
  }

  // Links from lanes to what they touch (drawn last: over the gap, under nothing).
  for (const Link& k : links) {
    const ImVec2 from(lanes_min.x + k.lane * cw + (cw - 1) / 2, lanes_min.y + lane_h);
    const bool hl = hovered_lane == k.lane || s.sel.lane == k.lane;
    const ImVec4 c = shared ? (k.conflict ? vc.conflict : vc.ok) : vc.global;
    dl->AddLine(from, k.to, u32(c, hl ? 1.0f : 0.75f), hl ? 2.5f : 1.2f);
  }

  // Legend.
  if (shared) {
    swatch(vc.ok, "served in the first pass");
    ImGui::SameLine(0, E);
    swatch(vc.conflict, "waited: bank conflict");
    ImGui::SameLine(0, E);
    swatch(vc.inactive, "inactive lane");
    ImGui::TextDisabled("Numbers in cells: element index. White corner: several lanes read one word (multicast, free).");
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
