// Block layout: the threads of one block in its 1D/2D/3D shape, colored by warp (threads are
// numbered x fastest, then y, then z, and cut into warps of 32 in that order). The selected
// instruction's lanes are outlined, and its global-memory footprint (128-byte lines and 32-byte
// sectors the warp touches) is listed under it: why dim3(16,16) and dim3(128,2) access memory
// differently. The block shape can be edited here (the kernel may refuse it, and says why).
#include "views/block_layout.h"
#include "views/view_common.h"

#include "ws/analysis/views.h"

#include "ws/analysis/instruction.h"
#include "ws/viz/colormap.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

namespace ws::app {

BlockGrid block_grid(Dim3 b, int max_cols, int max_rows) {
  BlockGrid g;
  const int X = int(b.x), Y = int(b.y), Z = int(b.z);
  max_cols = std::max(max_cols, 1);
  max_rows = std::max(max_rows, 1);
  // Along x: whole warps per piece where a warp fits, else whatever fits.
  int xp = X;
  if (X > max_cols) xp = max_cols >= 32 ? max_cols / 32 * 32 : max_cols;
  const int nx = (X + xp - 1) / xp;
  // Along y, when x was not cut and the rows do not fit: whole warps per piece where X divides 32.
  int yp = Y;
  const int plane_h_x = nx * Y + (nx - 1);
  if (nx == 1 && plane_h_x > max_rows && Y > 1) {
    const int rows_per_warp = X < 32 && 32 % X == 0 ? 32 / X : 1;
    yp = std::max(rows_per_warp, max_rows / rows_per_warp * rows_per_warp);
    yp = std::min(yp, Y);
  }
  const int ny = (Y + yp - 1) / yp;
  const int plane_w = ny * xp + (ny - 1);
  const int plane_h = nx > 1 ? plane_h_x : yp;
  g.planes_across = Z * plane_w + (Z - 1) <= max_cols || Z * plane_h + (Z - 1) > max_rows;
  g.cols = g.planes_across ? Z * plane_w + (Z - 1) : plane_w;
  g.rows = g.planes_across ? plane_h : Z * plane_h + (Z - 1);
  g.x_piece = xp, g.y_piece = yp, g.x_pieces = nx, g.y_pieces = ny;
  const size_t n = size_t(X) * size_t(Y) * size_t(Z);
  g.col.resize(n);
  g.row.resize(n);
  for (size_t tid = 0; tid < n; ++tid) {
    const int x = int(tid % size_t(X)), y = int(tid / size_t(X) % size_t(Y)), z = int(tid / (size_t(X) * size_t(Y)));
    int c = (y / yp) * (xp + 1) + x % xp;
    int r = (x / xp) * (Y + 1) + y % yp;
    if (g.planes_across) c += z * (plane_w + 1);
    else r += z * (plane_h + 1);
    g.col[tid] = c;
    g.row[tid] = r;
  }
  std::string how;
  if (nx > 1)
    how = "x cut into " + std::to_string(nx) + " pieces of " + std::to_string(xp) + " threads, one under another";
  if (ny > 1)
    how = "y cut into " + std::to_string(ny) + " pieces of " + std::to_string(yp) + " rows, side by side";
  if (Z > 1)
    how += std::string(how.empty() ? "" : "; ") + "the " + std::to_string(Z) + " z planes " +
           (g.planes_across ? "side by side" : "one under another");
  g.caption = how;
  return g;
}

namespace {

// The event of warp `w` that is the same instruction as `e` (its site, the same occurrence in its
// warp), or null: a warp that never issued it (all its lanes idle there).
const Event* same_instruction(const Trace& t, const Event& e, uint32_t w) {
  auto [first, last] = analysis::block_events(t, e.block);
  int occurrence = 0;
  for (size_t i = first; i < last && &t.events[i] != &e; ++i)
    if (t.events[i].warp == e.warp && t.events[i].site == e.site && t.events[i].type == e.type) ++occurrence;
  for (size_t i = first; i < last; ++i)
    if (t.events[i].warp == w && t.events[i].site == e.site && t.events[i].type == e.type && occurrence-- == 0) return &t.events[i];
  return nullptr;
}

// The smallest cells a block is drawn with, in font sizes: a wall's row of 1024 threads still
// fits a 1080p slide in one strip (x is never cut while a cell of this size fits).
constexpr float kCellEm[] = {0.6f, 0.35f, 0.2f};

}  // namespace

ImVec2 BlockLayoutView::natural_size(Session& s) {
  if (controls || !s.trace()) return ImVec2(0, 0);
  const Dim3 b = s.trace()->launch.block;
  const float E = em(), cell = std::floor(kCellEm[0] * E);
  const BlockGrid g = block_grid(b, 1 << 20, 1 << 20);
  // The grid at its smallest readable cells, its warp labels' bands, the words above and under.
  return ImVec2(float(g.cols) * cell, float(g.rows) * cell + 2 * E + 6 * ImGui::GetTextLineHeightWithSpacing());
}

void BlockLayoutView::draw_controls(Session& s, Dim3 b) {
  const float E = em();
  // The shape fields show the session's request (whichever panel made it) unless typed in.
  const RunRequest& req = s.last_request();
  const std::string request_key = Session::history_key(req.kernel, req.config);
  if (request_key != synced_key && !editing) {
    const Dim3 want = req.config.block.x ? req.config.block : b;
    edit_block[0] = int(want.x), edit_block[1] = int(want.y), edit_block[2] = int(want.z);
    synced_key = request_key;
  }
  ImGui::SetNextItemWidth(9 * E);
  ImGui::InputInt3("##shape", edit_block);
  editing = ImGui::IsItemActive();
  ImGui::SameLine();
  if (ImGui::Button("Run with this block")) {
    RunRequest r = s.last_request();
    r.config.block = {uint32_t(std::max(edit_block[0], 1)), uint32_t(std::max(edit_block[1], 1)),
                      uint32_t(std::max(edit_block[2], 1))};
    s.request(r);
  }
}

void BlockLayoutView::draw(Session& s) {
  left_out.clear();
  if (!view_ready(s, "the block layout shows the block's threads colored by warp.", !controls)) return;
  const Trace& t = *s.trace();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  const Dim3 b = t.launch.block;
  if (controls) draw_controls(s, b);  // (a picture shows the block it was given)
  if (auto d = s.data(); d && !d->error.empty() && d->result.launches.empty()) ImGui::TextColored(vc.conflict, "%s", d->error.c_str());

  // The block in its shape (block_grid): x is never cut while cells of a fifth of the font fit;
  // past that, into pieces of whole warps.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // The words under the grid, or beside it where the block is much taller than wide for its box
  // (a square block in a wide box: the grid takes the height, the words the side).
  const float text_w = 22 * E;
  const bool beside = !controls && float(b.x) / float(b.y * b.z) < 0.5f * (avail.x - text_w) / std::max(avail.y, 1.0f);
  const float foot_h = beside ? 0.0f : (controls ? 5.5f : 3.5f) * line + (b.z > 1 || b.x * b.y > 1024 ? line : 0.0f);
  const float room_h = std::max(avail.y - foot_h - 3 * line, 4 * E);
  const float room_w = beside ? avail.x - text_w - E : avail.x;
  // Uncut where cells of any of these sizes let it; else x uncut; else cut.
  BlockGrid g;
  for (int cut = 0; cut < 3; ++cut) {
    for (float em_cell : kCellEm) {
      const float min_cell = std::max(std::floor(em_cell * E), 2.0f);
      g = block_grid(b, int(room_w / min_cell), int(room_h / min_cell));
      const bool fits = float(g.cols) * min_cell <= room_w && float(g.rows) * min_cell <= room_h;
      if (fits && (cut == 2 || (g.x_pieces == 1 && (cut == 1 || g.y_pieces == 1)))) break;
    }
    if (cut == 2 || (g.x_pieces == 1 && (cut == 1 || g.y_pieces == 1))) break;
  }
  ImGui::TextDisabled("block (%u,%u,%u) = %llu threads, %llu warps: x across, y down", b.x, b.y, b.z,
                      static_cast<unsigned long long>(b.count()), static_cast<unsigned long long>((b.count() + 31) / 32));
  if (!g.caption.empty()) ImGui::TextDisabled("%s", g.caption.c_str());
  const Event* e = s.sel.event >= 0 && size_t(s.sel.event) < t.events.size() ? &t.events[size_t(s.sel.event)] : nullptr;
  const float cell = std::clamp(std::floor(std::min(room_w / float(g.cols), room_h / float(g.rows))), 1.0f, 2.2f * E);
  // Warp numbers in their cells where those hold one; else in a band over and under the grid.
  const bool bands = cell < ImGui::GetTextLineHeight();
  if (bands) ImGui::Dummy(ImVec2(1, ImGui::GetTextLineHeight()));
  ImGui::BeginGroup();
  paint_grid(s, g, cell, vc);
  paint_lanes(t, g, e, vc);
  paint_warp_numbers(b, g, bands);
  if (bands) ImGui::Dummy(ImVec2(1, ImGui::GetTextLineHeight()));
  ImGui::EndGroup();
  if (hovered_thread >= 0) thread_tooltip(s, t, e);
  if (beside) ImGui::SameLine(0, E);
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(beside ? ImGui::GetCursorPosX() + text_w : 0.0f);
  draw_footprint(t, e);
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
}

// The cells, coloured by warp (cached in a texture until the run or the shape changes).
void BlockLayoutView::paint_grid(Session& s, const BlockGrid& g, float cell_px, const ws::viz::ViewColors& vc) {
  const Dim3 b = s.trace()->launch.block;
  uint64_t key = ws::viz::hash_mix(ws::viz::kHashSeed, s.data()->generation);
  key = ws::viz::hash_mix(key, s.sel.launch);
  key = ws::viz::hash_mix(key, uint64_t(g.cols) << 32 | uint64_t(g.rows));
  if (key != cache_key) {
    cache_key = key;
    map = ws::viz::Heatmap{};
    map.cols = g.cols;
    map.rows = g.rows;
    map.categories = true;
    map.values.assign(size_t(g.cols) * size_t(g.rows), NAN);
    thread_at.assign(size_t(g.cols) * size_t(g.rows), -1);
    for (uint64_t tid = 0; tid < b.count(); ++tid) {
      const size_t at = size_t(g.row[tid]) * size_t(g.cols) + size_t(g.col[tid]);
      map.values[at] = float(tid / 32);
      thread_at[at] = int64_t(tid);
    }
  }
  map.line = cell_px >= 6 ? 1.0f / cell_px : 0.0f;
  ImVec2 o = ImGui::GetCursorScreenPos();
  o = ImVec2(std::floor(o.x), std::floor(o.y));
  ImGui::SetCursorScreenPos(o);
  grid_min = o;
  cell = cell_px;
  cols = g.cols;
  rows = g.rows;
  std::string err;
  const ImVec4 empty = vc.background;
  if (!canvas.show(ImVec2(float(g.cols) * cell, float(g.rows) * cell), ws::viz::hash_mix(key, uint64_t(vc.background.x * 1000)),
                   [&](std::string& e) { return renderer.draw(map, empty, e); }, err))
    ImGui::TextColored(vc.conflict, "cannot draw the block: %s", err.c_str());
  hovered_thread = -1;
  if (ImGui::IsItemHovered()) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int c = int((mp.x - o.x) / cell), r = int((mp.y - o.y) / cell);
    if (c >= 0 && c < g.cols && r >= 0 && r < g.rows) hovered_thread = thread_at[size_t(r) * size_t(g.cols) + size_t(c)];
  }
}

