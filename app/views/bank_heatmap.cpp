// Bank-conflict heatmap: 32 bank columns x shared-memory warp instructions (rows, in issue
// order) for one warp or one block; or, for the whole launch, one row per source site summed over
// every recorded block. Color = distinct 4-byte words the bank served (1 = conflict free, n = the
// bank needed n passes if they were in one phase). Drawn by the heatmap shader through a Canvas.
#include "views/bank_heatmap.h"
#include "views/view_common.h"

#include "ws/analysis/views.h"

#include "ws/viz/colormap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ws::app {

const ViewOption BankHeatmapView::kOptions[2] = {
    {"scope", "warp|block|launch", "rows: the selected warp's shared instructions, its block's, or one per site",
     [](const View& v) { return int(static_cast<const BankHeatmapView&>(v).scope); },
     [](View& v, int k) { static_cast<BankHeatmapView&>(v).scope = BankScope(k); }},
    kControlsOption};

// On a slide: the bank numbers over 32 columns that hold two digits, the rows (an instruction or a
// site each) as tall as the type, or (least) a third of it, the legend, the per-site table beside.
ImVec2 BankHeatmapView::slide_size(Session& s, float row_em) {
  if (controls || !s.trace()) return ImVec2(0, 0);
  const float E = em(), line = ImGui::GetTextLineHeightWithSpacing();
  const float column = std::ceil(ImGui::CalcTextSize("31").x + 0.25f * E);
  const float rows = float(std::clamp<size_t>(rows_shown(s), 1, 48));
  return ImVec2(std::floor(3.2f * E) + 32 * column + 23 * E, 2 * line + rows * row_em * E + 4.4f * line);
}

ImVec2 BankHeatmapView::natural_size(Session& s) { return slide_size(s, 1.3f); }
ImVec2 BankHeatmapView::least_size(Session& s) { return slide_size(s, 0.15f); }

// How many rows the scope has (instructions of the warp or block, or shared sites).
size_t BankHeatmapView::rows_shown(Session& s) {
  const Trace& t = *s.trace();
  if (scope == BankScope::Launch) {
    size_t n = 0;
    if (const analysis::Report* rep = s.report())
      for (const auto& m : rep->sites) n += m.space == MemSpace::Shared && m.instructions;
    return n;
  }
  size_t n = 0;
  auto [first, last] = analysis::block_events(t, s.sel.block);
  for (size_t i = first; i < last; ++i) {
    const Event& e = t.events[i];
    n += e.type == EventType::Access && e.space == MemSpace::Shared && (scope != BankScope::Warp || e.warp == s.sel.warp);
  }
  return n;
}

// The header: the scope chooser with controls, else one line that says what is shown.
void BankHeatmapView::draw_header(Session& s) {
  const char* scopes[] = {"one warp", "one block", "launch (per site)"};
  if (controls) {
    selection_bar(s, scope == BankScope::Warp);
    ImGui::SameLine();
    int choice = int(scope);
    ImGui::SetNextItemWidth(7 * em());
    if (ImGui::Combo("##scope", &choice, scopes, 3)) scope = BankScope(choice);
  } else {
    ImGui::TextDisabled("%s: block %u%s", scopes[int(scope)], s.sel.block,
                        scope == BankScope::Warp ? (", warp " + std::to_string(s.sel.warp)).c_str() : "");
  }
}

// The shared-memory sites the launch executed (the rows of the launch scope and of the table).
std::vector<BankHeatmapView::SiteRow> BankHeatmapView::shared_sites(const analysis::Report* rep) {
  std::vector<SiteRow> out;
  if (rep)
    for (const auto& m : rep->sites)
      if (m.space == MemSpace::Shared && m.instructions) out.push_back({m.site, &m});
  return out;
}

