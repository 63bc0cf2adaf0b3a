// The list of panels. Adding a panel: a draw_* body in its own file, one line here, one slot in
// layout.cpp.
#include "panels/panels.h"

#include <imgui.h>

namespace ws::app {

namespace {
const PanelInfo kPanels[] = {
    {"reduction-lab", "Reduction lab", draw_reduction_lab},
    {"memory-lab", "Memory lab", draw_memory_lab},
    {"warp-access-map", "Warp access map", draw_warp_access_map},
    {"bank-conflict-heatmap", "Bank-conflict heatmap", draw_bank_conflict_heatmap},
    {"divergence-timeline", "Divergence timeline", draw_divergence_timeline},
    {"block-layout", "Block layout", draw_block_layout},
    {"memory-heatmap", "Memory heatmap", draw_memory_heatmap},
    {"source-view", "Source view", draw_source_view},
    {"playback", "Playback", draw_playback_panel},
    {"timing", "Timing", draw_timing},
};
}  // namespace

std::span<const PanelInfo> all_panels() { return kPanels; }

int find_panel(std::string_view id) {
  for (size_t i = 0; i < std::size(kPanels); ++i)
    if (id == kPanels[i].id) return static_cast<int>(i);
  return -1;
}

void draw_placeholder(const char* what_it_will_show) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", what_it_will_show);
  ImGui::PopStyleColor();
}

}  // namespace ws::app
