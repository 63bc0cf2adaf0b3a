// Bank-conflict heatmap: bank x instruction (or source site).
#include "panels/panels.h"

namespace ws::app {

// Placeholder until the view lands; the sentence is what the finished panel shows.
void draw_bank_conflict_heatmap() {
  draw_placeholder(
      "Will show the 32 shared-memory banks against instructions or source sites, colored by how many lanes hit each bank.");
}

}  // namespace ws::app
