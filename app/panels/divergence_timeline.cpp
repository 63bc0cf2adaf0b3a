// Divergence timeline panel (views/divergence_timeline.cpp).
#include "panels/panels.h"
#include "views/views.h"

namespace ws::app {

TimelineState& timeline_state() {
  static TimelineState s;
  return s;
}

void draw_divergence_timeline() { draw_divergence_timeline_view(session(), timeline_state()); }

}  // namespace ws::app
