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

void BlockLayoutView::draw(Session& s) {
  BlockLayoutView& st = *this;
  if (!view_ready(s, "the block layout shows the block's threads colored by warp.")) return;
  const Trace& t = *s.trace();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  const Dim3 b = t.launch.block;
  if (st.edit_block[0] == 0) st.edit_block[0] = int(b.x), st.edit_block[1] = int(b.y), st.edit_block[2] = int(b.z);

  // Shape editor.
  ImGui::SetNextItemWidth(9 * E);
  ImGui::InputInt3("##shape", st.edit_block);
  ImGui::SameLine();
  if (ImGui::Button("Run with this block")) {
    RunRequest r = s.last_request();
    r.config.block = {uint32_t(std::max(st.edit_block[0], 1)), uint32_t(std::max(st.edit_block[1], 1)),
                      uint32_t(std::max(st.edit_block[2], 1))};
    s.request(r);
  }
  if (auto d = s.data(); d && !d->error.empty() && d->result.launches.empty()) ImGui::TextColored(vc.conflict, "%s", d->error.c_str());

  // Grid: x across, y down, z slices side by side. A 1D block wider than 32 wraps at 32 (a row
  // is then a warp).
  const bool one_d = b.y == 1 && b.z == 1;
  const int cols_per_slice = one_d ? int(std::min<uint32_t>(b.x, 32)) : int(b.x);
  const int rows = one_d ? int((b.x + 31) / 32) : int(b.y);
  const int slices = int(b.z);
  const int cols = cols_per_slice * slices + (slices - 1);  // a blank column between slices
  ImGui::TextDisabled("block (%u,%u,%u) = %llu threads, %llu warps%s", b.x, b.y, b.z, static_cast<unsigned long long>(b.count()),
                      static_cast<unsigned long long>((b.count() + 31) / 32), one_d && b.x > 32 ? "; 32 threads per row" : "");
  uint64_t key = ws::viz::hash_mix(ws::viz::kHashSeed, s.data()->generation);
  key = ws::viz::hash_mix(key, s.sel.launch);
  if (key != st.cache_key) {
    st.cache_key = key;
    st.map = ws::viz::Heatmap{};
    st.map.cols = cols;
    st.map.rows = rows;
    st.map.categories = true;
    st.map.values.assign(size_t(cols) * size_t(rows), NAN);
    for (uint64_t tid = 0; tid < b.count(); ++tid) {
      int c, r;
      if (one_d) {
        c = int(tid % 32), r = int(tid / 32);
      } else {
        const uint64_t x = tid % b.x, y = (tid / b.x) % b.y, z = tid / (uint64_t(b.x) * b.y);
        c = int(z) * (cols_per_slice + 1) + int(x), r = int(y);
      }
      st.map.values[size_t(r) * size_t(cols) + size_t(c)] = float(tid / 32);
    }
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float foot_h = 4.5f * ImGui::GetTextLineHeightWithSpacing();
  float cell = std::floor(std::min(avail.x / float(cols), std::max(avail.y - foot_h, 4 * E) / float(rows)));
  cell = std::clamp(cell, 2.0f, 2.2f * E);
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
  auto cell_of = [&](uint64_t tid) {
    if (one_d) return ImVec2(o.x + float(tid % 32) * cell, o.y + float(tid / 32) * cell);
    const uint64_t x = tid % b.x, y = (tid / b.x) % b.y, z = tid / (uint64_t(b.x) * b.y);
    return ImVec2(o.x + float(z * (cols_per_slice + 1) + x) * cell, o.y + float(y) * cell);
  };
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
      const float v = st.map.values[size_t(r) * size_t(cols) + size_t(c)];
      if (!std::isnan(v)) {
        uint64_t tid;
        if (one_d) tid = uint64_t(r) * 32 + uint64_t(c);
        else {
          const int z = c / (cols_per_slice + 1), x = c % (cols_per_slice + 1);
          tid = uint64_t(x) + uint64_t(r) * b.x + uint64_t(z) * b.x * b.y;
        }
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