// The selected instruction in every warp: its lanes that issued it outlined in the selected warp,
// the lanes idle there (inactive, or their warp never issued it) darkened in every warp.
void BlockLayoutView::paint_lanes(const Trace& t, const BlockGrid& g, const Event* e, const ws::viz::ViewColors& vc) {
  if (!e) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Dim3 b = t.launch.block;
  for (uint32_t w = 0; uint64_t(w) * 32 < b.count(); ++w) {
    const Event* x = w == e->warp ? e : same_instruction(t, *e, w);
    const uint32_t mask = x ? x->mask : 0u;
    for (int l = 0; l < 32; ++l) {
      const uint64_t tid = uint64_t(w) * 32 + uint64_t(l);
      if (tid >= b.count()) break;
      const ImVec2 p(grid_min.x + float(g.col[tid]) * cell, grid_min.y + float(g.row[tid]) * cell);
      if (!((mask >> l) & 1u))
        dl->AddRectFilled(p, ImVec2(p.x + cell, p.y + cell), IM_COL32(0, 0, 0, 150));
      else if (w == e->warp)
        dl->AddRect(p, ImVec2(p.x + cell, p.y + cell), ImGui::ColorConvertFloat4ToU32(vc.selection), 0, 0, std::max(1.0f, cell / 8));
    }
  }
}

