// Warp access map: one warp instruction. The 32 lanes on top; below, memory as the hardware serves
// it (shared: 32 banks, one row per wavefront; global: 32-byte sectors in 128-byte lines).
#pragma once

#include "views/view.h"

#include <imgui.h>

#include <cstdint>

namespace ws::app {

struct AccessMapView final : View {
  void draw(Session& s) override;

  // Last draw (screen coordinates of the current ImGui context).
  int64_t event = -1;           // the instruction drawn
  bool shared = false;
  int wavefront_rows = 0;       // rows drawn below the lanes (shared: one per wavefront)
  int sector_boxes = 0;         // global: 32-byte sectors drawn
  ImVec2 lanes_min{0, 0};       // top-left of lane 0's box
  ImVec2 grid_min{0, 0};        // top-left of the bank grid / sector strip
  float cell_w = 0, row_h = 0;  // one bank column / lane box width, one wavefront row height
  float label_px = 0;           // the size of the element numbers in the cells (hidden below 9 px)
  float lane_label_px = 0;      // the size of the lane and bank numbers
};

}  // namespace ws::app
