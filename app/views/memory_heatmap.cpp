// Memory heatmap: each allocation as a grid of its elements, colored by how many lane accesses
// touched them, by the bank conflicts those accesses met, by when the element was first touched,
// by the races met on it, or by atomic contention (untouched: blank). Shared arrays are 32 elements per row (for 4-byte elements a column
// is a bank). With playback, only the selected block's events issued so far count: the reduction
// tree folds the array step by step.
#include "views/memory_heatmap.h"
#include "views/view_common.h"

#include "ws/analysis/views.h"

#include "ws/viz/colormap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ws::app {

namespace {
// Past this many elements an allocation is drawn from the report's binned heat (all blocks).
constexpr uint64_t kMaxElements = 1u << 20;
}  // namespace

const ViewOption MemoryHeatmapView::kOptions[3] = {
    {"color", "accesses|conflicts|first-touch|hazards|contention",
     "what an element's color counts: lane accesses, bank conflicts, the step that touched it first, the racing "
     "access pairs that met on it, or atomic updates that waited for a lane of the same instruction",
     [](const View& v) { return static_cast<const MemoryHeatmapView&>(v).mode; },
     [](View& v, int k) { static_cast<MemoryHeatmapView&>(v).mode = k; }},
    {"scale", "linear|log", "the colour scale: linear, or log (counts from 1 to 1000 all told apart)",
     [](const View& v) { return static_cast<const MemoryHeatmapView&>(v).log_scale ? 1 : 0; },
     [](View& v, int k) { static_cast<MemoryHeatmapView&>(v).log_scale = k == 1; }},
    kControlsOption};

ImVec2 MemoryHeatmapView::natural_size(Session& s) { return slide_size(s, 0.5f); }
ImVec2 MemoryHeatmapView::least_size(Session& s) { return slide_size(s, 0.15f); }

ImVec2 MemoryHeatmapView::slide_size(Session& s, float row_em) {
  if (controls || !s.trace()) return ImVec2(0, 0);
  // Each array at cells of half an em (its own row length), its title line, then the legend: the
  // shape of the picture, which grows with the box.
  const Trace& t = *s.trace();
  const float E = em(), cell = 0.5f * E, line = ImGui::GetTextLineHeightWithSpacing();
  float w = 0, h = 4.5f * line;
  // (the arrays the last draw showed, where it drew this run in this colour: some colours leave
  // arrays out)
  const bool known = s.data() && shown_for == ws::viz::hash_mix(s.data()->generation, uint64_t(mode));
  for (size_t a = 0; a < t.allocations.size(); ++a) {
    if (known && std::find(shown.begin(), shown.end(), a) == shown.end()) continue;
    const Allocation& al = t.allocations[a];
    const uint64_t n = al.extent > kMaxElements ? 4096 : al.extent;
    const uint64_t cols = std::min<uint64_t>(std::max<uint64_t>(n, 1), al.row_length && al.extent <= kMaxElements ? al.row_length
                                                                       : al.space == MemSpace::Shared ? 32
                                                                       : n > 2048 ? 128 : 64);
    const uint64_t rows = (n + cols - 1) / cols;
    w = std::max(w, float(cols) * cell + E);
    h += line + float(std::min<uint64_t>(rows, 96)) * std::max(2.0f, std::floor(row_em * E));
  }
  return ImVec2(w, h);
}

namespace {

const char* const kModes[] = {"accesses", "bank conflicts", "first touch", "hazards", "atomic contention"};
const char* const kCaptions[] = {"lane accesses per element (blank: untouched)",
                                 "bank conflicts met: other words in the same bank and pass, summed (blank: untouched)",
                                 "first touched at event ... of the block (with playback) or trace (blank: untouched)",
                                 "racing access pairs met on the element, lockstep-only ones too (blank: untouched)",
                                 "atomic updates that waited for another lane of the same instruction (blank: no atomic)"};

}  // namespace

