// Playback panel: a scrubber over the selected block's issue steps that every view follows.
#include "panels/panels.h"
#include "views/views.h"

namespace ws::app {

void draw_playback_panel() { draw_playback(session()); }

}  // namespace ws::app
