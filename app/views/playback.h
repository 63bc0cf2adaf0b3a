// Playback: a scrubber over the selected block's issue steps that every view follows.
#pragma once

#include "views/view.h"

namespace ws::app {

struct PlaybackView final : View {
  void draw(Session& s) override;
};

}  // namespace ws::app
