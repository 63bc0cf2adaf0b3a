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

// "reduce.cuh:51  sdata[index] += sdata[index + s];": where the instruction is and its line.
std::string site_text(const Trace& t, const Event& e) {
  const Site* site = e.site < t.sites.size() ? &t.sites[e.site] : nullptr;
  return site_label(t, e.site) + "  " + (site ? site->text : std::string());
}

constexpr const char* kSharedNote =
    "Numbers in cells: element index. White corner: several lanes read one word (multicast, free).";

// Numbers smaller than this (in font sizes) are not drawn in a panel (no one reads them); the
// picture says so and the tooltip has them. A picture for the wall (no controls) draws every
// number and label at the font's size or not at all: it never shrinks type for the room.
constexpr float kMinLabelEm = 0.375f;

// `px`: the layout's size for this kind of number (lanes and banks, or elements), one per picture;
// under `min_px` none is drawn. Returns whether it was drawn.
bool centered_text(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, const char* text, float px, float min_px) {
  ImFont* f = ImGui::GetFont();
  if (px < min_px) return false;
  const ImVec2 ts = f->CalcTextSizeA(px, FLT_MAX, 0, text);
  if (ts.x > (b.x - a.x) - 2 || ts.y > (b.y - a.y) + 2) return false;  // does not fit: the tooltip has it
  dl->AddText(f, px, ImVec2(std::floor((a.x + b.x - ts.x) / 2), std::floor((a.y + b.y - ts.y) / 2)), col, text);
  return true;
}

// Text that reads on a colored cell: black on light colors, white on dark ones.
ImU32 ink_for(ImVec4 c) { return (0.299f * c.x + 0.587f * c.y + 0.114f * c.z) > 0.55f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255); }

// Numbers not drawn for want of room, by kind: "lane numbers 10-31" in the view's left_out.
struct Dropped {
  int first = -1, last = -1, count = 0;
  void add(int v) {
    if (first < 0) first = v;
    last = v;
    ++count;
  }
  std::string said(const char* what) const {
    if (count == 0) return {};
    return std::string(what) + " " + (first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last)) +
           " (" + std::to_string(count) + ", no room at the slide's type size)";
  }
};

// The instruction the map shows, and its place among the warp's memory instructions.
struct Shown {
  const Event* e = nullptr;
  int index = 0, count = 0;
};

Shown find_shown(const Trace& t, int64_t ev) {
  Shown out;
  out.e = &t.events[size_t(ev)];
  auto [first, last] = analysis::block_events(t, out.e->block);
  for (size_t i = first; i < last; ++i) {
    const Event& x = t.events[i];
    if (x.warp != out.e->warp || x.type != EventType::Access) continue;
    if (int64_t(i) < ev) ++out.index;
    ++out.count;
  }
  return out;
}

const char* legend_text(bool shared) {
  return shared ? "served in the first pass  waited: bank conflict  inactive lane"
                : "bytes used  moved, not used (32-byte sectors)  inactive lane";
}

}  // namespace

// The lines of words above the picture: the source line, what the instruction is, what it costs,
// the racing pair it belongs to, and notes.
void AccessMapView::draw_words(Session& s, const Trace& t, int64_t ev, const AccessMapCaption& cap, int index, int count) {
  const Event& e = t.events[size_t(ev)];
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  if (controls)
    ImGui::TextWrapped("%s", cap.what.c_str());
  else  // the pickers say where this is; without them, one line does
    ImGui::TextWrapped("%s; block %u, warp %u, instruction %d of %d", cap.what.c_str(), e.block, e.warp, index + 1, count);
  ImGui::PushStyleColor(ImGuiCol_Text, cap.costly ? vc.conflict : vc.text);
  ImGui::TextWrapped("%s", cap.numbers.c_str());
  ImGui::PopStyleColor();
  // Half of the racing pair the lab showed: its lane is outlined below, the pair said here.
  const Session::HazardPair& hp = s.hazard_pair;
  pair_lane = -1;
  if (hp.valid() && hp.launch == s.sel.launch && (hp.first_event == ev || hp.second_event == ev)) {
    pair_lane = hp.first_event == ev ? int(hp.first_lane) : int(hp.second_lane);
    ImGui::PushStyleColor(ImGuiCol_Text, vc.conflict);
    ImGui::TextWrapped("%s access of the pair: %s", hp.first_event == ev ? "first" : "second", hp.sentence.c_str());
    ImGui::PopStyleColor();
  }
  for (const AccessMapCaption::Note& note : cap.notes) {
    ImGui::PushStyleColor(ImGuiCol_Text, note.costly ? vc.conflict : vc.text_dim);
    ImGui::TextWrapped("%s", note.text.c_str());
    ImGui::PopStyleColor();
  }
}

