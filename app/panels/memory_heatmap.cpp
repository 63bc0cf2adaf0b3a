// Memory heatmap panel (views/memory_heatmap.cpp).
#include "panels/panels.h"
#include "views/views.h"

namespace ws::app {

MemoryHeatmapState& memory_heatmap_state() {
  static MemoryHeatmapState s;
  return s;
}

void draw_memory_heatmap() { draw_memory_heatmap_view(session(), memory_heatmap_state()); }

}  // namespace ws::app
