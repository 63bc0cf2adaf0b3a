// The plot widget's drawing and mouse handling (the arithmetic is in plot_axis.cpp).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ws/viz/colormap.h"
#include "ws/viz/plot.h"

#include <imgui_internal.h>  // SetItemUsingMouseWheel

namespace ws::viz {

namespace {

struct Mapper {
  PlotRange r;
  ImVec2 a0, a1;  // plotting rectangle
  float x(double v) const { return a0.x + float((v - r.x0) / (r.x1 - r.x0)) * (a1.x - a0.x); }
  float y(double v) const { return a1.y - float((v - r.y0) / (r.y1 - r.y0)) * (a1.y - a0.y); }
  double inv_x(float px) const { return r.x0 + double(px - a0.x) / double(a1.x - a0.x) * (r.x1 - r.x0); }
  double inv_y(float py) const { return r.y0 + double(a1.y - py) / double(a1.y - a0.y) * (r.y1 - r.y0); }
};

ImU32 series_color(const PlotSeries& s, int index) {
  return category_u32(s.color >= 0 ? s.color : index);
}

std::string value_text(double v, const PlotAxis& axis) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return axis.unit.empty() ? std::string(buf) : std::string(buf) + " " + axis.unit;
}

std::string x_text(const PlotSpec& spec, double x) {
  if (!spec.categories.empty()) {
    const long k = std::lround(x);
    if (k >= 0 && size_t(k) < spec.categories.size()) return spec.categories[size_t(k)];
  }
  return value_text(x, spec.x);
}

// Dashed horizontal line.
void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float dash, float thickness) {
  for (float x = a.x; x < b.x; x += 2 * dash) dl->AddLine(ImVec2(x, a.y), ImVec2(std::min(x + dash, b.x), b.y), col, thickness);
}

// What one drawing of a plot shares between its steps: where it is, its colours and sizes, the
// plotting rectangle and its mapping, the mouse.
struct Frame {
  ImDrawList* dl = nullptr;
  ViewColors vc;
  ImU32 text = 0, dim = 0, grid = 0;
  float em = 0, line_h = 0;
  ImVec2 p0, size;
  std::vector<double> yticks;
  std::vector<std::string> ylabels;
  ImVec2 a0, a1;  // the plotting rectangle
  Mapper m;
  bool hovered = false;
  ImVec2 mouse;
};

Frame frame_at(ImVec2 size) {
  Frame f;
  f.vc = view_colors();
  f.text = ImGui::ColorConvertFloat4ToU32(f.vc.text);
  f.dim = ImGui::ColorConvertFloat4ToU32(f.vc.text_dim);
  ImVec4 grid_c = f.vc.text_dim;
  grid_c.w = 0.25f;
  f.grid = ImGui::ColorConvertFloat4ToU32(grid_c);
  f.em = ImGui::GetFontSize();
  f.line_h = ImGui::GetTextLineHeight();
  f.p0 = ImGui::GetCursorScreenPos();
  f.size = ImVec2(std::max(size.x, 10 * f.em), std::max(size.y, 8 * f.em));
  f.dl = ImGui::GetWindowDrawList();
  return f;
}

// Header: title on the left, then the legend, then the y axis' title; returns the y under them.
// The legend is a row of swatches under the title (outside the data, so it never hides a point),
// wrapping onto more rows when the plot is narrow; only with more than one series (one series is
// named by the title).
float draw_header(const PlotSpec& spec, const Frame& f) {
  const float em = f.em, line_h = f.line_h;
  float top = f.p0.y;
  if (!spec.title.empty()) {
    f.dl->AddText(ImVec2(f.p0.x, top), f.text, spec.title.c_str());
    top += line_h + 0.2f * em;
  }
  if (spec.series.size() > 1) {
    const float sw = 0.8f * em, gap = 1.2f * em;
    float x = f.p0.x;
    for (size_t i = 0; i < spec.series.size(); ++i) {
      const float w = sw + 0.4f * em + ImGui::CalcTextSize(spec.series[i].name.c_str()).x;
      if (x > f.p0.x && x + w > f.p0.x + f.size.x) {
        x = f.p0.x;
        top += line_h;
      }
      f.dl->AddRectFilled(ImVec2(x, top + 0.15f * line_h), ImVec2(x + sw, top + 0.85f * line_h),
                          series_color(spec.series[i], int(i)));
      f.dl->AddText(ImVec2(x + sw + 0.4f * em, top), f.text, spec.series[i].name.c_str());
      x += w + gap;
    }
    top += line_h + 0.2f * em;
  }
  const std::string ytitle = spec.y.title();
  if (!ytitle.empty()) {
    f.dl->AddText(ImVec2(f.p0.x, top), f.dim, ytitle.c_str());
    top += line_h + 0.3f * em;
  }
  return top;
}