// The colour pickers (with controls) or one line saying the colour, and what is counted.
void MemoryHeatmapView::draw_header(Session& s) {
  const float E = em();
  if (controls) {
    selection_bar(s, false);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("atomic contention").x + 3 * E);  // the longest mode
    ImGui::Combo("color", &mode, kModes, 5);
    ImGui::SameLine();
    ImGui::Checkbox("log", &log_scale);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("log colour scale: counts from 1 to 1000 all told apart");
  } else {
    ImGui::TextDisabled("color: %s%s", kModes[mode], log_scale ? " (log scale)" : "");
  }
  ImGui::SameLine();
  ImGui::TextDisabled(s.sel.cursor >= 0 ? "playback: block %u, first %lld events" : "all recorded blocks", s.sel.block,
                      static_cast<long long>(s.sel.cursor));
}

// Each allocation's values in the colour's terms (recomputed when the run, the selection, the
// playback position or the colour changes). Returns the cache key.
uint64_t MemoryHeatmapView::compute(Session& s) {
  const Trace& t = *s.trace();
  const analysis::Report* rep = s.report();
  auto [first, last] = analysis::block_events(t, s.sel.block);
  uint64_t key = ws::viz::hash_mix(ws::viz::kHashSeed, s.data()->generation);
  key = ws::viz::hash_mix(key, s.sel.launch);
  key = ws::viz::hash_mix(key, uint64_t(s.sel.cursor + 1));
  key = ws::viz::hash_mix(key, s.sel.cursor >= 0 ? s.sel.block : 0);
  key = ws::viz::hash_mix(key, uint64_t(mode));
  key = ws::viz::hash_mix(key, uint64_t(rep ? rep->hazard_elements.size() : 0));
  if (key == cache_key) return key;
  cache_key = key;
  while (allocs.size() < t.allocations.size()) allocs.push_back(std::make_unique<MemoryHeatmapView::Alloc>());
  allocs.resize(t.allocations.size());
  for (size_t a = 0; a < t.allocations.size(); ++a) {
    Alloc& A = *allocs[a];
    const Allocation& al = t.allocations[a];
    const bool binned = al.extent > kMaxElements;
    if (binned) A.counts = analysis::ElementCounts{};  // binned below
    else if (s.sel.cursor >= 0)
      A.counts = analysis::element_counts(t, uint32_t(a), first, first + size_t(s.sel.cursor), {.block = s.sel.block});
    else
      A.counts = analysis::element_counts(t, uint32_t(a), 0, t.events.size());
    fill_map(A, al, rep, a);
  }
  return key;
}

