// Warp access map: lanes of one warp-instruction above, memory below.
#include "panels/panels.h"

namespace ws::app {

// Placeholder until the view lands; the sentence is what the finished panel shows.
void draw_warp_access_map() {
  draw_placeholder(
      "Will show the 32 lanes of the selected warp-instruction above and memory below (shared-memory banks, or global sectors and 128-byte lines), one line per lane, conflicts colored.");
}

}  // namespace ws::app
