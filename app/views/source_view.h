// Source view: the kernel's source with per-line numbers from the analysis in a gutter.
#pragma once

#include "views/view.h"

#include <cstdint>

namespace ws::app {

struct SourceView final : View {
  void draw(Session& s) override;

  uint64_t scrolled_for = ~0ull;  // scroll to the selected line once per selection
  uint64_t focus_seen = 0;        // the kernel file panel's last picked line (KernelFileWatch::focus)
  uint32_t focus_line = 0;        // that line, outlined until another is selected
  uint64_t focus_version = 0;     // Session::sel_version when it was picked
};

}  // namespace ws::app
