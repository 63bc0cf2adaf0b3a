// Source view: the kernel's source with per-line numbers.
#include "panels/panels.h"

namespace ws::app {

// Placeholder until the view lands; the sentence is what the finished panel shows.
void draw_source_view() {
  draw_placeholder(
      "Will show the kernel's source with per-line numbers (accesses, wavefronts, bank conflicts, sectors per request, active lanes); a click selects that line's accesses.");
}

}  // namespace ws::app
