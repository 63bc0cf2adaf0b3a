// The panels of the viewer. Each panel is a body function in its own file (one .cpp per panel);
// panel_window.cpp wraps a body in a movable window with its "Save as PNG" actions, and the same
// body renders the panel alone for an export (ws::viz::render_panel).
//
// The bodies bind the views (app/views/) to the one session; Memory lab and Timing are still
// placeholders saying what they will show.
#pragma once

#include <span>
#include <string_view>

namespace ws::app {

struct PanelInfo {
  const char* id;     // stable: settings file, export file names, layout slots
  const char* title;  // window title
  void (*draw)();     // the body, between Begin and End
};

// All panels in a fixed order (the View menu lists them in this order).
std::span<const PanelInfo> all_panels();
// Index into all_panels(), or -1.
int find_panel(std::string_view id);

// A placeholder body: what the panel will show, in one or two wrapped sentences.
void draw_placeholder(const char* what_it_will_show);

void draw_reduction_lab();
void draw_memory_lab();
void draw_warp_access_map();
void draw_bank_conflict_heatmap();
void draw_divergence_timeline();
void draw_block_layout();
void draw_memory_heatmap();
void draw_source_view();
void draw_timing();
void draw_playback_panel();

}  // namespace ws::app
