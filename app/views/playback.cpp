// Playback: a scrubber over the selected block's issue steps (its events in issue order). Every
// view follows the cursor: the timeline dims what has not issued yet, the memory heatmap counts
// only what has, and the access map shows the instruction just issued.
#include "views/playback.h"
#include "views/view_common.h"

#include "ws/analysis/views.h"

#include "ws/viz/colormap.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ws::app {

void PlaybackView::draw(Session& s) {
  if (!view_ready(s, "playback steps through a block's instructions.", !controls)) return;
  const Trace& t = *s.trace();
  auto [first, last] = analysis::block_events(t, s.sel.block);
  const int n = int(last - first);
  const float E = em();
  if (n == 0) {
    ImGui::TextDisabled("Block %u has no recorded events.", s.sel.block);
    return;
  }
  const int cur = s.sel.cursor < 0 ? n : int(s.sel.cursor);
  if (ImGui::Button(s.playing ? "Pause" : "Play")) {
    if (!s.playing && cur >= n) s.set_cursor(0);
    s.playing = !s.playing;
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) s.playing = false, s.set_cursor(std::max(cur - 1, 0));
  ImGui::SameLine();
  if (ImGui::ArrowButton("##fwd", ImGuiDir_Right)) s.playing = false, s.set_cursor(std::min(cur + 1, n));
  ImGui::SameLine();
  if (ImGui::Button("All")) s.playing = false, s.set_cursor(-1);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x - 6.5f * E, 6 * E));
  int v = cur;
  if (ImGui::SliderInt("##cursor", &v, 0, n, "step %d")) s.playing = false, s.set_cursor(v);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x, 3 * E));
  ImGui::DragFloat("##speed", &s.play_speed, 0.5f, 1.0f, 500.0f, "%.0f/s");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("playback speed: issue steps per second");
  if (s.sel.cursor < 0) {
    ImGui::TextDisabled("block %u: all %d events shown (press Play to watch them issue)", s.sel.block, n);
  } else if (cur == 0) {
    ImGui::TextDisabled("block %u: step 0 of %d, nothing issued yet", s.sel.block, n);
  } else {
    const Event& e = t.events[first + size_t(cur) - 1];
    ImGui::Text("step %d of %d: warp %u, %s %s at %s, %d lanes", cur, n, e.warp,
                e.type == EventType::Access ? to_string(e.space) : "", e.type == EventType::Access ? to_string(e.kind) : to_string(e.type),
                site_label(t, e.site).c_str(), std::popcount(e.mask));
  }
}

}  // namespace ws::app