// One allocation's heatmap: its values in the colour's terms, in rows of its own length.
void MemoryHeatmapView::fill_map(Alloc& A, const Allocation& al, const analysis::Report* rep, size_t a) {
  const bool binned = al.extent > kMaxElements;
  uint64_t n = al.extent;
  std::vector<float> v;
  if (binned && rep && a < rep->heat.size()) {
    const auto& h = rep->heat[a];
    n = h.loads.size();
    v.resize(n);
    for (size_t i = 0; i < n; ++i) v[i] = float(h.loads[i] + h.stores[i] + h.atomics[i]);
  } else {
    v.resize(n);
    // Touched elements get a value >= 0 in every mode (0 conflicts is a color); untouched: -1.
    for (size_t i = 0; i < n; ++i) {
      const bool touched = A.counts.total(i) > 0 && (mode != 1 || al.space == MemSpace::Shared) &&
                           (mode != 4 || A.counts.atomics[i] > 0);
      v[i] = !touched    ? -1.0f
             : mode == 1 ? float(A.counts.conflicts[i])
             : mode == 2 ? float(A.counts.first_touch[i])
             : mode == 3 ? 0.0f  // the pairs are added below
             : mode == 4 ? float(A.counts.contention[i])
                         : float(A.counts.total(i));
    }
    // Hazards: the racing pairs the analysis met on each element (the whole launch's).
    if (mode == 3 && rep)
      for (const analysis::ElementHazards& h : rep->hazard_elements)
        if (h.alloc == a && h.element < n) v[h.element] = std::max(v[h.element], 0.0f) + float(h.races + h.lockstep);
  }
  // A matrix (its driver named the row length) as the matrix; else 32 columns for shared memory
  // (a row is the 32 banks), wider rows for long global arrays.
  const int cols = al.row_length && !binned ? int(al.row_length) : al.space == MemSpace::Shared ? 32 : n > 2048 ? 128 : 64;
  A.cols = int(std::min<uint64_t>(n ? n : 1, uint64_t(cols)));
  const int rows = int((n + uint64_t(A.cols) - 1) / uint64_t(A.cols));
  A.map = ws::viz::Heatmap{};
  A.map.cols = A.cols;
  A.map.rows = std::max(rows, 1);
  A.map.values.assign(size_t(A.map.cols) * size_t(A.map.rows), NAN);
  const bool counts_mode = binned || mode == 0;
  float vmax = 1;
  for (size_t i = 0; i < n; ++i) {
    if (counts_mode ? v[i] > 0 : v[i] >= 0) A.map.values[i] = v[i];
    vmax = std::max(vmax, v[i]);
  }
  A.map.vmin = counts_mode ? 1 : 0;
  A.map.vmax = std::max(vmax, A.map.vmin + 1.0f);
}

// The arrays drawn, in order: shared first (where a block's reduction tree folds), then global.
// Coloured by hazards, a global array is shown only when a race met one of its elements (global
// races are looked for between the threads of a block); by atomic contention, only the arrays
// atomics update. Returns the note that says what was left out ("" when nothing was).
std::string MemoryHeatmapView::choose_arrays(const Trace& t, const analysis::Report* rep, std::vector<size_t>& order) {
  size_t dropped = 0;
  auto raced = [&](size_t a) {
    return rep && std::any_of(rep->hazard_elements.begin(), rep->hazard_elements.end(),
                              [&](const analysis::ElementHazards& h) { return h.alloc == a; });
  };
  auto atomic_target = [&](size_t a) {
    return allocs[a]->counts.max_atomics > 0 || (a < t.allocations.size() && t.allocations[a].extent > kMaxElements);
  };
  for (size_t a = 0; a < t.allocations.size(); ++a)
    if (t.allocations[a].space == MemSpace::Shared && (mode != 4 || atomic_target(a))) order.push_back(a);
  for (size_t a = 0; a < t.allocations.size(); ++a)
    if (t.allocations[a].space != MemSpace::Shared) {
      if ((mode == 3 && !raced(a)) || (mode == 4 && !atomic_target(a))) ++dropped;
      else order.push_back(a);
    }
  if (!dropped) return {};
  const std::string n = std::to_string(dropped) + (mode == 4 ? " array" : " global array") + (dropped > 1 ? "s" : "");
  return mode == 4 ? n + " without atomics not shown"
                   : n + " without a race not shown (global races are looked for between the threads of a block)";
}

std::string MemoryHeatmapView::title_of(const Trace& t, size_t a) const {
  const Allocation& al = t.allocations[a];
  const bool binned = al.extent > kMaxElements;
  const std::string matrix =
      al.row_length && !binned ? "  (" + std::to_string(al.extent / al.row_length) + " rows x " + std::to_string(al.row_length) + ")" : "";
  return std::string(to_string(al.space)) + " " + al.type_name + " " + al.name + "[" + std::to_string(al.extent) + "]" + matrix +
         (binned ? "  (binned, all blocks: accesses)" : "") +
         (mode == 1 && al.space != MemSpace::Shared ? "  (global memory has no banks)" : "");
}

