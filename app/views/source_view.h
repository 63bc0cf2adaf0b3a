// Source view: the kernel's source with per-line numbers from the analysis in a gutter.
#pragma once

#include "views/view.h"

#include <cstdint>

namespace ws::app {

struct SourceView final : View {
  void draw(Session& s) override;

  uint64_t scrolled_for = ~0ull;  // scroll to the selected line once per selection
};

}  // namespace ws::app