// Each warp's number: inside its cells where their box holds "warp 3" (or "3"), on a dark plate;
// else over the grid for a warp that lies along its top row and under it for one along its bottom
// row; else said left out.
void BlockLayoutView::paint_warp_numbers(Dim3 b, const BlockGrid& g, bool bands) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float th = ImGui::GetTextLineHeight();
  int unlabelled = 0;
  for (uint64_t w = 0; w * 32 < b.count(); ++w) {
    const uint64_t first = w * 32, last = std::min<uint64_t>(b.count(), first + 32) - 1;
    int c0 = g.col[first], c1 = c0, r0 = g.row[first], r1 = r0;
    for (uint64_t t = first; t <= last; ++t)
      c0 = std::min(c0, g.col[t]), c1 = std::max(c1, g.col[t]), r0 = std::min(r0, g.row[t]), r1 = std::max(r1, g.row[t]);
    const bool solid = uint64_t(c1 - c0 + 1) * uint64_t(r1 - r0 + 1) == last - first + 1;
    const ImVec2 lo(grid_min.x + float(c0) * cell, grid_min.y + float(r0) * cell);
    const ImVec2 hi(grid_min.x + float(c1 + 1) * cell, grid_min.y + float(r1 + 1) * cell);
    char longer[24], shorter[24];
    std::snprintf(longer, sizeof longer, "warp %llu", static_cast<unsigned long long>(w));
    std::snprintf(shorter, sizeof shorter, "%llu", static_cast<unsigned long long>(w));
    const char* text = nullptr;
    for (const char* candidate : {longer, shorter})
      if (!text && solid && ImGui::CalcTextSize(candidate).x + 4 <= hi.x - lo.x && th <= hi.y - lo.y) text = candidate;
    if (text) {
      const ImVec2 ts = ImGui::CalcTextSize(text);
      const ImVec2 at(std::floor((lo.x + hi.x - ts.x) / 2), std::floor((lo.y + hi.y - ts.y) / 2));
      dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), IM_COL32(0, 0, 0, 170), 2.0f);
      dl->AddText(at, IM_COL32(255, 255, 255, 255), text);
      continue;
    }
    const float tw = ImGui::CalcTextSize(longer).x;
    const bool top = r0 == 0 && r1 == 0, bottom = r0 == g.rows - 1 && r1 == g.rows - 1;
    if (!bands || (!top && !bottom) || tw > hi.x - lo.x + 0.5f * ImGui::GetFontSize()) {
      ++unlabelled;
      continue;
    }
    const float y = top ? grid_min.y - th - 1 : grid_min.y + float(g.rows) * cell + 1;
    dl->AddText(ImVec2(std::floor((lo.x + hi.x - tw) / 2), y), ImGui::GetColorU32(ImGuiCol_Text), longer);
  }
  if (unlabelled > 0) left_out.push_back("the numbers of " + std::to_string(unlabelled) + " warps (cells too small)");
}

