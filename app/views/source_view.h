// Source view: the kernel's source with per-line numbers from the analysis in a gutter.
#pragma once

#include "views/view.h"

#include "ws/analysis/analysis.h"
#include "ws/trace/trace.h"

#include <imgui.h>

#include <string>
#include <vector>

#include <cstdint>

namespace ws::app {

struct SourceView final : View {
  static constexpr ViewOption kOptions[] = {kControlsOption};
  void draw(Session& s) override;

  uint64_t scrolled_for = ~0ull;  // scroll to the selected line once per selection
  uint64_t focus_seen = 0;        // the kernel file panel's last picked line (KernelFileWatch::focus)
  uint32_t focus_line = 0;        // that line, outlined until another is selected
  uint64_t focus_version = 0;     // Session::sel_version when it was picked

 private:
  struct Listing;
  void fill_gutter(const Trace& t, const analysis::Report* rep, Listing& L);
  bool mark_lines(Session& s, const Trace& t, Listing& L);
  std::vector<std::string> wrapped(const Listing& L, int i, float row_w) const;
  void select_line(Session& s, const Listing& L, uint32_t ln);
  void line_tooltip(Session& s, const Trace& t, const Listing& L, const analysis::LineMetrics& lm, uint32_t ln);
  void paint_marks(const Listing& L, int i, ImVec2 p, float row_w);
  void draw_line(Session& s, const Trace& t, const Listing& L, int i, float row_w);
  void draw_heads(const Listing& L);
  void draw_picture(Session& s, const Trace& t, const Listing& L);
  void draw_scrolling(Session& s, const Trace& t, const Listing& L, bool scroll_to_focus);
};

}  // namespace ws::app