// The picture's size at the font in use: the words above it (wrapped at the width two-digit lane
// numbers need in 32 columns), the lanes, the memory, the legend. `least`: with the wavefront rows
// as thin as a wall allows (labels thinned, numbers hidden) instead of as tall as the type.
ImVec2 AccessMapView::slide_size(Session& s, bool least) {
  if (controls || !s.trace()) return ImVec2(0, 0);
  const Trace& t = *s.trace();
  const int64_t ev = s.sel.event;
  if (ev < 0 || size_t(ev) >= t.events.size() || t.events[size_t(ev)].type != EventType::Access) return ImVec2(0, 0);
  const Event& e = t.events[size_t(ev)];
  const float E = em();
  const float column = std::ceil(ImGui::CalcTextSize("31").x + 0.25f * E);
  const float width = std::floor(4.2f * E) + 32 * column + 2;
  const analysis::InstructionMetrics m = analysis::metrics_of(t, e);
  const Allocation* a = e.alloc < t.allocations.size() ? &t.allocations[e.alloc] : nullptr;
  const AccessMapCaption cap = access_map_caption(m, e, a);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  auto lines = [&](const std::string& text, ImFont* f = nullptr) {
    const float h = (f ? f : ImGui::GetFont())->CalcTextSizeA(E, FLT_MAX, width, text.c_str()).y;
    return std::max(1.0f, std::round(h / ImGui::GetTextLineHeight()));
  };
  float words = lines(site_text(t, e), ws::viz::mono_font()) + lines(cap.what + "; block 0, warp 0, instruction 10 of 10") +
                lines(cap.numbers);
  for (const auto& n : cap.notes) words += lines(n.text);
  const float legend = (lines(legend_text(e.space == MemSpace::Shared)) + 1) * line + 1.2f * E;
  float picture = access_map_layout(m, e, a, width, E, ImGui::CalcTextSize("999").x).height;
  // (a few rows keep the type's height, their numbers in them; many rows go thin)
  const float rows = float(m.shared.wavefronts);
  if (least && e.space == MemSpace::Shared && rows > 4)
    picture = std::floor(1.3f * E) + std::floor(1.0f * E) + std::floor(1.15f * E) + 0.3f * E +
              std::max(rows * std::max(2.0f, std::floor(0.15f * E)), 4 * std::floor(1.5f * E));
  // (global: rows of lines as low as half the type)
  const float line_rows = float(std::max(1, std::min(8, (int(m.global.lines) + 3) / 4)));
  if (least && e.space == MemSpace::Global && line_rows > 1)
    picture = std::floor(1.3f * E) + std::floor(1.0f * E) + std::floor(1.15f * E) + line_rows * (std::floor(0.5f * E) + 0.4f * E);
  return ImVec2(width, (words + 0.5f) * line + 0.3f * E + picture + legend);  // (half a line: the code font's lines)
}

ImVec2 AccessMapView::natural_size(Session& s) { return slide_size(s, false); }
ImVec2 AccessMapView::least_size(Session& s) { return slide_size(s, true); }

