// Pieces every view shares: the "why is there nothing to draw" text, the selection bar, legends,
// tooltips, and sizes in font units.
#pragma once

#include "model/session.h"

#include <imgui.h>

#include <cstdint>
#include <string>

namespace ws::app {

// Shows why there is nothing to draw (running, refused, faulted, empty, no recorded block) and
// returns false then. With a trace, shows a truncation / fault banner when there is one; `brief`
// (a picture without controls, as in a lesson, whose header says the fault in full): one line.
bool view_ready(Session& s, const char* what, bool brief = false);
// "reduce.cuh:47" for a site of the trace.
std::string site_label(const Trace& t, uint32_t site);
// A count with thousands separators ("1,727,145"): whole-grid numbers are read off a wall.
std::string grouped(uint64_t v);
// Launch / block / warp pickers on one line (what the view is looking at).
void selection_bar(Session& s, bool warp);
// A color scale legend: `steps` swatches from vmin to vmax with tick labels and a caption.
// `max_width` (> 0) keeps the legend and its caption inside a column narrower than the window
// (e.g. the heatmap beside its per-site table).
// (`log_scale`: ticks at vmin + 0, 1, 3, 7, 15... placed as the heatmap's log scale places them.)
void viridis_legend(float vmin, float vmax, const char* caption, bool integers, float max_width = 0,
                    bool log_scale = false);
// ImGui::SetTooltip, but lines wrap at 50 font widths (or 80% of the display if narrower):
// tooltips that quote a source line stay inside a narrow view (and a projected picture) instead
// of running off its edge.
void wrapped_tooltip(const char* fmt, ...) IM_FMTARGS(1);
// A small colored square and a label, on the current line.
void swatch(ImVec4 color, const char* label);
// Sizes in font units.
inline float em() { return ImGui::GetFontSize(); }

}  // namespace ws::app
