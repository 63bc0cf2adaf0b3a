// Block layout: the threads of a block in their x/y/z shape, colored by warp.
#pragma once

#include "views/view.h"

#include "ws/trace/trace.h"

#include "ws/viz/canvas.h"
#include "ws/viz/colormap.h"
#include "ws/viz/heatmap.h"

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ws::app {

// Where each thread of a block goes in the picture: x across, y down, z planes side by side (or
// one under another when they do not fit), in the block's real shape. A row longer than the room
// is cut into pieces of whole warps stacked one under another, a column taller than the room into
// pieces side by side, with an empty line between pieces: 1024x1 stays a long strip cut in pieces,
// never the 32x32 square it would look like wrapped.
struct BlockGrid {
  int cols = 0, rows = 0;        // the grid drawn, the empty lines between pieces included
  std::vector<int> col, row;     // per thread (linear index: x fastest, then y, then z)
  int x_piece = 0, y_piece = 0;  // threads along x / rows along y per piece
  int x_pieces = 1, y_pieces = 1;
  bool planes_across = true;     // z planes side by side (else one under another)
  std::string caption;           // how the picture is cut, in words ("" when it is not)
};
// `max_cols` x `max_rows`: the cells that fit at the smallest readable cell size.
BlockGrid block_grid(Dim3 block, int max_cols, int max_rows);

struct BlockLayoutView final : View {
  static constexpr ViewOption kOptions[] = {kControlsOption};
  void draw(Session& s) override;
  ImVec2 natural_size(Session& s) override;

  ws::viz::Canvas canvas;
  ws::viz::HeatmapRenderer renderer;
  ws::viz::Heatmap map;
  std::vector<int64_t> thread_at;  // per cell of `map`: the thread drawn there, or -1
  uint64_t cache_key = ~0ull;
  int edit_block[3] = {0, 0, 0};
  std::string synced_key;  // the request the shape fields show
  bool editing = false;    // the shape is being typed in
  // Last draw.
  ImVec2 grid_min{0, 0};
  float cell = 0;
  int cols = 0, rows = 0;
  int64_t hovered_thread = -1;

 private:
  void draw_controls(Session& s, Dim3 b);
  void paint_grid(Session& s, const BlockGrid& g, float cell_px, const ws::viz::ViewColors& vc);
  void paint_lanes(const Trace& t, const BlockGrid& g, const Event* e, const ws::viz::ViewColors& vc);
  void paint_warp_numbers(Dim3 b, const BlockGrid& g, bool bands);
  void thread_tooltip(Session& s, const Trace& t, const Event* e);
  void draw_footprint(const Trace& t, const Event* e);
};

}  // namespace ws::app