// The rows for the scope and their heatmap values, recomputed when the run, scope or selection
// changes.
void BankHeatmapView::compute(Session& s, const std::vector<SiteRow>& sites) {
  uint64_t key = ws::viz::hash_mix(ws::viz::kHashSeed, s.data()->generation);
  key = ws::viz::hash_mix(key, uint64_t(scope));
  key = ws::viz::hash_mix(key, s.sel.launch);
  key = ws::viz::hash_mix(key, s.sel.block);
  key = ws::viz::hash_mix(key, scope == BankScope::Warp ? s.sel.warp : 0);
  if (key == cache_key) return;
  cache_key = key;
  rows.clear();
  if (scope == BankScope::Launch) {
    analysis::BankRow b;
    b.event = ~0ull;
    b.words.fill(0);
    rows.assign(sites.size(), b);
  } else {
    analysis::EventFilter f;
    f.block = s.sel.block;
    if (scope == BankScope::Warp) f.warp = s.sel.warp;
    rows = analysis::bank_rows(*s.trace(), f);
  }
  map = ws::viz::Heatmap{};
  map.cols = 32;
  map.rows = int(rows.size());
  map.values.assign(rows.size() * 32, NAN);
  float top = 2;
  for (size_t r = 0; r < rows.size(); ++r)
    for (int b = 0; b < 32; ++b) {
      const float v = scope == BankScope::Launch ? float(sites[r].m->bank_words[size_t(b)]) : float(rows[r].words[size_t(b)]);
      if (v > 0) map.values[r * 32 + size_t(b)] = v;
      top = std::max(top, v);
    }
  vmax = top;
  map.vmin = 1;
  map.vmax = top;
}

// Where everything goes: the heatmap on the left, the per-site table beside it (under it when
// the panel is narrow); under the rows "rows a-b of N", the legend and, as a picture, the table
// rows that fit.
BankHeatmapView::Layout BankHeatmapView::plan(Session& s, const std::vector<SiteRow>& sites) {
  Layout L;
  const float E = em();
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  L.avail_h = avail.y;
  L.side = avail.x > 36 * E;
  L.table_w = L.side ? std::min(22 * E, avail.x * 0.45f) : avail.x;
  L.label_w = std::floor(3.2f * E);
  L.map_w = (L.side ? avail.x - L.table_w - E : avail.x) - L.label_w;
  L.cell_w = std::max(std::floor(L.map_w / 32), 3.0f);
  L.caption = scope == BankScope::Launch ? "words served, summed over the site's instructions"
                                         : "distinct words served by the bank (1 = no conflict)";
  // (viridis_legend: a strip and its ticks 2.1 lines tall, the caption beside it where it fits,
  // else under it)
  const float legend_room = L.side ? L.label_w + L.map_w : avail.x, strip_w = std::min(legend_room, 16 * E);
  const float caption_w = ImGui::CalcTextSize(L.caption).x;
  const bool caption_beside = legend_room > strip_w + caption_w + E;
  const float legend_h = 2.1f * ImGui::GetTextLineHeight() + style.ItemSpacing.y +
                         (caption_beside ? 0.0f : std::ceil(caption_w / std::max(legend_room, E)) * ImGui::GetTextLineHeightWithSpacing());
  // The table: beside the heatmap it has the whole height; under it, with controls, 8 lines (it
  // scrolls with the panel); as a picture, what its rows need, at most 45% of the height.
  if (const analysis::Report* rep = s.report()) {
    uint64_t conflicts = 0, wavefronts = 0;
    for (const auto& c : rep->totals.shared) conflicts += c.conflicts, wavefronts += c.wavefronts;
    L.total_text = "Launch total (recorded blocks): " + std::to_string(conflicts) + " bank conflicts in " +
                   std::to_string(wavefronts) + " wavefronts.";
  }
  L.table_row_h = ImGui::GetTextLineHeightWithSpacing() + 2 * style.CellPadding.y;
  L.total_h = L.total_text.empty() ? 0 : ImGui::CalcTextSize(L.total_text.c_str(), nullptr, false, L.table_w).y + style.ItemSpacing.y;
  L.table_needed = float(sites.size() + 1) * L.table_row_h + L.total_h + 2 * style.ItemSpacing.y;
  const float table_h = L.side ? avail.y : controls ? 8 * E : std::min(L.table_needed, 0.45f * avail.y);
  const float map_h_avail = std::max(avail.y - (ImGui::GetTextLineHeight() + 2) - legend_h -
                                         ImGui::GetTextLineHeightWithSpacing() - (L.side ? 0 : table_h),
                                     (controls ? 6 : 3) * E);
  // On a slide the rows grow into the room, up to 3 em (a few instructions fill their box); whole
  // pixels where rows are tall enough for grid lines; below that rows may share a pixel, and the
  // picture still fills its room.
  L.cell_h = std::clamp(map_h_avail / float(rows.size()), 0.1f * E, (controls ? 1.3f : 3.0f) * E);
  if (L.cell_h >= 6) L.cell_h = std::floor(L.cell_h);
  L.visible = std::min(int(rows.size()), std::max(1, int(map_h_avail / L.cell_h)));
  return L;
}