void AccessMapView::draw(Session& s) {
  wavefront_rows = 0;
  sector_boxes = 0;
  left_out.clear();
  if (!view_ready(s, "the access map shows one warp instruction at a time.", !controls)) return;
  const Trace& t = *s.trace();
  if (controls) selection_bar(s, true);
  int64_t ev = s.sel.event;
  if (ev < 0 || size_t(ev) >= t.events.size()) {
    ImGui::TextDisabled("No instruction selected: click a cell in the bank heatmap or the timeline, or pick a warp.");
    return;
  }
  // Arrow keys step through the warp's memory instructions (when this panel has focus; never in a
  // lesson, where the arrows move between steps and ',' '.' step the instruction).
  if (controls && !in_lesson && ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) {
    int dir = 0;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) dir = 1;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) dir = -1;
    if (dir && s.step_instruction(dir)) ev = s.sel.event;
  }
  const Shown shown = find_shown(t, ev);
  const Event& e = *shown.e;
  event = ev;
  if (controls) {
    ImGui::SameLine();
    if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) s.step_instruction(-1);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) s.step_instruction(+1);
    ImGui::SameLine();
    ImGui::Text("instruction %d of %d", shown.index + 1, shown.count);
  }
  // Header: the source line and the instruction's numbers.
  ImGui::PushFont(ws::viz::mono_font());
  ImGui::TextWrapped("%s", site_text(t, e).c_str());
  ImGui::PopFont();
  if (e.type != EventType::Access) {
    ImGui::TextWrapped("%s (mask %08x, %d lanes): not a memory instruction. Use the arrows to step to one.",
                       to_string(e.type), e.mask, std::popcount(e.mask));
    return;
  }
  const analysis::InstructionMetrics m = analysis::metrics_of(t, e);
  const Allocation* a = e.alloc < t.allocations.size() ? &t.allocations[e.alloc] : nullptr;
  shared = e.space == MemSpace::Shared;
  draw_words(s, t, ev, access_map_caption(m, e, a), shown.index, shown.count);
  draw_picture(s, t, m, e, a);
}

// The lanes, the memory as the hardware serves it, the links, the legend; hover and click.
void AccessMapView::draw_picture(Session& s, const Trace& t, const analysis::InstructionMetrics& m, const Event& e,
                                 const Allocation* a) {
  const float E = em();
  // The picture fits the room left under the text and the legend below it: its swatches wrap,
  // and (shared memory) a note under them.
  const float room_w = std::max(ImGui::GetContentRegionAvail().x, E);
  const float min_label_px = controls ? kMinLabelEm * E : E;
  const char* wall_note = "element numbers left out: the cells are too narrow here";
  auto lay_out = [&](bool hidden_note) {
    const float note_w = !shared ? 0.0f
                         : controls ? ImGui::CalcTextSize(kSharedNote).x
                         : hidden_note ? ImGui::CalcTextSize(wall_note).x
                                       : 0.0f;
    const float legend_lines = std::ceil((ImGui::CalcTextSize(legend_text(shared)).x + 4 * E) / room_w) + std::ceil(note_w / room_w);
    const float legend_h = legend_lines * ImGui::GetTextLineHeightWithSpacing() + 1.2f * E;
    return std::pair{access_map_layout(m, e, a, ImGui::GetContentRegionAvail().x, E, ImGui::CalcTextSize("999").x,
                                       std::max(ImGui::GetContentRegionAvail().y - legend_h - 0.3f * E, 0.0f), controls ? 0.45f : 0.05f,
                                       int(common_extent)),
                     legend_h};
  };
  // Compared with another launch, both global maps draw as many lines across (a byte as wide on
  // both sides: the frame passes the larger in common_extent).
  extent = shared ? 0.0f : float(global_lines_per_row(m.global.lines));
  auto [L, legend_h] = lay_out(false);
  const bool elements_hidden = !L.cells.empty() && L.label_px < min_label_px;
  if (!controls && shared && elements_hidden) std::tie(L, legend_h) = lay_out(true);
  ImVec2 o = ImGui::GetCursorScreenPos();
  o.x = std::floor(o.x);
  o.y = std::floor(o.y + 0.3f * E);
  lanes_min = ImVec2(o.x + L.lanes[0].box.x0, o.y + L.lanes[0].box.y0);
  cell_w = L.cell_w;
  row_h = L.row_h;
  line_w = shared ? 0.0f : 32 * L.cell_w / float(L.lines_per_row);
  label_px = L.label_px >= min_label_px ? L.label_px : 0.0f;  // as drawn (0: left out)
  lane_label_px = L.lane_label_px >= min_label_px ? L.lane_label_px : 0.0f;
  grid_min = ImVec2(o.x + L.margin, o.y + L.grid_y);
  wavefront_rows = L.rows;
  sector_boxes = int(L.sectors.size());

  const Painter paint{ImGui::GetWindowDrawList(), o, min_label_px};
  paint_row_labels(paint, L);
  const int hovered_lane = paint_lanes(paint, s, L, e);
  std::string hover_text = shared ? paint_shared(paint, L, a) : paint_global(paint, L, m);
  ImGui::Dummy(ImVec2(L.width, L.height + 0.3f * E));  // (the picture starts 0.3 em down)
  if (!shared && L.lines_total > L.lines_drawn)
    ImGui::TextDisabled("... and %d more lines (the numbers above count them all)", L.lines_total - L.lines_drawn);
  paint_links(paint, s, L, hovered_lane);
  draw_legend(elements_hidden, wall_note);
  if (hovered_lane >= 0)
    lane_tooltip(s, t, m, e, a, hovered_lane);
  else if (!hover_text.empty())
    ImGui::SetTooltip("%s", hover_text.c_str());
}

