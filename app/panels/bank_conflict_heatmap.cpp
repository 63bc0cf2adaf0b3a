// Bank-conflict heatmap panel (views/bank_heatmap.cpp).
#include "panels/panels.h"
#include "views/views.h"

namespace ws::app {

BankHeatmapState& bank_heatmap_state() {
  static BankHeatmapState s;
  return s;
}

void draw_bank_conflict_heatmap() { draw_bank_heatmap(session(), bank_heatmap_state()); }

}  // namespace ws::app