// Scrolls so the selected instruction's row is visible; returns that row (-1: none).
int BankHeatmapView::follow_selection(Session& s, int visible) {
  const int n = int(rows.size());
  int sel_row = -1;
  for (int r = 0; r < n; ++r)
    if (int64_t(rows[size_t(r)].event) == s.sel.event) sel_row = r;
  first_row = std::clamp(first_row, 0, std::max(0, n - visible));
  if (sel_row >= 0 && (sel_row < first_row || sel_row >= first_row + visible))
    first_row = std::clamp(sel_row - visible / 2, 0, std::max(0, n - visible));
  return sel_row;
}

// The bank numbers over the columns, "bank" over the row labels; returns the grid's top left.
ImVec2 BankHeatmapView::draw_bank_numbers(const Layout& L) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 o = ImGui::GetCursorScreenPos();
  o = ImVec2(std::floor(o.x), std::floor(o.y));
  const float two_digits = ImGui::CalcTextSize("31").x;
  const int every = L.cell_w * 2 >= two_digits + 4 ? (L.cell_w >= two_digits + 2 ? 1 : 2) : 4;
  const ImU32 col = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  for (int b = 0; b < 32; b += every) {
    char num[8];
    std::snprintf(num, sizeof num, "%d", b);
    const float tw = ImGui::CalcTextSize(num).x;
    dl->AddText(ImVec2(o.x + L.label_w + b * L.cell_w + (L.cell_w - tw) / 2, o.y), col, num);
  }
  dl->AddText(o, col, "bank");
  return ImVec2(o.x + L.label_w, o.y + ImGui::GetTextLineHeight() + 2);
}

// The visible rows through the heatmap shader (a 100k-row launch scrolls; the texture holds what
// is seen), their labels (instruction numbers, or the site's line in launch scope) and the
// selected row's frame. Returns whether the picture is hovered.
bool BankHeatmapView::draw_rows(Session& s, const std::vector<SiteRow>& sites, const Layout& L, int sel_row) {
  const Trace& t = *s.trace();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  ws::viz::Heatmap view;
  view.cols = 32;
  view.rows = L.visible;
  scale_top = map.vmax;
  const float top = std::max(map.vmax, common_scale_top);
  view.vmin = map.vmin;
  view.vmax = top;
  view.values.assign(map.values.begin() + ptrdiff_t(first_row) * 32, map.values.begin() + ptrdiff_t(first_row + L.visible) * 32);
  view.line = L.cell_w >= 6 ? 1.0f / L.cell_w : 0.0f;
  ImGui::SetCursorScreenPos(grid_min);
  uint64_t ck = ws::viz::hash_mix(cache_key, uint64_t(first_row));
  ck = ws::viz::hash_mix(ck, uint64_t(L.visible));
  ck = ws::viz::hash_mix(ck, uint64_t(top * 16));
  ck = ws::viz::hash_mix(ck, uint64_t(ImGui::GetStyle().Colors[ImGuiCol_WindowBg].x * 1000));
  std::string err;
  const ImVec4 empty = vc.empty;
  if (!canvas.show(ImVec2(32 * L.cell_w, L.visible * L.cell_h), ck, [&](std::string& e) { return renderer.draw(view, empty, e); }, err))
    ImGui::TextColored(vc.conflict, "cannot draw the heatmap: %s", err.c_str());
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float th = ImGui::GetTextLineHeight();
  const int label_every = std::max(1, int(std::ceil(th / L.cell_h)));
  for (int r = 0; r < L.visible; r += label_every) {
    const int row = first_row + r;
    const std::string lab = scope == BankScope::Launch ? ":" + std::to_string(t.sites[sites[size_t(row)].site].line)  // only the line fits
                                                       : std::to_string(row + 1);
    const float tw = ImGui::CalcTextSize(lab.c_str()).x;
    dl->AddText(ImVec2(grid_min.x - tw - 4, grid_min.y + r * L.cell_h + (L.cell_h - th) / 2), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                lab.c_str());
  }
  if (sel_row >= first_row && sel_row < first_row + L.visible) {
    const float y = grid_min.y + (sel_row - first_row) * L.cell_h;
    dl->AddRect(ImVec2(grid_min.x - 1, y - 1), ImVec2(grid_min.x + 32 * L.cell_w + 1, y + L.cell_h + 1),
                ImGui::ColorConvertFloat4ToU32(vc.selection), 0, 0, 2.0f);
  }
  return hovered;
}