// The y ticks (their label width sets the left margin), the plotting rectangle below `top`, and
// room at the top of a fitted range for labels above bars and points.
void place_area(const PlotSpec& spec, PlotState& st, Frame& f, float top) {
  const float em = f.em, line_h = f.line_h;
  const PlotRange& r = st.range;
  const float plot_h_guess = f.size.y - (top - f.p0.y) - 2.5f * line_h;
  const int max_yticks = std::clamp(int(plot_h_guess / (2.2f * line_h)), 2, 10);
  f.yticks = nice_ticks(r.y0, r.y1, max_yticks);
  const double ystep = nice_step(r.y0, r.y1, max_yticks);
  float label_w = 0;
  for (double v : f.yticks) {
    f.ylabels.push_back(format_tick(v, ystep));
    label_w = std::max(label_w, ImGui::CalcTextSize(f.ylabels.back().c_str()).x);
  }
  f.a0 = ImVec2(f.p0.x + label_w + 0.6f * em, top + 0.3f * em);
  const bool x_title = !spec.x.title().empty();
  f.a1 = ImVec2(f.p0.x + f.size.x - 0.5f * em, f.p0.y + f.size.y - line_h * (x_title ? 2.2f : 1.2f) - 0.3f * em);
  bool any_labels = false;
  for (const PlotSeries& s : spec.series) any_labels |= !s.labels.empty();
  if (any_labels && !st.user_range && f.a1.y - f.a0.y > 3 * line_h) {
    const double frac = double(1.4f * line_h / (f.a1.y - f.a0.y));
    st.range.y1 += (st.range.y1 - st.range.y0) * frac / (1 - frac);
  }
  st.area_min = f.a0;
  st.area_max = f.a1;
  f.m = Mapper{st.range, f.a0, f.a1};
}

// Frame, grid, y ticks; x ticks (categories, or numbers) and the x axis' title.
void draw_axes(const PlotSpec& spec, const Frame& f) {
  const float em = f.em;
  const ImVec2 a0 = f.a0, a1 = f.a1;
  const PlotRange& r = f.m.r;
  f.dl->AddRectFilled(a0, a1, ImGui::ColorConvertFloat4ToU32(f.vc.empty));
  for (size_t i = 0; i < f.yticks.size(); ++i) {
    const float y = f.m.y(f.yticks[i]);
    if (y < a0.y - 0.5f || y > a1.y + 0.5f) continue;
    f.dl->AddLine(ImVec2(a0.x, y), ImVec2(a1.x, y), f.grid);
    const ImVec2 ts = ImGui::CalcTextSize(f.ylabels[i].c_str());
    f.dl->AddText(ImVec2(a0.x - 0.3f * em - ts.x, y - ts.y * 0.5f), f.dim, f.ylabels[i].c_str());
  }
  if (!spec.categories.empty()) {
    // Skip labels that would overlap: every k-th category.
    float widest = 0;
    for (const std::string& c : spec.categories) widest = std::max(widest, ImGui::CalcTextSize(c.c_str()).x);
    const float per_cat = (a1.x - a0.x) / float(std::max(1e-9, r.x1 - r.x0));
    const int every = std::max(1, int(std::ceil((widest + 0.6f * em) / std::max(1.0f, per_cat))));
    for (size_t i = 0; i < spec.categories.size(); i += size_t(every)) {
      const float x = f.m.x(double(i));
      if (x < a0.x - 1 || x > a1.x + 1) continue;
      const ImVec2 ts = ImGui::CalcTextSize(spec.categories[i].c_str());
      f.dl->AddText(ImVec2(x - ts.x * 0.5f, a1.y + 0.2f * em), f.dim, spec.categories[i].c_str());
    }
  } else {
    const float widest = ImGui::CalcTextSize("0000.00").x;
    const int max_xticks = std::clamp(int((a1.x - a0.x) / (widest + em)), 2, 12);
    const std::vector<double> xticks = nice_ticks(r.x0, r.x1, max_xticks);
    const double xstep = nice_step(r.x0, r.x1, max_xticks);
    for (double v : xticks) {
      const float x = f.m.x(v);
      f.dl->AddLine(ImVec2(x, a0.y), ImVec2(x, a1.y), f.grid);
      const std::string s = format_tick(v, xstep);
      const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
      f.dl->AddText(ImVec2(x - ts.x * 0.5f, a1.y + 0.2f * em), f.dim, s.c_str());
    }
  }
  if (!spec.x.title().empty()) {
    const std::string xt = spec.x.title();
    const ImVec2 ts = ImGui::CalcTextSize(xt.c_str());
    f.dl->AddText(ImVec2((a0.x + a1.x - ts.x) * 0.5f, a1.y + f.line_h + 0.4f * em), f.dim, xt.c_str());
  }
}

