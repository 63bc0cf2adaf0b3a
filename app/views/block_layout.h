// Block layout: the threads of a block in their x/y/z shape, colored by warp.
#pragma once

#include "views/view.h"

#include "ws/viz/canvas.h"
#include "ws/viz/heatmap.h"

#include <imgui.h>

#include <cstdint>

namespace ws::app {

struct BlockLayoutView final : View {
  void draw(Session& s) override;

  ws::viz::Canvas canvas;
  ws::viz::HeatmapRenderer renderer;
  ws::viz::Heatmap map;
  uint64_t cache_key = ~0ull;
  int edit_block[3] = {0, 0, 0};
  // Last draw.
  ImVec2 grid_min{0, 0};
  float cell = 0;
  int cols = 0, rows = 0;
};

}  // namespace ws::app
