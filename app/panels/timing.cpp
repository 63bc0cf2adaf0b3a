// Timing: live plots of kernel run times.
#include "panels/panels.h"

namespace ws::app {

// Placeholder until the view lands; the sentence is what the finished panel shows.
void draw_timing() {
  draw_placeholder(
      "Will plot the kernel's run times on the GPU (CUDA events) per variant and size, with bandwidth and the spread of repeated runs.");
}

}  // namespace ws::app