// Mouse: hover, wheel zoom, drag pan, double-click fit. The wheel scrolls the panel around the
// plot unless the plot was clicked (until the mouse leaves it) or Ctrl is held: a plot in a
// scrolling panel is not zoomed by a passing wheel.
void handle_mouse(PlotState& st, Frame& f) {
  const ImVec2 a0 = f.a0, a1 = f.a1;
  ImGui::SetCursorScreenPos(a0);
  ImGui::InvisibleButton("plot-area", ImVec2(std::max(1.0f, a1.x - a0.x), std::max(1.0f, a1.y - a0.y)));
  f.hovered = ImGui::IsItemHovered();
  f.mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsItemClicked()) st.engaged = true;
  if (!f.hovered) st.engaged = false;
  if (f.hovered && (st.engaged || ImGui::GetIO().KeyCtrl)) {
    ImGui::SetItemUsingMouseWheel();  // the panel does not scroll while the plot zooms
    const float wheel = ImGui::GetIO().MouseWheel;
    if (wheel != 0) {
      const double z = std::pow(0.85, double(wheel));
      if (ImGui::GetIO().KeyShift) zoom_range(st.range.y0, st.range.y1, f.m.inv_y(f.mouse.y), z);
      else zoom_range(st.range.x0, st.range.x1, f.m.inv_x(f.mouse.x), z);
      st.user_range = true;
    }
  }
  if (f.hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) st.user_range = false;
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f)) {
    const ImVec2 d = ImGui::GetIO().MouseDelta;
    const double dx = double(d.x) / double(a1.x - a0.x) * (st.range.x1 - st.range.x0);
    const double dy = double(d.y) / double(a1.y - a0.y) * (st.range.y1 - st.range.y0);
    st.range.x0 -= dx, st.range.x1 -= dx;
    st.range.y0 += dy, st.range.y1 += dy;
    st.user_range = true;
  }
}

