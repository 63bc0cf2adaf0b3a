// Warp access map panel: the selected warp instruction (views/access_map.cpp).
#include "panels/panels.h"
#include "views/views.h"

namespace ws::app {

AccessMapState& access_map_state() {
  static AccessMapState s;
  return s;
}

void draw_warp_access_map() { draw_access_map(session(), access_map_state()); }

}  // namespace ws::app
