// A grid of values drawn as colored cells by one shader (shaders/heatmap.frag): the primitive
// under the bank-conflict heatmap, the divergence timeline and the memory heatmap. Draw it into a
// Framebuffer and show that texture in a panel with ImGui::Image (uv0 = (0,1), uv1 = (1,0): GL
// textures are bottom-up).
//
//   ws::viz::Heatmap h{.cols = 32, .rows = n, .values = counts, .vmin = 0, .vmax = 32};
//   fb.bind();  renderer.draw(h, empty_color, err);
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace ws::viz {

struct Heatmap {
  int cols = 0;
  int rows = 0;
  std::vector<float> values;  // rows * cols, row 0 on top; NaN = no data
  float vmin = 0.0f;          // mapped to the dark end of the color map
  float vmax = 1.0f;          // mapped to the bright end
  float line = 0.0f;          // grid line width as a fraction of a cell (0 = no lines)
  // false: viridis between vmin and vmax; true: each value is a category index drawn in
  // ws::viz::category(index) (warps, kinds): colorblind-safe, cycling through 8 colors.
  bool categories = false;
  // true: a log scale between vmin and vmax (ws::viz::scale_position).
  bool log_scale = false;
};

class HeatmapRenderer {
 public:
  HeatmapRenderer();
  ~HeatmapRenderer();
  HeatmapRenderer(const HeatmapRenderer&) = delete;
  HeatmapRenderer& operator=(const HeatmapRenderer&) = delete;

  // Fills the current viewport. Returns false (and says why) if the shader cannot be built or the
  // data does not match cols x rows.
  bool draw(const Heatmap& h, ImVec4 empty_color, std::string& error);

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace ws::viz
