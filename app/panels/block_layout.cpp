// Block layout panel (views/block_layout.cpp).
#include "panels/panels.h"
#include "views/views.h"

namespace ws::app {

BlockLayoutState& block_layout_state() {
  static BlockLayoutState s;
  return s;
}

void draw_block_layout() { draw_block_layout_view(session(), block_layout_state()); }

}  // namespace ws::app
