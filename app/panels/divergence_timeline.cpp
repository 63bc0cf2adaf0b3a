// Divergence timeline: lanes x issue steps per warp.
#include "panels/panels.h"

namespace ws::app {

// Placeholder until the view lands; the sentence is what the finished panel shows.
void draw_divergence_timeline() {
  draw_placeholder(
      "Will show each warp's 32 lanes against issue steps: which lanes were active, where the warp split and reconverged, where it waited at __syncthreads().");
}

}  // namespace ws::app