// A picture (controls off) fits every array in its box: cells get flatter, one height for all, so
// that rows still compare across arrays: the largest height h with sum(rows x min(width, h)) in
// the room. With controls the arrays scroll (no limit).
float MemoryHeatmapView::fit_cell_height(const Trace& t, const std::vector<size_t>& order, const std::vector<std::string>& notes,
                                         float legend_h, float avail_w, float cell_max) {
  if (controls) return 1e9f;
  const ImGuiStyle& style = ImGui::GetStyle();
  float fixed = 0, rows_total = 0;
  for (size_t a : order) {
    fixed += ImGui::CalcTextSize(title_of(t, a).c_str(), nullptr, false, avail_w).y + 3 * style.ItemSpacing.y;
    rows_total += float(allocs[a]->map.rows);
  }
  for (const std::string& note : notes)
    if (!note.empty()) fixed += ImGui::CalcTextSize(note.c_str(), nullptr, false, avail_w).y + style.ItemSpacing.y;
  const float room = ImGui::GetContentRegionAvail().y - legend_h - fixed;
  float lo = 0.25f, hi = cell_max;
  for (int it = 0; it < 30; ++it) {
    const float mid = 0.5f * (lo + hi);
    float used = 0;
    for (size_t a : order) used += float(allocs[a]->map.rows) * std::min(cell_width(a, avail_w, cell_max), mid);
    (used <= room ? lo : hi) = mid;
  }
  return rows_total > 0 ? lo : hi;
}

float MemoryHeatmapView::cell_width(size_t a, float avail_w, float cell_max) const {
  return std::clamp(std::floor((avail_w - em()) / float(allocs[a]->cols)), 2.0f, cell_max);
}

// One array: its title, its cells (on one scale for every array: counts compare across them),
// the selected element outlined; hover says an element's numbers, a click selects it.
void MemoryHeatmapView::draw_array(Session& s, const Trace& t, size_t a, float cell, float cell_h, float top, uint64_t key) {
  const analysis::Report* rep = s.report();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  Alloc& A = *allocs[a];
  const Allocation& al = t.allocations[a];
  const bool binned = al.extent > kMaxElements;
  ImGui::TextWrapped("%s", title_of(t, a).c_str());
  ImVec2 o = ImGui::GetCursorScreenPos();
  o = ImVec2(std::floor(o.x), std::floor(o.y));
  ImGui::SetCursorScreenPos(o);
  A.grid_min = o;
  A.cell = cell;
  A.cell_h = cell_h;
  ws::viz::Heatmap& m = A.map;
  m.vmax = top;
  m.log_scale = log_scale;
  m.line = cell_h >= 6 ? 1.0f / cell_h : 0.0f;
  std::string err;
  const ImVec4 empty = vc.empty;
  ImGui::PushID(int(a));
  if (!A.canvas.show(ImVec2(cell * float(m.cols), cell_h * float(m.rows)),
                     ws::viz::hash_mix(ws::viz::hash_mix(key, uint64_t(top) * 2 + log_scale), uint64_t(vc.background.x * 1000)),
                     [&](std::string& e) { return A.renderer.draw(m, empty, e); }, err))
    ImGui::TextColored(vc.conflict, "cannot draw %s: %s", al.name.c_str(), err.c_str());
  if (ImGui::IsItemHovered()) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int c = int((mp.x - o.x) / cell), r = int((mp.y - o.y) / cell_h);
    const size_t i = size_t(r) * size_t(m.cols) + size_t(c);
    if (c >= 0 && c < m.cols && r >= 0 && i < (binned ? m.values.size() : al.extent)) {
      if (binned) {
        const uint64_t per = rep->heat[a].elements_per_bin;
        ImGui::SetTooltip("%s[%llu .. %llu]: %g lane accesses", al.name.c_str(), static_cast<unsigned long long>(i * per),
                          static_cast<unsigned long long>((i + 1) * per - 1), std::isnan(m.values[i]) ? 0.0 : double(m.values[i]));
      } else {
        ImGui::SetTooltip("%s[%zu] (byte offset %llu%s)\n%u loads, %u stores, %u atomics (%u waited for a lane of the "
                          "same instruction)\n%u bank-conflict ways met, first touched at event %lld",
                          al.name.c_str(), i, static_cast<unsigned long long>(i * al.elem_size),
                          al.space == MemSpace::Shared ? (", bank " + std::to_string((al.base / 4 + i * al.elem_size / 4) % 32)).c_str() : "",
                          A.counts.loads[i], A.counts.stores[i], A.counts.atomics[i], A.counts.contention[i],
                          A.counts.conflicts[i], static_cast<long long>(A.counts.first_touch[i]));
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
          s.sel.alloc = uint32_t(a);
          s.sel.element = int64_t(i);
          ++s.sel_version;
        }
      }
    }
  }
  if (s.sel.alloc == a && s.sel.element >= 0 && size_t(s.sel.element) < m.values.size()) {
    const int c = int(s.sel.element % m.cols), r = int(s.sel.element / m.cols);
    ImGui::GetWindowDrawList()->AddRect(ImVec2(o.x + c * cell - 1, o.y + r * cell_h - 1), ImVec2(o.x + (c + 1) * cell + 1, o.y + (r + 1) * cell_h + 1),
                                        ImGui::ColorConvertFloat4ToU32(vc.selection), 0, 0, 2.0f);
  }
  ImGui::PopID();
  ImGui::Spacing();
}

