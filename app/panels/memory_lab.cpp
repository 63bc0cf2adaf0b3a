// Memory lab: access patterns to experiment with.
#include "panels/panels.h"

namespace ws::app {

// Placeholder until the view lands; the sentence is what the finished panel shows.
void draw_memory_lab() {
  draw_placeholder(
      "Will let you pick an access pattern (stride, offset, element width, padding) and show at once the bank conflicts, sectors per request and bytes moved.");
}

}  // namespace ws::app
