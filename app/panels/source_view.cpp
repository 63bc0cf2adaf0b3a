// Source view panel (views/source_view.cpp).
#include "panels/panels.h"
#include "views/views.h"

namespace ws::app {

SourceViewState& source_view_state() {
  static SourceViewState s;
  return s;
}

void draw_source_view() { draw_source_view_body(session(), source_view_state()); }

}  // namespace ws::app
