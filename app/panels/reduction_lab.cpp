// Reduction lab panel (issue 6): the lecture's variants, toggled live (views/lab.cpp).
#include "panels/panels.h"
#include "views/views.h"

namespace ws::app {

LabState& lab_state() {
  static LabState s;
  return s;
}

void draw_reduction_lab() { draw_lab(session(), lab_state()); }

}  // namespace ws::app