// One bar series, `offset` from each x inside its group, with whiskers and labels; a hovered bar
// is outlined and taken.
void draw_bars(const PlotSeries& s, int si, double offset, double bar_w, PlotState& st, const Frame& f, float& best_d2) {
  const float em = f.em;
  const ImU32 col = series_color(s, si);
  const PlotRange& r = f.m.r;
  for (size_t i = 0; i < s.y.size(); ++i) {
    if (!std::isfinite(s.y[i])) continue;
    const double xc = (i < s.x.size() ? s.x[i] : double(i)) + offset;
    const double base = std::clamp(0.0, r.y0, r.y1);  // bars grow from 0 (or the visible bottom)
    const ImVec2 b0(f.m.x(xc - bar_w / 2) + 1, f.m.y(s.y[i]));
    const ImVec2 b1(f.m.x(xc + bar_w / 2) - 1, f.m.y(base));
    const ImVec2 lo(std::min(b0.x, b1.x), std::min(b0.y, b1.y)), hi(std::max(b0.x, b1.x), std::max(b0.y, b1.y));
    f.dl->AddRectFilled(lo, hi, col);
    ++st.drawn_bars;
    if (f.hovered && f.mouse.x >= lo.x && f.mouse.x <= hi.x && f.mouse.y >= lo.y - 0.5f * em && f.mouse.y <= hi.y) {
      st.hovered_series = si, st.hovered_point = int(i);
      best_d2 = 0;
      f.dl->AddRect(lo, hi, ImGui::ColorConvertFloat4ToU32(f.vc.selection), 0, 0, 2.0f);
    }
    float top = lo.y;  // the label goes above the bar and its whisker
    if (i < s.y_lo.size() && i < s.y_hi.size() && std::isfinite(s.y_lo[i]) && std::isfinite(s.y_hi[i])) {
      const float xm = (lo.x + hi.x) * 0.5f;
      const float w0 = f.m.y(s.y_lo[i]), w1 = f.m.y(s.y_hi[i]);
      f.dl->AddLine(ImVec2(xm, w0), ImVec2(xm, w1), f.text, 1.5f);
      f.dl->AddLine(ImVec2(xm - 0.25f * em, w1), ImVec2(xm + 0.25f * em, w1), f.text, 1.5f);
      top = std::min(top, std::min(w0, w1));
    }
    if (i < s.labels.size() && !s.labels[i].empty()) {
      const ImVec2 ts = ImGui::CalcTextSize(s.labels[i].c_str());
      f.dl->AddText(ImVec2((lo.x + hi.x - ts.x) * 0.5f, top - ts.y - 0.1f * em), f.text, s.labels[i].c_str());
    }
  }
}

// One series of lines or points, with whiskers and labels; the point nearest the mouse (closer
// than best_d2) is taken.
void draw_points(const PlotSeries& s, int si, PlotState& st, const Frame& f, float& best_d2) {
  const ImU32 col = series_color(s, si);
  auto xv = [&](size_t i) { return i < s.x.size() ? s.x[i] : double(i); };
  std::vector<ImVec2> pts;
  for (size_t i = 0; i < s.y.size(); ++i)
    if (std::isfinite(s.y[i])) pts.emplace_back(f.m.x(xv(i)), f.m.y(s.y[i]));
  if (s.style == PlotStyle::Lines && pts.size() > 1)
    f.dl->AddPolyline(pts.data(), int(pts.size()), col, ImDrawFlags_None, std::max(1.5f, 0.12f * f.em));
  const float radius = std::max(2.0f, (s.style == PlotStyle::Points ? 0.28f : 0.2f) * f.em);
  size_t k = 0;
  for (size_t i = 0; i < s.y.size(); ++i) {
    if (!std::isfinite(s.y[i])) continue;
    const ImVec2 p = pts[k++];
    if (pts.size() <= 400 || s.style == PlotStyle::Points) f.dl->AddCircleFilled(p, radius, col);
    ++st.drawn_points;
    if (i < s.y_lo.size() && i < s.y_hi.size())
      f.dl->AddLine(ImVec2(p.x, f.m.y(s.y_lo[i])), ImVec2(p.x, f.m.y(s.y_hi[i])), col, 1.5f);
    if (i < s.labels.size() && !s.labels[i].empty()) {
      const ImVec2 ts = ImGui::CalcTextSize(s.labels[i].c_str());
      f.dl->AddText(ImVec2(p.x - ts.x * 0.5f, p.y - ts.y - radius), f.text, s.labels[i].c_str());
    }
    if (f.hovered) {
      const float dx = f.mouse.x - p.x, dy = f.mouse.y - p.y;
      if (dx * dx + dy * dy < best_d2) {
        best_d2 = dx * dx + dy * dy;
        st.hovered_series = si, st.hovered_point = int(i);
      }
    }
  }
}

