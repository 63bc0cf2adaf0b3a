// Memory heatmap: every element of every allocation the launch touched, colored by accesses,
// bank conflicts or first touch.
#pragma once

#include "views/view.h"

#include "ws/analysis/analysis.h"
#include "ws/analysis/views.h"
#include "ws/viz/canvas.h"
#include "ws/viz/heatmap.h"

#include <imgui.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ws::app {

struct MemoryHeatmapView final : View {
  static const ViewOption kOptions[3];  // (memory_heatmap.cpp)
  void draw(Session& s) override;
  ImVec2 natural_size(Session& s) override;
  ImVec2 least_size(Session& s) override;

  struct Alloc {
    ws::viz::Canvas canvas;
    ws::viz::HeatmapRenderer renderer;
    ws::viz::Heatmap map;
    analysis::ElementCounts counts;
    ImVec2 grid_min{0, 0};
    float cell = 0;    // a cell's width
    float cell_h = 0;  // and height: smaller where a picture must fit its box
    int cols = 0;
  };
  std::vector<std::unique_ptr<Alloc>> allocs;  // (GL objects do not move)
  uint64_t cache_key = ~0ull;
  // What the color says: 0 lane accesses, 1 bank conflicts (other words in the same bank and
  // pass, summed), 2 first touch (the event that touched the element first).
  int mode = 0;
  bool log_scale = false;  // the "scale" option
  std::vector<size_t> shown;  // the arrays the last draw showed, in order
  uint64_t shown_for = 0;     // for this run and colour (hash of the data's generation and the mode)

 private:
  ImVec2 slide_size(Session& s, float row_em);  // cells half an em wide, rows `row_em` tall
  void draw_header(Session& s);
  uint64_t compute(Session& s);
  void fill_map(Alloc& A, const Allocation& al, const analysis::Report* rep, size_t a);
  std::string choose_arrays(const Trace& t, const analysis::Report* rep, std::vector<size_t>& order);
  std::string title_of(const Trace& t, size_t a) const;
  float fit_cell_height(const Trace& t, const std::vector<size_t>& order, const std::vector<std::string>& notes, float legend_h,
                        float avail_w, float cell_max);
  float cell_width(size_t a, float avail_w, float cell_max) const;
  void draw_array(Session& s, const Trace& t, size_t a, float cell, float cell_h, float top, uint64_t key);
};

}  // namespace ws::app
