// Bank-conflict heatmap: banks x shared instructions of one warp or block (or per site for the
// launch); color = distinct words the bank served.
#pragma once

#include "views/view.h"

#include "ws/analysis/views.h"
#include "ws/viz/canvas.h"
#include "ws/viz/heatmap.h"

#include <imgui.h>

#include <cstdint>
#include <vector>

namespace ws::app {

enum class BankScope : int { Warp = 0, Block = 1, Launch = 2 };

struct BankHeatmapView final : View {
  void draw(Session& s) override;
  void set_option(std::string_view key, int choice) override;  // scope
  ImVec2 natural_size(Session& s) override;
  ImVec2 least_size(Session& s) override;

  BankScope scope = BankScope::Warp;
  ws::viz::Canvas canvas;
  ws::viz::HeatmapRenderer renderer;
  // Cached rows (recomputed when the data or the scope changes).
  uint64_t cache_key = ~0ull;
  std::vector<analysis::BankRow> rows;
  ws::viz::Heatmap map;
  // Last draw.
  ImVec2 grid_min{0, 0};
  float cell_w = 0, cell_h = 0;
  int first_row = 0, visible_rows = 0;
  float vmax = 1;

 private:
  ImVec2 slide_size(Session& s, float row_em);
  size_t rows_shown(Session& s);
};

}  // namespace ws::app