// The hovered cell's tooltip (and a click selects its instruction); the wheel scrolls the rows.
void BankHeatmapView::hover(Session& s, const std::vector<SiteRow>& sites, const Layout& L) {
  const Trace& t = *s.trace();
  const int n = int(rows.size());
  const ImVec2 mp = ImGui::GetIO().MousePos;
  const int b = std::clamp(int((mp.x - grid_min.x) / L.cell_w), 0, 31);
  const int row = std::clamp(first_row + int((mp.y - grid_min.y) / L.cell_h), 0, n - 1);
  const float v = map.values[size_t(row) * 32 + size_t(b)];
  if (scope == BankScope::Launch) {
    const auto& m = *sites[size_t(row)].m;
    wrapped_tooltip("bank %d, %s\n%s\n%s %s: %g words over %llu instructions\n%llu conflicts, worst %u-way", b,
                    site_label(t, m.site).c_str(), t.sites[m.site].text.c_str(), to_string(m.kind),
                    m.alloc < t.allocations.size() ? t.allocations[m.alloc].name.c_str() : "?", std::isnan(v) ? 0.0 : double(v),
                    static_cast<unsigned long long>(m.instructions), static_cast<unsigned long long>(m.conflicts), m.max_ways);
  } else {
    const analysis::BankRow& r = rows[size_t(row)];
    const Event& e = t.events[size_t(r.event)];
    wrapped_tooltip("bank %d, instruction %d (warp %u, step %u)\n%s  %s\n%s: %d distinct word%s (%d in one phase)\n"
                    "instruction: %u wavefronts, %u conflicts\nclick: show it in the access map",
                    b, row + 1, e.warp, e.step, site_label(t, e.site).c_str(), t.sites[e.site].text.c_str(), to_string(e.kind),
                    std::isnan(v) ? 0 : int(v), (std::isnan(v) || v != 1) ? "s" : "", int(r.ways[size_t(b)]), r.wavefronts, r.conflicts);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) s.select_event(int64_t(r.event));
  }
  if (ImGui::GetIO().MouseWheel != 0 && n > L.visible)
    first_row = std::clamp(first_row - int(ImGui::GetIO().MouseWheel * 3), 0, n - L.visible);
}

// The sites a table of `room` rows lists: all of them, or those with the most conflicts, in
// source order.
static std::vector<BankHeatmapView::SiteRow> most_conflicted(const std::vector<BankHeatmapView::SiteRow>& sites, size_t room) {
  if (room >= sites.size()) return sites;
  std::vector<size_t> by_conflicts(sites.size());
  for (size_t i = 0; i < sites.size(); ++i) by_conflicts[i] = i;
  std::stable_sort(by_conflicts.begin(), by_conflicts.end(), [&](size_t a, size_t b) { return sites[a].m->conflicts > sites[b].m->conflicts; });
  by_conflicts.resize(room);
  std::sort(by_conflicts.begin(), by_conflicts.end());
  std::vector<BankHeatmapView::SiteRow> kept;
  for (size_t i : by_conflicts) kept.push_back(sites[i]);
  return kept;
}