// "pass 2", "lanes", "+128" at the left margin, no taller than their row; on a slide a label
// that would be smaller than the type is left out (and said).
void AccessMapView::paint_row_labels(const Painter& p, const AccessMapLayout& L) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  for (const AccessMapLayout::Label& lab : L.labels) {
    const float px = std::min(E, std::max(lab.h, 1.0f));
    if (px < p.min_label_px) {
      left_out.push_back("the row label '" + lab.text + "' (its row is " + std::to_string(int(lab.h)) + " px tall)");
      continue;
    }
    p.dl->AddText(ImGui::GetFont(), px, ImVec2(p.o.x + lab.x, p.o.y + lab.y + (lab.h - px) / 2),
                  u32(lab.dim ? vc.text_dim : vc.text), lab.text.c_str());
  }
  if (L.row_labels_skipped > 0)
    left_out.push_back("the labels of " + std::to_string(L.row_labels_skipped) + " of " + std::to_string(L.rows) +
                       " passes (rows thinner than the type: every few rows are labelled)");
}

// The 32 lanes: active, inactive, past the block; the selected one and a racing pair's outlined.
// Returns the lane under the mouse, or -1.
int AccessMapView::paint_lanes(const Painter& p, Session& s, const AccessMapLayout& L, const Event& e) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  int hovered_lane = -1;
  Dropped dropped;
  for (int l = 0; l < 32; ++l) {
    const AccessMapLayout::Lane& lane = L.lanes[size_t(l)];
    const ImVec4 c = !lane.live ? vc.empty : lane.active ? vc.active : vc.inactive;
    const ImVec2 a0 = p.at(lane.box.x0, lane.box.y0), a1 = p.at(lane.box.x1, lane.box.y1);
    p.dl->AddRectFilled(a0, a1, u32(c));
    if (s.sel.lane == l) p.dl->AddRect(a0, a1, u32(vc.selection), 0, 0, 2.0f);
    if (pair_lane == l)
      p.dl->AddRect(ImVec2(a0.x - 2, a0.y - 2), ImVec2(a1.x + 2, a1.y + 2), u32(vc.conflict), 0, 0, 3.0f);
    char num[8];
    std::snprintf(num, sizeof num, "%d", l);
    if (!centered_text(p.dl, a0, a1, lane.active ? ink_for(c) : u32(vc.text_dim), num, L.lane_label_px, p.min_label_px))
      dropped.add(l);
    if (ImGui::IsMouseHoveringRect(a0, ImVec2(a1.x + 1, a1.y + 1))) hovered_lane = l;
  }
  if (dropped.count) left_out.push_back(dropped.said("lane numbers"));
  (void)e;
  return hovered_lane;
}