void MemoryHeatmapView::draw(Session& s) {
  if (!view_ready(s, "the memory heatmap shows each array's elements colored by access count.", !controls)) return;
  const Trace& t = *s.trace();
  const analysis::Report* rep = s.report();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  draw_header(s);
  const uint64_t key = compute(s);
  const float vmin = mode == 0 ? 1.0f : 0.0f;
  float top = vmin + 1;
  for (const auto& A : allocs) top = std::max(top, A->map.vmax);
  scale_top = top;
  top = std::max(top, common_scale_top);  // one scale with a compared launch
  const float avail_w = ImGui::GetContentRegionAvail().x;
  // Room for the legend under the arrays: its caption goes beside the color strip or below it.
  const bool caption_beside = avail_w > std::min(avail_w, 16 * E) + ImGui::CalcTextSize(kCaptions[mode]).x + E;
  const float legend_h = (caption_beside ? 2.4f : 3.6f) * ImGui::GetTextLineHeightWithSpacing();
  std::vector<size_t> order;
  const std::string left_out_note = choose_arrays(t, rep, order);
  // A recording of some blocks only: a global element no recorded block touched may still be
  // touched by the others; the picture says so instead of calling it untouched.
  const uint64_t grid_blocks = t.launch.grid.count();
  const std::string partial_note =
      t.recorded_blocks.size() < grid_blocks
          ? std::to_string(t.recorded_blocks.size()) + " of " + std::to_string(grid_blocks) +
                " blocks recorded: a blank global element may be touched by the blocks not recorded"
          : "";
  // (on a slide the cells grow into the box, up to 3 em)
  const float cell_max = (controls ? 1.6f : 3.0f) * E;
  const float cell_h_max = fit_cell_height(t, order, {left_out_note, partial_note}, legend_h, avail_w, cell_max);
  shown = order;
  shown_for = ws::viz::hash_mix(s.data()->generation, uint64_t(mode));
  if (!controls || ImGui::BeginChild("##allocs", ImVec2(0, -legend_h))) {
    for (size_t a : order) {
      const float cell = cell_width(a, avail_w, cell_max);
      draw_array(s, t, a, cell, std::min(cell, cell_h_max), top, key);
    }
    for (const std::string* note : {&left_out_note, &partial_note})
      if (!note->empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
        ImGui::TextWrapped("%s", note->c_str());
        ImGui::PopStyleColor();
      }
  }
  if (controls) ImGui::EndChild();
  viridis_legend(vmin, top, kCaptions[mode], true, 0.0f, log_scale);
}

}  // namespace ws::app