// Per-site totals in the room the heatmap left: as a picture, the header, the rows that fit and
// "N more sites"; the launch total under them.
void BankHeatmapView::draw_site_table(Session& s, const std::vector<SiteRow>& sites, const Layout& L) {
  const Trace& t = *s.trace();
  const ImGuiStyle& style = ImGui::GetStyle();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float table_room = L.side ? L.avail_h : ImGui::GetContentRegionAvail().y;
  size_t table_rows = sites.size();
  if (!controls && L.table_needed > table_room)
    table_rows = size_t(std::max(0.0f, std::floor((table_room - L.total_h - 2 * style.ItemSpacing.y) / L.table_row_h) - 2));
  ImGui::BeginGroup();
  if (ImGui::BeginTable("##sites", 4, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit, ImVec2(L.table_w, 0))) {
    // Sites of one file are told apart by their line: the file name would only push the access
    // kind and the array out of a narrow column.
    bool one_file = true;
    for (const SiteRow& r : sites) one_file = one_file && t.sites[r.site].file == t.sites[sites.front().site].file;
    ImGui::TableSetupColumn(one_file ? "line" : "site", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("instr");
    ImGui::TableSetupColumn("confl.");
    ImGui::TableSetupColumn("way");
    ImGui::TableHeadersRow();
    const std::vector<SiteRow> listed = most_conflicted(sites, table_rows);
    for (const SiteRow& r : listed) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      char lab[96];
      std::string where = site_label(t, r.site);
      if (one_file) where = where.substr(where.find(':') + 1);
      std::snprintf(lab, sizeof lab, "%s %s %s##%p", where.c_str(), r.m->kind == AccessKind::Load ? "ld" : r.m->kind == AccessKind::Store ? "st" : "atom",
                    r.m->alloc < t.allocations.size() ? t.allocations[r.m->alloc].name.c_str() : "", static_cast<const void*>(r.m));
      if (ImGui::Selectable(lab, s.sel.site == r.site, ImGuiSelectableFlags_SpanAllColumns)) {
        s.sel.site = r.site;
        ++s.sel_version;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.sites[r.site].text.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(r.m->instructions));
      ImGui::TableNextColumn();
      if (r.m->conflicts) ImGui::TextColored(vc.conflict, "%llu", static_cast<unsigned long long>(r.m->conflicts));
      else ImGui::TextUnformatted("0");
      ImGui::TableNextColumn();
      ImGui::Text("%u", r.m->max_ways);
    }
    if (listed.size() < sites.size()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%zu more sites", sites.size() - listed.size());
    }
    ImGui::EndTable();
  }
  if (!L.total_text.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + L.table_w);
    ImGui::TextUnformatted(L.total_text.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndGroup();
}

void BankHeatmapView::draw(Session& s) {
  visible_rows = 0;
  if (!view_ready(s, "the bank heatmap shows banks x shared-memory instructions.", !controls)) return;
  draw_header(s);
  const std::vector<SiteRow> sites = shared_sites(s.report());
  compute(s, sites);
  if (rows.empty()) {
    ImGui::TextWrapped(scope == BankScope::Warp
                           ? "Warp %u of block %u has no shared-memory instruction (try another warp, or the block scope)."
                           : "Block %u has no shared-memory instruction: nothing goes through the banks.",
                       s.sel.warp, s.sel.block);
    return;
  }
  const Layout L = plan(s, sites);
  const int sel_row = follow_selection(s, L.visible);
  ImGui::BeginGroup();
  grid_min = draw_bank_numbers(L);
  cell_w = L.cell_w;
  cell_h = L.cell_h;
  visible_rows = L.visible;
  if (draw_rows(s, sites, L, sel_row)) hover(s, sites, L);
  const int n = int(rows.size());
  if (n > L.visible) ImGui::TextDisabled("rows %d-%d of %d (scroll)", first_row + 1, first_row + L.visible, n);
  viridis_legend(1, std::max(map.vmax, common_scale_top), L.caption, true, L.side ? L.label_w + L.map_w : 0.0f);
  ImGui::EndGroup();
  if (L.side) ImGui::SameLine(0, em());
  draw_site_table(s, sites, L);
}

}  // namespace ws::app