// Shared memory: bank numbers, the empty grid, each word served in its pass with its element.
// Returns the hovered cell's tooltip, or "".
std::string AccessMapView::paint_shared(const Painter& p, const AccessMapLayout& L, const Allocation* a) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  Dropped banks, elements;
  for (int b = 0; b < int(L.bank_headers.size()); ++b) {
    char num[12];
    std::snprintf(num, sizeof num, "%d", b);
    const auto& h = L.bank_headers[size_t(b)];
    if (!centered_text(p.dl, p.at(h.x0, h.y0), p.at(h.x1, h.y1), u32(vc.text_dim), num, L.lane_label_px, p.min_label_px))
      banks.add(b);
  }
  for (const AccessMapLayout::Box& b : L.empty_cells) p.dl->AddRectFilled(p.at(b.x0, b.y0), p.at(b.x1, b.y1), u32(vc.empty));
  std::string hover_text;
  for (const AccessMapLayout::Cell& c : L.cells) {
    const ImVec4 col = c.conflict ? vc.conflict : vc.ok;
    const ImVec2 a0 = p.at(c.box.x0, c.box.y0), a1 = p.at(c.box.x1, c.box.y1);
    p.dl->AddRectFilled(a0, a1, u32(col));
    char lab[24];
    std::snprintf(lab, sizeof lab, "%llu", static_cast<unsigned long long>(c.element));
    if (!centered_text(p.dl, a0, a1, ink_for(col), lab, L.label_px, p.min_label_px)) elements.add(int(c.element));
    if (c.multicast)  // several lanes on one word: a white corner mark
      p.dl->AddTriangleFilled(ImVec2(a1.x - L.row_h * 0.45f, a0.y), ImVec2(a1.x, a0.y), ImVec2(a1.x, a0.y + L.row_h * 0.45f),
                              u32(vc.selection));
    if (!ImGui::IsMouseHoveringRect(a0, ImVec2(a1.x + 1, a1.y + 1))) continue;
    const rules::SharedWord& w = c.word;
    char buf[256];
    std::snprintf(buf, sizeof buf, "bank %u, pass %u%s\nword %llu (byte address %llu)\n%s[%llu]\nlanes:", w.bank,
                  w.wavefront + 1, c.conflict ? " (waited: bank conflict)" : "", static_cast<unsigned long long>(w.word),
                  static_cast<unsigned long long>(w.word * 4), a ? a->name.c_str() : "?",
                  static_cast<unsigned long long>(c.element));
    hover_text = buf;
    for (uint32_t lm = w.lanes; lm; lm &= lm - 1) hover_text += " " + std::to_string(std::countr_zero(lm));
    if (c.multicast) hover_text += "\n(multicast: one word, " + std::to_string(std::popcount(w.lanes)) + " lanes, served together)";
  }
  if (banks.count) left_out.push_back(banks.said("bank numbers"));
  if (elements.count) left_out.push_back(std::to_string(elements.count) + " element numbers (the cells are too narrow)");
  return hover_text;
}

// Global memory: each drawn line's four sectors, moved (shaded) and the bytes used (filled).
// Returns the hovered sector's tooltip, or "".
std::string AccessMapView::paint_global(const Painter& p, const AccessMapLayout& L, const analysis::InstructionMetrics& m) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const uint64_t first_line = m.global.line_addresses.empty() ? 0 : m.global.line_addresses.front();
  for (const AccessMapLayout::Box& b : L.line_boxes) {
    const float sw = (b.x1 + 1 - b.x0) / 4;
    for (int q = 0; q < 4; ++q)
      p.dl->AddRectFilled(p.at(b.x0 + q * sw, b.y0), p.at(b.x0 + (q + 1) * sw - 1, b.y1), u32(vc.empty));
    p.dl->AddRect(p.at(b.x0, b.y0), p.at(b.x1, b.y1), u32(vc.text_dim));
  }
  std::string hover_text;
  for (const AccessMapLayout::Sector& sec : L.sectors) {
    const ImVec2 a0 = p.at(sec.box.x0, sec.box.y0), a1 = p.at(sec.box.x1, sec.box.y1);
    p.dl->AddRectFilled(a0, a1, u32(vc.global, 0.28f));
    const float sw = a1.x + 1 - a0.x;
    for (int b = 0; b < 32; ++b)
      if ((sec.used >> b) & 1u)
        p.dl->AddRectFilled(ImVec2(a0.x + (sw - 1) * b / 32.0f, a0.y + 2), ImVec2(a0.x + (sw - 1) * (b + 1) / 32.0f, a1.y - 2),
                            u32(vc.global));
    if (!ImGui::IsMouseHoveringRect(a0, ImVec2(a1.x + 1, a1.y + 1))) continue;
    const uint64_t line = m.global.line_addresses[size_t(sec.line)];
    char buf[200];
    std::snprintf(buf, sizeof buf, "sector at byte %llu (line +%llu, sector %d of 4)\n%d of 32 bytes used, 32 moved",
                  static_cast<unsigned long long>(sec.address), static_cast<unsigned long long>(line - first_line),
                  sec.quarter + 1, std::popcount(sec.used));
    hover_text = buf;
  }
  return hover_text;
}

