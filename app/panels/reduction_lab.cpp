// Reduction lab: the lecture's reduction variants side by side.
#include "panels/panels.h"

namespace ws::app {

// Placeholder until the view lands; the sentence is what the finished panel shows.
void draw_reduction_lab() {
  draw_placeholder(
      "Will run the lecture's reduction variants (interleaved, sequential, warp shuffle, ...) for a chosen block size and n: result checked against the CPU, time, and what each step buys.");
}

}  // namespace ws::app