// Reference lines with their label at the right end, on a background box (bars and their labels
// may be under it).
void draw_reference_lines(const PlotSpec& spec, const Frame& f) {
  const float em = f.em;
  for (const PlotLine& l : spec.lines) {
    const float y = f.m.y(l.y);
    dashed_line(f.dl, ImVec2(f.a0.x, y), ImVec2(f.a1.x, y), f.text, 0.5f * em, 1.5f);
    if (l.label.empty()) continue;
    const ImVec2 ts = ImGui::CalcTextSize(l.label.c_str());
    ImVec2 t0(f.a1.x - ts.x - 0.5f * em, y - ts.y - 0.15f * em);
    if (t0.y < f.a0.y) t0.y = y + 0.15f * em;  // no room above the line: below it
    ImVec4 bg = f.vc.background;
    bg.w = 0.8f;
    f.dl->AddRectFilled(ImVec2(t0.x - 0.2f * em, t0.y), ImVec2(f.a1.x - 0.1f * em, t0.y + ts.y + 0.1f * em),
                        ImGui::ColorConvertFloat4ToU32(bg), 0.2f * em);
    f.dl->AddText(t0, f.text, l.label.c_str());
  }
}

// The data, clipped to the plotting rectangle: bar series side by side in each group, then lines
// and points, then the reference lines.
void draw_data(const PlotSpec& spec, PlotState& st, const Frame& f) {
  f.dl->PushClipRect(f.a0, f.a1, true);
  int bar_series = 0;
  for (const PlotSeries& s : spec.series) bar_series += s.style == PlotStyle::Bars;
  const double group_w = 0.8;
  const double bar_w = bar_series ? group_w / bar_series : group_w;
  int bar_index = 0;
  st.drawn_bars = st.drawn_points = 0;
  st.hovered_series = st.hovered_point = -1;
  float best_d2 = (0.6f * f.em) * (0.6f * f.em);
  for (size_t si = 0; si < spec.series.size(); ++si) {
    const PlotSeries& s = spec.series[si];
    if (s.style == PlotStyle::Bars) draw_bars(s, int(si), -group_w / 2 + bar_w * (bar_index++ + 0.5), bar_w, st, f, best_d2);
    else draw_points(s, int(si), st, f, best_d2);
  }
  draw_reference_lines(spec, f);
  f.dl->PopClipRect();
  f.dl->AddRect(f.a0, f.a1, f.dim);
}

// The tooltip beside the hovered point or bar (or how to fit a zoomed plot).
void draw_tooltip(const PlotSpec& spec, const PlotState& st, bool hovered) {
  if (st.hovered_series < 0) {
    if (hovered && st.user_range) ImGui::SetTooltip("double-click: fit the data");
    return;
  }
  const PlotSeries& s = spec.series[size_t(st.hovered_series)];
  const size_t i = size_t(st.hovered_point);
  const double x = i < s.x.size() ? s.x[i] : double(i);
  ImGui::BeginTooltip();
  if (!s.name.empty()) ImGui::TextUnformatted(s.name.c_str());
  const std::string xs = (spec.x.label.empty() ? std::string("x") : spec.x.label) + ": " + x_text(spec, x);
  const std::string ys = (spec.y.label.empty() ? std::string("y") : spec.y.label) + ": " + value_text(s.y[i], spec.y);
  ImGui::TextUnformatted(xs.c_str());
  ImGui::TextUnformatted(ys.c_str());
  if (i < s.y_lo.size() && i < s.y_hi.size()) {
    const std::string sp = "spread: " + value_text(s.y_lo[i], spec.y) + " .. " + value_text(s.y_hi[i], spec.y);
    ImGui::TextUnformatted(sp.c_str());
  }
  if (i < s.labels.size() && !s.labels[i].empty()) ImGui::TextUnformatted(s.labels[i].c_str());
  ImGui::EndTooltip();
}

}  // namespace

void draw_plot(const char* id, const PlotSpec& spec, PlotState& st, ImVec2 size) {
  ImGui::PushID(id);
  Frame f = frame_at(size);
  // The range: the user's zoom, or the data's.
  if (!st.user_range || !st.range.valid()) {
    st.range = fit_range(spec);
    st.user_range = false;
  }
  place_area(spec, st, f, draw_header(spec, f));
  draw_axes(spec, f);
  handle_mouse(st, f);
  draw_data(spec, st, f);
  draw_tooltip(spec, st, f.hovered);
  // Leave the cursor below the whole widget.
  ImGui::SetCursorScreenPos(ImVec2(f.p0.x, f.p0.y + f.size.y));
  ImGui::Dummy(ImVec2(f.size.x, 0));
  ImGui::PopID();
}

}  // namespace ws::viz
