// Warp access map: one warp instruction. The 32 lanes on top; below, memory as the hardware serves
// it (shared: 32 banks, one row per wavefront; global: 32-byte sectors in 128-byte lines).
#pragma once

#include "views/access_map_layout.h"
#include "views/view.h"

#include <imgui.h>

#include <cstdint>
#include <string>

namespace ws::app {

struct AccessMapView final : View {
  static constexpr ViewOption kOptions[] = {kControlsOption};
  void draw(Session& s) override;
  ImVec2 natural_size(Session& s) override;
  ImVec2 least_size(Session& s) override;

  // Last draw (screen coordinates of the current ImGui context).
  int64_t event = -1;           // the instruction drawn
  bool shared = false;
  int wavefront_rows = 0;       // rows drawn below the lanes (shared: one per wavefront)
  int sector_boxes = 0;         // global: 32-byte sectors drawn
  ImVec2 lanes_min{0, 0};       // top-left of lane 0's box
  ImVec2 grid_min{0, 0};        // top-left of the bank grid / sector strip
  float cell_w = 0, row_h = 0;  // one bank column / lane box width, one wavefront row height
  float line_w = 0;             // global: a 128-byte line's width
  float label_px = 0;           // the size of the element numbers in the cells (hidden below 9 px)
  float lane_label_px = 0;      // the size of the lane and bank numbers
  int pair_lane = -1;           // the lane of a racing pair's access drawn, outlined (-1: none)

 private:
  ImVec2 slide_size(Session& s, bool least);
  // Where the picture's layout lengths land on screen, and the smallest type drawn.
  struct Painter {
    ImDrawList* dl;
    ImVec2 o;
    float min_label_px;
    ImVec2 at(float x, float y) const { return ImVec2(o.x + x, o.y + y); }
  };
  void draw_words(Session& s, const Trace& t, int64_t ev, const AccessMapCaption& cap, int index, int count);
  void draw_picture(Session& s, const Trace& t, const analysis::InstructionMetrics& m, const Event& e, const Allocation* a);
  void paint_row_labels(const Painter& p, const AccessMapLayout& L);
  int paint_lanes(const Painter& p, Session& s, const AccessMapLayout& L, const Event& e);
  std::string paint_shared(const Painter& p, const AccessMapLayout& L, const Allocation* a);
  std::string paint_global(const Painter& p, const AccessMapLayout& L, const analysis::InstructionMetrics& m);
  void paint_links(const Painter& p, Session& s, const AccessMapLayout& L, int hovered_lane);
  void draw_legend(bool elements_hidden, const char* wall_note);
  void lane_tooltip(Session& s, const Trace& t, const analysis::InstructionMetrics& m, const Event& e, const Allocation* a,
                    int lane);
};

}  // namespace ws::app
