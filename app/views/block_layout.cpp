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

void BlockLayoutView::draw(Session& s) {
  BlockLayoutView& st = *this;
  if (!view_ready(s, "the block layout shows the block's threads colored by warp.", !controls)) return;
  const Trace& t = *s.trace();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  const Dim3 b = t.launch.block;
  // The shape fields show the session's request (whichever panel made it) unless typed in.
  const RunRequest& req = s.last_request();
  const std::string request_key = Session::history_key(req.kernel, req.config);
  if (request_key != st.synced_key && !st.editing) {
    const Dim3 want = req.config.block.x ? req.config.block : b;
    st.edit_block[0] = int(want.x), st.edit_block[1] = int(want.y), st.edit_block[2] = int(want.z);
    st.synced_key = request_key;
  }

  // Shape editor (with controls; a picture shows the block it was given).
  if (st.controls) {
    ImGui::SetNextItemWidth(9 * E);
    ImGui::InputInt3("##shape", st.edit_block);
    st.editing = ImGui::IsItemActive();
    ImGui::SameLine();
    if (ImGui::Button("Run with this block")) {
      RunRequest r = s.last_request();
      r.config.block = {uint32_t(std::max(st.edit_block[0], 1)), uint32_t(std::max(st.edit_block[1], 1)),
                        uint32_t(std::max(st.edit_block[2], 1))};
      s.request(r);
    }
  }
  if (auto d = s.data(); d && !d->error.empty() && d->result.launches.empty()) ImGui::TextColored(vc.conflict, "%s", d->error.c_str());

  // The block in its shape (block_grid): cells no smaller than a third of the font, pieces of
  // whole warps where a row or column does not fit.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float foot_h = 5.5f * ImGui::GetTextLineHeightWithSpacing();
  // Cells of 0.6 em where the block fits so (a row cut into pieces if need be), else smaller.
  const float room_h = std::max(avail.y - foot_h, 4 * E);
  BlockGrid g;
  for (float min_cell : {std::floor(0.6f * E), std::floor(0.35f * E), 2.0f}) {
    min_cell = std::max(min_cell, 2.0f);
    g = block_grid(b, int(avail.x / min_cell), int(room_h / min_cell));
    if (float(g.cols) * min_cell <= avail.x && float(g.rows) * min_cell <= room_h) break;
  }
  const int cols = g.cols, rows = g.rows;
  ImGui::TextDisabled("block (%u,%u,%u) = %llu threads, %llu warps: x across, y down", b.x, b.y, b.z,
                      static_cast<unsigned long long>(b.count()), static_cast<unsigned long long>((b.count() + 31) / 32));
  if (!g.caption.empty()) ImGui::TextDisabled("%s", g.caption.c_str());
  uint64_t key = ws::viz::hash_mix(ws::viz::kHashSeed, s.data()->generation);
  key = ws::viz::hash_mix(key, s.sel.launch);
  key = ws::viz::hash_mix(key, uint64_t(cols) << 32 | uint64_t(rows));
  if (key != st.cache_key) {
    st.cache_key = key;
    st.map = ws::viz::Heatmap{};
    st.map.cols = cols;
    st.map.rows = rows;
    st.map.categories = true;
    st.map.values.assign(size_t(cols) * size_t(rows), NAN);
    st.thread_at.assign(size_t(cols) * size_t(rows), -1);
    for (uint64_t tid = 0; tid < b.count(); ++tid) {
      const size_t at = size_t(g.row[tid]) * size_t(cols) + size_t(g.col[tid]);
      st.map.values[at] = float(tid / 32);
      st.thread_at[at] = int64_t(tid);
    }
  }
  float cell = std::floor(std::min(avail.x / float(cols), room_h / float(rows)));
  cell = std::clamp(cell, 1.0f, 2.2f * E);
  st.map.line = cell >= 6 ? 1.0f / cell : 0.0f;
  ImVec2 o = ImGui::GetCursorScreenPos();
  o = ImVec2(std::floor(o.x), std::floor(o.y));
  ImGui::SetCursorScreenPos(o);
  st.grid_min = o;
  st.cell = cell;
  st.cols = cols;
  st.rows = rows;
  std::string err;
  const ImVec4 empty = vc.background;
  if (!st.canvas.show(ImVec2(cols * cell, rows * cell), ws::viz::hash_mix(key, uint64_t(vc.background.x * 1000)),
                      [&](std::string& e) { return st.renderer.draw(st.map, empty, e); }, err))
    ImGui::TextColored(vc.conflict, "cannot draw the block: %s", err.c_str());
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto cell_of = [&](uint64_t tid) { return ImVec2(o.x + float(g.col[tid]) * cell, o.y + float(g.row[tid]) * cell); };
  // Warp numbers where a warp's first cell is big enough to hold one.
  if (cell >= ImGui::CalcTextSize("00").x + 2)
    for (uint64_t w = 0; w * 32 < b.count(); ++w) {
      const ImVec2 p = cell_of(w * 32);
      char num[8];
      std::snprintf(num, sizeof num, "%llu", static_cast<unsigned long long>(w));
      dl->AddText(ImVec2(p.x + 2, p.y + (cell - ImGui::GetTextLineHeight()) / 2), IM_COL32(0, 0, 0, 255), num);
    }
  // The selected instruction's lanes.
  const Event* e = s.sel.event >= 0 && size_t(s.sel.event) < t.events.size() ? &t.events[size_t(s.sel.event)] : nullptr;
  if (e) {
    for (int l = 0; l < 32; ++l) {
      const uint64_t tid = uint64_t(e->warp) * 32 + uint64_t(l);
      if (tid >= b.count()) break;
      const ImVec2 p = cell_of(tid);
      if ((e->mask >> l) & 1u)
        dl->AddRect(p, ImVec2(p.x + cell, p.y + cell), ImGui::ColorConvertFloat4ToU32(vc.selection), 0, 0, std::max(1.0f, cell / 8));
      else
        dl->AddRectFilled(p, ImVec2(p.x + cell, p.y + cell), IM_COL32(0, 0, 0, 140));
    }
  }
  if (hovered) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int c = int((mp.x - o.x) / cell), r = int((mp.y - o.y) / cell);
    if (c >= 0 && c < cols && r >= 0 && r < rows) {
      const int64_t at = st.thread_at[size_t(r) * size_t(cols) + size_t(c)];
      if (at >= 0) {
        const uint64_t tid = uint64_t(at);
        const Dim3 th = t.thread_index(uint32_t(tid / 32), uint32_t(tid % 32));
        ImGui::SetTooltip("threadIdx (%u,%u,%u), thread %llu\nwarp %llu, lane %llu\nclick: select this warp and lane", th.x, th.y,
                          th.z, static_cast<unsigned long long>(tid), static_cast<unsigned long long>(tid / 32),
                          static_cast<unsigned long long>(tid % 32));
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
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
      }
    }
  }
  // Footprint of the selected instruction.
  if (e && e->type == EventType::Access) {
    const analysis::InstructionMetrics m = analysis::metrics_of(t, *e);
    const Allocation* a = e->alloc < t.allocations.size() ? &t.allocations[e->alloc] : nullptr;
    ImGui::TextWrapped("Outlined: warp %u's %d active lanes at %s (%s %s %s).", e->warp, std::popcount(e->mask),
                       site_label(t, e->site).c_str(), to_string(e->space), to_string(e->kind), a ? a->name.c_str() : "?");
    if (e->space == MemSpace::Global)
      ImGui::TextWrapped("Footprint: %u sector%s of 32 B in %u line%s of 128 B; %llu B requested, %llu B moved (%.0f%%).",
                         m.global.sectors, m.global.sectors == 1 ? "" : "s", m.global.lines, m.global.lines == 1 ? "" : "s",
                         static_cast<unsigned long long>(m.global.bytes_requested), static_cast<unsigned long long>(m.global.bytes_moved),
                         100 * m.global.efficiency);
    else
      ImGui::TextWrapped("Shared memory: %u wavefront%s, %u bank conflict%s.", m.shared.wavefronts, m.shared.wavefronts == 1 ? "" : "s",
                         m.shared.conflicts, m.shared.conflicts == 1 ? "" : "s");
  }
}

}  // namespace ws::app
