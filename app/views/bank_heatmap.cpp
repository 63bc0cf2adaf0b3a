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

namespace {

struct SiteRow {
  uint32_t site;
  const analysis::SiteMetrics* m;
};

}  // namespace

void BankHeatmapView::set_option(std::string_view key, int choice) {
  if (key == "scope") scope = BankScope(choice);
}

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

void BankHeatmapView::draw(Session& s) {
  BankHeatmapView& st = *this;
  st.visible_rows = 0;
  if (!view_ready(s, "the bank heatmap shows banks x shared-memory instructions.", !controls)) return;
  const Trace& t = *s.trace();
  const analysis::Report* rep = s.report();
  const char* scopes[] = {"one warp", "one block", "launch (per site)"};
  if (st.controls) {
    selection_bar(s, st.scope == BankScope::Warp);
    ImGui::SameLine();
    int scope = int(st.scope);
    ImGui::SetNextItemWidth(7 * em());
    if (ImGui::Combo("##scope", &scope, scopes, 3)) st.scope = BankScope(scope);
  } else {
    ImGui::TextDisabled("%s: block %u%s", scopes[int(st.scope)], s.sel.block,
                        st.scope == BankScope::Warp ? (", warp " + std::to_string(s.sel.warp)).c_str() : "");
  }

  // Rows for the scope, cached per run / selection.
  const auto d = s.data();
  uint64_t key = ws::viz::hash_mix(ws::viz::kHashSeed, d->generation);
  key = ws::viz::hash_mix(key, uint64_t(st.scope));
  key = ws::viz::hash_mix(key, s.sel.launch);
  key = ws::viz::hash_mix(key, s.sel.block);
  key = ws::viz::hash_mix(key, st.scope == BankScope::Warp ? s.sel.warp : 0);
  std::vector<SiteRow> site_rows;
  if (rep)
    for (const auto& m : rep->sites)
      if (m.space == MemSpace::Shared && m.instructions) site_rows.push_back({m.site, &m});
  if (key != st.cache_key) {
    st.cache_key = key;
    st.rows.clear();
    if (st.scope == BankScope::Launch) {
      for (size_t k = 0; k < site_rows.size(); ++k) {
        analysis::BankRow b;
        b.event = ~0ull;
        for (int k = 0; k < 32; ++k) b.words[size_t(k)] = 0;
        st.rows.push_back(b);
      }
    } else {
      analysis::EventFilter f;
      f.block = s.sel.block;
      if (st.scope == BankScope::Warp) f.warp = s.sel.warp;
      st.rows = analysis::bank_rows(t, f);
    }
    st.map = ws::viz::Heatmap{};
    st.map.cols = 32;
    st.map.rows = int(st.rows.size());
    st.map.values.assign(st.rows.size() * 32, NAN);
    float vmax = 2;
    for (size_t r = 0; r < st.rows.size(); ++r)
      for (int b = 0; b < 32; ++b) {
        float v = st.scope == BankScope::Launch ? float(site_rows[r].m->bank_words[size_t(b)]) : float(st.rows[r].words[size_t(b)]);
        if (v > 0) st.map.values[r * 32 + size_t(b)] = v;
        vmax = std::max(vmax, v);
      }
    st.vmax = vmax;
    st.map.vmin = 1;
    st.map.vmax = vmax;
  }
  if (st.rows.empty()) {
    ImGui::TextWrapped(st.scope == BankScope::Warp
                           ? "Warp %u of block %u has no shared-memory instruction (try another warp, or the block scope)."
                           : "Block %u has no shared-memory instruction: nothing goes through the banks.",
                       s.sel.warp, s.sel.block);
    return;
  }

  // Layout: heatmap on the left, per-site totals beside it (below when the panel is narrow).
  const float E = em();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool side = avail.x > 36 * E;
  const float table_w = side ? std::min(22 * E, avail.x * 0.45f) : avail.x;
  const float label_w = std::floor(3.2f * E);
  const float map_w = (side ? avail.x - table_w - E : avail.x) - label_w;
  const float cell_w = std::max(std::floor(map_w / 32), 3.0f);
  // The color strip and its ticks, then its caption (wrapped to the heatmap's width).
  const char* caption = st.scope == BankScope::Launch ? "words served, summed over the site's instructions"
                                                      : "distinct words served by the bank (1 = no conflict)";
  // (viridis_legend: a strip and its ticks 2.1 lines tall, the caption beside it where it fits,
  // else under it)
  const float legend_room = side ? label_w + map_w : avail.x, strip_w = std::min(legend_room, 16 * E);
  const bool caption_beside = legend_room > strip_w + ImGui::CalcTextSize(caption).x + E;
  const float legend_h =
      2.1f * ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.y +
      (caption_beside ? 0.0f : std::ceil(ImGui::CalcTextSize(caption).x / std::max(legend_room, E)) * ImGui::GetTextLineHeightWithSpacing());
  // The per-site table: a row per shared site and the launch total under it. Beside the heatmap it
  // has the whole height; under it, with controls, 8 lines (it scrolls with the panel); as a
  // picture, what its rows need, at most 45% of the height, and the sites that do not fit are
  // counted in one line.
  std::string total_text;
  if (rep) {
    uint64_t conflicts = 0, wavefronts = 0;
    for (const auto& c : rep->totals.shared) conflicts += c.conflicts, wavefronts += c.wavefronts;
    total_text = "Launch total (recorded blocks): " + std::to_string(conflicts) + " bank conflicts in " +
                 std::to_string(wavefronts) + " wavefronts.";
  }
  const ImGuiStyle& style = ImGui::GetStyle();
  const float table_row_h = ImGui::GetTextLineHeightWithSpacing() + 2 * style.CellPadding.y;
  const float total_h = total_text.empty() ? 0 : ImGui::CalcTextSize(total_text.c_str(), nullptr, false, table_w).y + style.ItemSpacing.y;
  const float table_needed = float(site_rows.size() + 1) * table_row_h + total_h + 2 * style.ItemSpacing.y;
  const float table_h = side ? avail.y : st.controls ? 8 * E : std::min(table_needed, 0.45f * avail.y);
  // (Over the rows: the bank numbers; under them: "rows a-b of N", the legend, the table.)
  const float map_h_avail = std::max(avail.y - (ImGui::GetTextLineHeight() + 2) - legend_h -
                                         ImGui::GetTextLineHeightWithSpacing() - (side ? 0 : table_h),
                                     (st.controls ? 6 : 3) * E);
  const int rows = int(st.rows.size());
  // (on a slide the rows grow into the room, up to 3 em: a few instructions fill their box)
  // (whole pixels where the rows are tall enough for grid lines; below that, rows may share a
  // pixel: the picture still fills its room)
  float cell_h = std::clamp(map_h_avail / float(rows), 0.1f * E, (controls ? 1.3f : 3.0f) * E);
  if (cell_h >= 6) cell_h = std::floor(cell_h);
  const int visible = std::min(rows, std::max(1, int(map_h_avail / cell_h)));
  // Scroll so the selected instruction's row is visible.
  int sel_row = -1;
  for (int r = 0; r < rows; ++r)
    if (int64_t(st.rows[size_t(r)].event) == s.sel.event) sel_row = r;
  st.first_row = std::clamp(st.first_row, 0, std::max(0, rows - visible));
  if (sel_row >= 0 && (sel_row < st.first_row || sel_row >= st.first_row + visible))
    st.first_row = std::clamp(sel_row - visible / 2, 0, std::max(0, rows - visible));

  ImGui::BeginGroup();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  ImVec2 o = ImGui::GetCursorScreenPos();
  o = ImVec2(std::floor(o.x), std::floor(o.y));
  // Bank numbers on top.
  const float th = ImGui::GetTextLineHeight();
  const int every = cell_w * 2 >= ImGui::CalcTextSize("31").x + 4 ? (cell_w >= ImGui::CalcTextSize("31").x + 2 ? 1 : 2) : 4;
  for (int b = 0; b < 32; b += every) {
    char num[8];
    std::snprintf(num, sizeof num, "%d", b);
    const float tw = ImGui::CalcTextSize(num).x;
    dl->AddText(ImVec2(o.x + label_w + b * cell_w + (cell_w - tw) / 2, o.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), num);
  }
  dl->AddText(ImVec2(o.x, o.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), "bank");
  const ImVec2 gmin(o.x + label_w, o.y + th + 2);
  st.grid_min = gmin;
  st.cell_w = cell_w;
  st.cell_h = cell_h;
  st.visible_rows = visible;

  // The visible rows only (a 100k-row launch scrolls; the texture holds what is seen).
  ws::viz::Heatmap view;
  view.cols = 32;
  view.rows = visible;
  st.scale_top = st.map.vmax;
  const float top = std::max(st.map.vmax, st.common_scale_top);
  view.vmin = st.map.vmin;
  view.vmax = top;
  view.values.assign(st.map.values.begin() + ptrdiff_t(st.first_row) * 32,
                     st.map.values.begin() + ptrdiff_t(st.first_row + visible) * 32);
  view.line = cell_w >= 6 ? 1.0f / cell_w : 0.0f;
  ImGui::SetCursorScreenPos(gmin);
  uint64_t ck = ws::viz::hash_mix(st.cache_key, uint64_t(st.first_row));
  ck = ws::viz::hash_mix(ck, uint64_t(visible));
  ck = ws::viz::hash_mix(ck, uint64_t(top * 16));
  ck = ws::viz::hash_mix(ck, uint64_t(ImGui::GetStyle().Colors[ImGuiCol_WindowBg].x * 1000));
  std::string err;
  const ImVec4 empty = vc.empty;
  if (!st.canvas.show(ImVec2(32 * cell_w, visible * cell_h), ck,
                      [&](std::string& e) { return st.renderer.draw(view, empty, e); }, err)) {
    ImGui::TextColored(vc.conflict, "cannot draw the heatmap: %s", err.c_str());
  }
  const bool hovered = ImGui::IsItemHovered();
  // Row labels: instruction numbers (or site names in launch scope) when they fit.
  const int label_every = std::max(1, int(std::ceil(th / cell_h)));
  for (int r = 0; r < visible; r += label_every) {
    const int row = st.first_row + r;
    char lab[48];
    if (st.scope == BankScope::Launch)
      std::snprintf(lab, sizeof lab, "%s", site_label(t, site_rows[size_t(row)].site).c_str() + 0);
    else
      std::snprintf(lab, sizeof lab, "%d", row + 1);
    if (st.scope == BankScope::Launch) {
      // Only the line number fits in the margin.
      const Site& site = t.sites[site_rows[size_t(row)].site];
      std::snprintf(lab, sizeof lab, ":%u", site.line);
    }
    const float tw = ImGui::CalcTextSize(lab).x;
    dl->AddText(ImVec2(gmin.x - tw - 4, gmin.y + r * cell_h + (cell_h - th) / 2), ImGui::GetColorU32(ImGuiCol_TextDisabled), lab);
  }
  // The selected instruction's row.
  if (sel_row >= st.first_row && sel_row < st.first_row + visible) {
    const float y = gmin.y + (sel_row - st.first_row) * cell_h;
    dl->AddRect(ImVec2(gmin.x - 1, y - 1), ImVec2(gmin.x + 32 * cell_w + 1, y + cell_h + 1),
                ImGui::ColorConvertFloat4ToU32(vc.selection), 0, 0, 2.0f);
  }
  if (hovered) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int b = std::clamp(int((mp.x - gmin.x) / cell_w), 0, 31);
    const int row = std::clamp(st.first_row + int((mp.y - gmin.y) / cell_h), 0, rows - 1);
    const float v = st.map.values[size_t(row) * 32 + size_t(b)];
    if (st.scope == BankScope::Launch) {
      const auto& m = *site_rows[size_t(row)].m;
      wrapped_tooltip("bank %d, %s\n%s\n%s %s: %g words over %llu instructions\n%llu conflicts, worst %u-way",
                        b, site_label(t, m.site).c_str(), t.sites[m.site].text.c_str(), to_string(m.kind),
                        m.alloc < t.allocations.size() ? t.allocations[m.alloc].name.c_str() : "?", std::isnan(v) ? 0.0 : double(v),
                        static_cast<unsigned long long>(m.instructions), static_cast<unsigned long long>(m.conflicts), m.max_ways);
    } else {
      const analysis::BankRow& r = st.rows[size_t(row)];
      const Event& e = t.events[size_t(r.event)];
      wrapped_tooltip("bank %d, instruction %d (warp %u, step %u)\n%s  %s\n%s: %d distinct word%s (%d in one phase)\n"
                        "instruction: %u wavefronts, %u conflicts\nclick: show it in the access map",
                        b, row + 1, e.warp, e.step, site_label(t, e.site).c_str(), t.sites[e.site].text.c_str(),
                        to_string(e.kind), std::isnan(v) ? 0 : int(v), (std::isnan(v) || v != 1) ? "s" : "",
                        int(r.ways[size_t(b)]), r.wavefronts, r.conflicts);
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) s.select_event(int64_t(r.event));
    }
  }
  if (hovered && ImGui::GetIO().MouseWheel != 0 && rows > visible)
    st.first_row = std::clamp(st.first_row - int(ImGui::GetIO().MouseWheel * 3), 0, rows - visible);
  if (rows > visible) ImGui::TextDisabled("rows %d-%d of %d (scroll)", st.first_row + 1, st.first_row + visible, rows);
  viridis_legend(1, top, caption, true, side ? label_w + map_w : 0.0f);
  ImGui::EndGroup();

  // Per-site totals, in the room the heatmap left: as a picture, the header, the rows that fit and
  // "N more sites".
  const float table_room = side ? avail.y : ImGui::GetContentRegionAvail().y;
  size_t table_rows = site_rows.size();
  if (!st.controls && table_needed > table_room)
    table_rows = size_t(std::max(0.0f, std::floor((table_room - total_h - 2 * style.ItemSpacing.y) / table_row_h) - 2));
  if (side) ImGui::SameLine(0, E);
  ImGui::BeginGroup();
  if (ImGui::BeginTable("##sites", 4, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit,
                        ImVec2(table_w, 0))) {
    // Sites of one file are told apart by their line: the file name would only push the access
    // kind and the array out of a narrow column.
    bool one_file = true;
    for (const SiteRow& r : site_rows) one_file = one_file && t.sites[r.site].file == t.sites[site_rows.front().site].file;
    ImGui::TableSetupColumn(one_file ? "line" : "site", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("instr");
    ImGui::TableSetupColumn("confl.");
    ImGui::TableSetupColumn("way");
    ImGui::TableHeadersRow();
    // Fewer rows than sites: the sites with the most conflicts, in source order.
    std::vector<SiteRow> listed = site_rows;
    if (table_rows < listed.size()) {
      std::vector<size_t> by_conflicts(listed.size());
      for (size_t i = 0; i < listed.size(); ++i) by_conflicts[i] = i;
      std::stable_sort(by_conflicts.begin(), by_conflicts.end(),
                       [&](size_t a, size_t b) { return listed[a].m->conflicts > listed[b].m->conflicts; });
      by_conflicts.resize(table_rows);
      std::sort(by_conflicts.begin(), by_conflicts.end());
      std::vector<SiteRow> kept;
      for (size_t i : by_conflicts) kept.push_back(listed[i]);
      listed = std::move(kept);
    }
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
    if (listed.size() < site_rows.size()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%zu more sites", site_rows.size() - listed.size());
    }
    ImGui::EndTable();
  }
  if (!total_text.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + table_w);
    ImGui::TextUnformatted(total_text.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndGroup();
}

}  // namespace ws::app