void BlockLayoutView::thread_tooltip(Session& s, const Trace& t, const Event* e) {
  const uint64_t tid = uint64_t(hovered_thread);
  const Dim3 th = t.thread_index(uint32_t(tid / 32), uint32_t(tid % 32));
  ImGui::SetTooltip("threadIdx (%u,%u,%u), thread %llu\nwarp %llu, lane %llu\nclick: select this warp and lane", th.x, th.y, th.z,
                    static_cast<unsigned long long>(tid), static_cast<unsigned long long>(tid / 32),
                    static_cast<unsigned long long>(tid % 32));
  if (!ImGui::IsMouseClicked(ImGuiMouseButton_Left)) return;
  s.sel.warp = uint32_t(tid / 32);
  s.sel.lane = int(tid % 32);
  // The same site in the new warp, if it has it.
  auto [first, last] = analysis::block_events(t, s.sel.block);
  for (size_t i = first; i < last; ++i)
    if (t.events[i].warp == s.sel.warp && (e ? t.events[i].site == e->site : t.events[i].type == EventType::Access)) {
      const int lane = s.sel.lane;
      s.select_event(int64_t(i));
      s.sel.lane = lane;
      break;
    }
  ++s.sel_version;
}

// The selected instruction's footprint: sectors and lines, or wavefronts.
void BlockLayoutView::draw_footprint(const Trace& t, const Event* e) {
  if (!e || e->type != EventType::Access) return;
  const analysis::InstructionMetrics m = analysis::metrics_of(t, *e);
  const Allocation* a = e->alloc < t.allocations.size() ? &t.allocations[e->alloc] : nullptr;
  ImGui::TextWrapped("Outlined: warp %u's %d active lanes at %s (%s %s %s); darkened: lanes of every warp idle there.", e->warp,
                     std::popcount(e->mask), site_label(t, e->site).c_str(), to_string(e->space), to_string(e->kind),
                     a ? a->name.c_str() : "?");
  if (e->space == MemSpace::Global)
    ImGui::TextWrapped("Footprint: %u sector%s of 32 B in %u line%s of 128 B; %llu B requested, %llu B moved (%.0f%%).",
                       m.global.sectors, m.global.sectors == 1 ? "" : "s", m.global.lines, m.global.lines == 1 ? "" : "s",
                       static_cast<unsigned long long>(m.global.bytes_requested), static_cast<unsigned long long>(m.global.bytes_moved),
                       100 * m.global.efficiency);
  else
    ImGui::TextWrapped("Shared memory: %u wavefront%s, %u bank conflict%s.", m.shared.wavefronts, m.shared.wavefronts == 1 ? "" : "s",
                       m.shared.conflicts, m.shared.conflicts == 1 ? "" : "s");
}

}  // namespace ws::app
