// Memory heatmap: how often each element of an array was touched.
#include "panels/panels.h"

namespace ws::app {

// Placeholder until the view lands; the sentence is what the finished panel shows.
void draw_memory_heatmap() {
  draw_placeholder(
      "Will show every element of an array colored by how often it was read, written or updated atomically.");
}

}  // namespace ws::app
