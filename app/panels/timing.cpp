// Timing panel (issue 8): the real kernels timed on the GPU next to the pictures, the lecture's
// table beside CUB, live series and sweeps; without a GPU, the emulator's counts (views/timing.cpp).
#include "panels/panels.h"
#include "timing_runner.h"
#include "views/views.h"

namespace ws::app {

TimingViewState& timing_view_state() {
  static TimingViewState s;
  return s;
}

void draw_timing() { draw_timing_view(session(), timing_runner(), timing_view_state()); }

}  // namespace ws::app
