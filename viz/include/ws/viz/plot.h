// warpscope's plot widget: line plots, grouped bar charts and category plots with axes, ticks,
// units, a legend, hover values, zoom/pan and CSV export. One widget for every plot of the viewer
// (ImPlot is not packaged for us). Plots hold tens to thousands of points, so they are drawn with
// ImGui's draw list; large grids go through our shaders instead (heatmap.h, timeline.h).
//
//   ws::viz::PlotSpec spec;
//   spec.title = "Reduction variants, n = 2^24 int";
//   spec.y = {"time", "ms"};
//   spec.categories = {"1", "2", "3", "cub"};            // bar chart: x is a category index
//   spec.series.push_back({"H200", {}, {2.1, 1.2, 0.6, 0.05}, ws::viz::PlotStyle::Bars});
//   static ws::viz::PlotState state;                     // zoom, pan, last hover (lives across frames)
//   ws::viz::draw_plot("variants", spec, state, ImVec2(40 * em, 20 * em));
//   std::string csv = ws::viz::to_csv(spec);             // series,category,time (ms)
//
// Mouse: once the plot is clicked (until the mouse leaves it), or with Ctrl held, the wheel zooms
// the x axis around the pointer (with Shift: the y axis); otherwise it scrolls the panel. Dragging pans,
// a double click fits the data again. Hovering a point or a bar shows its series, x and y.
#pragma once

#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

namespace ws::viz {

struct PlotAxis {
  std::string label;  // "time"
  std::string unit;   // "ms" (shown as "time (ms)")
  std::string title() const { return unit.empty() ? label : label + " (" + unit + ")"; }
};

enum class PlotStyle { Lines, Points, Bars };

struct PlotSeries {
  PlotSeries() = default;
  PlotSeries(std::string name_, std::vector<double> x_, std::vector<double> y_, PlotStyle style_ = PlotStyle::Lines,
             int color_ = -1)
      : name(std::move(name_)), x(std::move(x_)), y(std::move(y_)), style(style_), color(color_) {}
  std::string name;
  std::vector<double> x;  // empty: 0, 1, 2... (the category index in a category plot)
  std::vector<double> y;
  PlotStyle style = PlotStyle::Lines;
  int color = -1;  // Okabe-Ito category color index; -1: the series' position
  // Optional spread per point (drawn as whiskers): y_lo[i] <= y[i] <= y_hi[i].
  std::vector<double> y_lo, y_hi;
  // Optional text above each bar / point ("2.33x").
  std::vector<std::string> labels;
};

// A horizontal reference line ("read ceiling 4300 GB/s").
struct PlotLine {
  double y = 0;
  std::string label;
};

struct PlotSpec {
  std::string title;
  PlotAxis x, y;
  // When not empty, x is a category axis: category i sits at x = i, labelled categories[i]; bar
  // series are grouped side by side within each category.
  std::vector<std::string> categories;
  std::vector<PlotSeries> series;
  std::vector<PlotLine> lines;
  bool y_from_zero = true;  // the auto range includes 0 (bars and rates should)
};

struct PlotRange {
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  bool valid() const { return x1 > x0 && y1 > y0; }
};

// Lives across frames: the user's zoom/pan (or auto-fit), and where the last draw put things.
struct PlotState {
  bool user_range = false;  // false: fit the data every frame
  bool engaged = false;     // clicked, and the mouse has stayed on it: the wheel zooms it
  PlotRange range;
  // Last draw (screen coordinates): the plotting rectangle inside the axes.
  ImVec2 area_min{0, 0}, area_max{0, 0};
  int hovered_series = -1, hovered_point = -1;
  int drawn_bars = 0, drawn_points = 0;  // what the last draw put on screen (tests)
};

// Draws the plot at the cursor, `size` pixels in all (axes, legend and title included).
void draw_plot(const char* id, const PlotSpec& spec, PlotState& state, ImVec2 size);

// --- The pure parts (no ImGui context needed; unit-tested) -----------------------------------

// Tick positions for [lo, hi]: multiples of a "nice" step (1, 2 or 5 times a power of ten), at
// most `max_ticks` of them, all inside the range. Degenerate ranges (hi <= lo) give {lo}.
std::vector<double> nice_ticks(double lo, double hi, int max_ticks);
// The step nice_ticks() chose for the same arguments.
double nice_step(double lo, double hi, int max_ticks);
// A tick label with as many decimals as the step needs ("0.25", "1500", "2.5e+06" past 1e6).
std::string format_tick(double v, double step);
// The range that fits every series (and lines) with 5% headroom on y; bars and categories get
// half a category of margin on x, numeric x axes 2%; y starts at 0 when spec.y_from_zero and all
// values are >= 0.
PlotRange fit_range(const PlotSpec& spec);
// Zooms [lo, hi] by `factor` (< 1 zooms in) keeping `anchor` where it is.
void zoom_range(double& lo, double& hi, double anchor, double factor);
// The plot's data as CSV: a header "series,<x title or category>,<y title>[,low,high][,label]",
// then one row per point. Fields with commas or quotes are quoted as RFC 4180 says.
std::string to_csv(const PlotSpec& spec);

}  // namespace ws::viz
