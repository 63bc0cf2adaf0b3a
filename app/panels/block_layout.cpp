// Block layout: the threads of a block colored by warp.
#include "panels/panels.h"

namespace ws::app {

// Placeholder until the view lands; the sentence is what the finished panel shows.
void draw_block_layout() {
  draw_placeholder(
      "Will show the threads of a block colored by warp: why dim3(16,16) and dim3(128,2) group threads differently.");
}

}  // namespace ws::app