// Links from lanes to what they touch (drawn last: over the gap, under nothing), and where an
// atomic's lanes queue on one address, how many.
void AccessMapView::paint_links(const Painter& p, Session& s, const AccessMapLayout& L, int hovered_lane) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  for (const AccessMapLayout::Link& k : L.links) {
    const bool hl = hovered_lane == k.lane || s.sel.lane == k.lane;
    const ImVec4 c = shared ? (k.conflict ? vc.conflict : vc.ok) : k.conflict ? vc.conflict : vc.global;
    // (thicker with the type: a zoomed slide's links stay as visible as its cells)
    const float w = std::max(1.2f, E / 16.0f) * (hl ? 2.0f : 1.0f);
    p.dl->AddLine(p.at(k.x0, k.y0), p.at(k.x1, k.y1), u32(c, hl ? 1.0f : 0.75f), w);
  }
  for (const AccessMapLayout::Collision& c : L.collisions) {
    char txt[16];
    std::snprintf(txt, sizeof txt, "x%u", c.lanes);
    const ImVec2 ts = ImGui::CalcTextSize(txt);
    // (kept right of the row labels: an address at a line's first byte would put it over them)
    const ImVec2 at(std::round(std::max(p.o.x + c.x - ts.x / 2, p.o.x + L.margin + 0.25f * E)),
                    std::round(p.o.y + c.y + (L.row_h - ts.y) / 2));
    p.dl->AddRectFilled(ImVec2(at.x - 0.2f * E, at.y), ImVec2(at.x + ts.x + 0.2f * E, at.y + ts.y), u32(vc.background, 0.85f), 0.2f * E);
    p.dl->AddText(at, u32(vc.conflict), txt);
  }
}

void AccessMapView::draw_legend(bool elements_hidden, const char* wall_note) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  if (shared) {
    swatch(vc.ok, "served in the first pass");
    ImGui::SameLine(0, E);
    swatch(vc.conflict, "waited: bank conflict");
    ImGui::SameLine(0, E);
    swatch(vc.inactive, "inactive lane");
    ImGui::PushTextWrapPos(0);
    if (controls && elements_hidden) ImGui::TextDisabled("Element numbers hidden (cells too narrow): hover a cell.");
    else if (controls) ImGui::TextDisabled("%s", kSharedNote);  // (a lesson's caption says what matters)
    else if (elements_hidden) ImGui::TextDisabled("%s", wall_note);
    ImGui::PopTextWrapPos();
  } else {
    swatch(vc.global, "bytes used");
    ImGui::SameLine(0, E);
    swatch(ImVec4(vc.global.x, vc.global.y, vc.global.z, 0.28f), "moved, not used (32-byte sectors)");
    ImGui::SameLine(0, E);
    swatch(vc.inactive, "inactive lane");
  }
}

// The lane under the mouse: its thread, its element and address; a click selects it.
void AccessMapView::lane_tooltip(Session& s, const Trace& t, const analysis::InstructionMetrics& m, const Event& e,
                                 const Allocation* a, int lane) {
  const Dim3 th = t.thread_index(e.warp, uint32_t(lane));
  char buf[256];
  const bool active = (e.mask >> lane) & 1u;
  int n = std::snprintf(buf, sizeof buf, "lane %d of warp %u: threadIdx (%u,%u,%u)%s", lane, e.warp, th.x, th.y, th.z,
                        active ? "" : "\ninactive in this instruction");
  if (active && a && n > 0) {
    // The lane's offset: its rank among the active lanes.
    const int rank = std::popcount(e.mask & ((1u << lane) - 1u));
    auto lanes = t.lanes(e);
    if (size_t(rank) < lanes.size())
      std::snprintf(buf + n, sizeof buf - size_t(n), "\n%s, byte address %llu", element_name(*a, lanes[size_t(rank)]).c_str(),
                    static_cast<unsigned long long>(m.lane_address[size_t(lane)]));
  }
  ImGui::SetTooltip("%s", buf);
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    s.sel.lane = s.sel.lane == lane ? -1 : lane;
    ++s.sel_version;
  }
}

}  // namespace ws::app
