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

}  // namespace

void draw_plot(const char* id, const PlotSpec& spec, PlotState& st, ImVec2 size) {
  ImGui::PushID(id);
  const ViewColors vc = view_colors();
  const ImU32 text = ImGui::ColorConvertFloat4ToU32(vc.text);
  const ImU32 dim = ImGui::ColorConvertFloat4ToU32(vc.text_dim);
  ImVec4 grid_c = vc.text_dim;
  grid_c.w = 0.25f;
  const ImU32 grid = ImGui::ColorConvertFloat4ToU32(grid_c);
  const float em = ImGui::GetFontSize();
  const float line_h = ImGui::GetTextLineHeight();

  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  size.x = std::max(size.x, 10 * em);
  size.y = std::max(size.y, 8 * em);
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // The range: the user's zoom, or the data's.
  if (!st.user_range || !st.range.valid()) {
    st.range = fit_range(spec);
    st.user_range = false;
  }
  const PlotRange& r = st.range;

  // Header: title on the left, the y axis' title under it.
  float top = p0.y;
  if (!spec.title.empty()) {
    dl->AddText(ImVec2(p0.x, top), text, spec.title.c_str());
    top += line_h + 0.2f * em;
  }
  // Legend: a row of swatches under the title (outside the data, so it never hides a point),
  // wrapping onto more rows when the plot is narrow. Only with more than one series (one series is
  // named by the title).
  if (spec.series.size() > 1) {
    const float sw = 0.8f * em, gap = 1.2f * em;
    float x = p0.x;
    for (size_t i = 0; i < spec.series.size(); ++i) {
      const float w = sw + 0.4f * em + ImGui::CalcTextSize(spec.series[i].name.c_str()).x;
      if (x > p0.x && x + w > p0.x + size.x) {
        x = p0.x;
        top += line_h;
      }
      dl->AddRectFilled(ImVec2(x, top + 0.15f * line_h), ImVec2(x + sw, top + 0.85f * line_h),
                        series_color(spec.series[i], int(i)));
      dl->AddText(ImVec2(x + sw + 0.4f * em, top), text, spec.series[i].name.c_str());
      x += w + gap;
    }
    top += line_h + 0.2f * em;
  }
  const std::string ytitle = spec.y.title();
  if (!ytitle.empty()) {
    dl->AddText(ImVec2(p0.x, top), dim, ytitle.c_str());
    top += line_h + 0.3f * em;
  }

  // Ticks (their label width sets the left margin).
  const float plot_h_guess = size.y - (top - p0.y) - 2.5f * line_h;
  const int max_yticks = std::clamp(int(plot_h_guess / (2.2f * line_h)), 2, 10);
  const std::vector<double> yticks = nice_ticks(r.y0, r.y1, max_yticks);
  const double ystep = nice_step(r.y0, r.y1, max_yticks);
  std::vector<std::string> ylabels;
  float label_w = 0;
  for (double v : yticks) {
    ylabels.push_back(format_tick(v, ystep));
    label_w = std::max(label_w, ImGui::CalcTextSize(ylabels.back().c_str()).x);
  }
  const ImVec2 a0(p0.x + label_w + 0.6f * em, top + 0.3f * em);
  const bool x_title = !spec.x.title().empty();
  const ImVec2 a1(p0.x + size.x - 0.5f * em, p0.y + size.y - line_h * (x_title ? 2.2f : 1.2f) - 0.3f * em);
  // Labels above bars and points need a line of room at the top of a fitted range.
  bool any_labels = false;
  for (const PlotSeries& s : spec.series) any_labels |= !s.labels.empty();
  if (any_labels && !st.user_range && a1.y - a0.y > 3 * line_h) {
    const double frac = double(1.4f * line_h / (a1.y - a0.y));
    st.range.y1 += (st.range.y1 - st.range.y0) * frac / (1 - frac);
  }
  st.area_min = a0;
  st.area_max = a1;
  Mapper m{r, a0, a1};

  // Frame, grid and y ticks.
  dl->AddRectFilled(a0, a1, ImGui::ColorConvertFloat4ToU32(vc.empty));
  for (size_t i = 0; i < yticks.size(); ++i) {
    const float y = m.y(yticks[i]);
    if (y < a0.y - 0.5f || y > a1.y + 0.5f) continue;
    dl->AddLine(ImVec2(a0.x, y), ImVec2(a1.x, y), grid);
    const ImVec2 ts = ImGui::CalcTextSize(ylabels[i].c_str());
    dl->AddText(ImVec2(a0.x - 0.3f * em - ts.x, y - ts.y * 0.5f), dim, ylabels[i].c_str());
  }

  // x ticks: categories, or numbers.
  if (!spec.categories.empty()) {
    // Skip labels that would overlap: every k-th category.
    float widest = 0;
    for (const std::string& c : spec.categories) widest = std::max(widest, ImGui::CalcTextSize(c.c_str()).x);
    const float per_cat = (a1.x - a0.x) / float(std::max(1e-9, r.x1 - r.x0));
    const int every = std::max(1, int(std::ceil((widest + 0.6f * em) / std::max(1.0f, per_cat))));
    for (size_t i = 0; i < spec.categories.size(); i += size_t(every)) {
      const float x = m.x(double(i));
      if (x < a0.x - 1 || x > a1.x + 1) continue;
      const ImVec2 ts = ImGui::CalcTextSize(spec.categories[i].c_str());
      dl->AddText(ImVec2(x - ts.x * 0.5f, a1.y + 0.2f * em), dim, spec.categories[i].c_str());
    }
  } else {
    const float widest = ImGui::CalcTextSize("0000.00").x;
    const int max_xticks = std::clamp(int((a1.x - a0.x) / (widest + em)), 2, 12);
    const std::vector<double> xticks = nice_ticks(r.x0, r.x1, max_xticks);
    const double xstep = nice_step(r.x0, r.x1, max_xticks);
    for (double v : xticks) {
      const float x = m.x(v);
      dl->AddLine(ImVec2(x, a0.y), ImVec2(x, a1.y), grid);
      const std::string s = format_tick(v, xstep);
      const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
      dl->AddText(ImVec2(x - ts.x * 0.5f, a1.y + 0.2f * em), dim, s.c_str());
    }
  }
  if (x_title) {
    const std::string xt = spec.x.title();
    const ImVec2 ts = ImGui::CalcTextSize(xt.c_str());
    dl->AddText(ImVec2((a0.x + a1.x - ts.x) * 0.5f, a1.y + line_h + 0.4f * em), dim, xt.c_str());
  }

  // Mouse: hover, wheel zoom, drag pan, double-click fit.
  ImGui::SetCursorScreenPos(a0);
  ImGui::InvisibleButton("plot-area", ImVec2(std::max(1.0f, a1.x - a0.x), std::max(1.0f, a1.y - a0.y)));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  // The wheel scrolls the panel around the plot unless the plot was clicked (until the mouse
  // leaves it) or Ctrl is held: a plot in a scrolling panel is not zoomed by a passing wheel.
  if (ImGui::IsItemClicked()) st.engaged = true;
  if (!hovered) st.engaged = false;
  if (hovered && (st.engaged || ImGui::GetIO().KeyCtrl)) {
    ImGui::SetItemUsingMouseWheel();  // the panel does not scroll while the plot zooms
    const float wheel = ImGui::GetIO().MouseWheel;
    if (wheel != 0) {
      const double f = std::pow(0.85, double(wheel));
      if (ImGui::GetIO().KeyShift) zoom_range(st.range.y0, st.range.y1, m.inv_y(mouse.y), f);
      else zoom_range(st.range.x0, st.range.x1, m.inv_x(mouse.x), f);
      st.user_range = true;
    }
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) st.user_range = false;
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f)) {
    const ImVec2 d = ImGui::GetIO().MouseDelta;
    const double dx = double(d.x) / double(a1.x - a0.x) * (st.range.x1 - st.range.x0);
    const double dy = double(d.y) / double(a1.y - a0.y) * (st.range.y1 - st.range.y0);
    st.range.x0 -= dx, st.range.x1 -= dx;
    st.range.y0 += dy, st.range.y1 += dy;
    st.user_range = true;
  }

  // Data, clipped to the plotting rectangle.
  dl->PushClipRect(a0, a1, true);
  int bar_series = 0;
  for (const PlotSeries& s : spec.series) bar_series += s.style == PlotStyle::Bars;
  const double group_w = 0.8;
  const double bar_w = bar_series ? group_w / bar_series : group_w;
  int bar_index = 0;
  st.drawn_bars = st.drawn_points = 0;
  st.hovered_series = st.hovered_point = -1;
  float best_d2 = (0.6f * em) * (0.6f * em);
  for (size_t si = 0; si < spec.series.size(); ++si) {
    const PlotSeries& s = spec.series[si];
    const ImU32 col = series_color(s, int(si));
    auto xv = [&](size_t i) { return i < s.x.size() ? s.x[i] : double(i); };
    if (s.style == PlotStyle::Bars) {
      const double offset = -group_w / 2 + bar_w * (bar_index + 0.5);
      for (size_t i = 0; i < s.y.size(); ++i) {
        if (!std::isfinite(s.y[i])) continue;
        const double xc = xv(i) + offset;
        const double base = std::clamp(0.0, r.y0, r.y1);  // bars grow from 0 (or the visible bottom)
        const ImVec2 b0(m.x(xc - bar_w / 2) + 1, m.y(s.y[i]));
        const ImVec2 b1(m.x(xc + bar_w / 2) - 1, m.y(base));
        const ImVec2 lo(std::min(b0.x, b1.x), std::min(b0.y, b1.y)), hi(std::max(b0.x, b1.x), std::max(b0.y, b1.y));
        dl->AddRectFilled(lo, hi, col);
        ++st.drawn_bars;
        if (hovered && mouse.x >= lo.x && mouse.x <= hi.x && mouse.y >= lo.y - 0.5f * em && mouse.y <= hi.y) {
          st.hovered_series = int(si), st.hovered_point = int(i);
          best_d2 = 0;
          dl->AddRect(lo, hi, ImGui::ColorConvertFloat4ToU32(vc.selection), 0, 0, 2.0f);
        }
        float top = lo.y;  // the label goes above the bar and its whisker
        if (i < s.y_lo.size() && i < s.y_hi.size() && std::isfinite(s.y_lo[i]) && std::isfinite(s.y_hi[i])) {
          const float xm = (lo.x + hi.x) * 0.5f;
          const float w0 = m.y(s.y_lo[i]), w1 = m.y(s.y_hi[i]);
          dl->AddLine(ImVec2(xm, w0), ImVec2(xm, w1), text, 1.5f);
          dl->AddLine(ImVec2(xm - 0.25f * em, w1), ImVec2(xm + 0.25f * em, w1), text, 1.5f);
          top = std::min(top, std::min(w0, w1));
        }
        if (i < s.labels.size() && !s.labels[i].empty()) {
          const ImVec2 ts = ImGui::CalcTextSize(s.labels[i].c_str());
          dl->AddText(ImVec2((lo.x + hi.x - ts.x) * 0.5f, top - ts.y - 0.1f * em), text, s.labels[i].c_str());
        }
      }
      ++bar_index;
      continue;
    }
    // Lines and points.
    std::vector<ImVec2> pts;
    for (size_t i = 0; i < s.y.size(); ++i)
      if (std::isfinite(s.y[i])) pts.emplace_back(m.x(xv(i)), m.y(s.y[i]));
    if (s.style == PlotStyle::Lines && pts.size() > 1)
      dl->AddPolyline(pts.data(), int(pts.size()), col, ImDrawFlags_None, std::max(1.5f, 0.12f * em));
    const float radius = std::max(2.0f, (s.style == PlotStyle::Points ? 0.28f : 0.2f) * em);
    size_t k = 0;
    for (size_t i = 0; i < s.y.size(); ++i) {
      if (!std::isfinite(s.y[i])) continue;
      const ImVec2 p = pts[k++];
      if (pts.size() <= 400 || s.style == PlotStyle::Points) dl->AddCircleFilled(p, radius, col);
      ++st.drawn_points;
      if (i < s.y_lo.size() && i < s.y_hi.size())
        dl->AddLine(ImVec2(p.x, m.y(s.y_lo[i])), ImVec2(p.x, m.y(s.y_hi[i])), col, 1.5f);
      if (i < s.labels.size() && !s.labels[i].empty()) {
        const ImVec2 ts = ImGui::CalcTextSize(s.labels[i].c_str());
        dl->AddText(ImVec2(p.x - ts.x * 0.5f, p.y - ts.y - radius), text, s.labels[i].c_str());
      }
      if (hovered) {
        const float dx = mouse.x - p.x, dy = mouse.y - p.y;
        if (dx * dx + dy * dy < best_d2) {
          best_d2 = dx * dx + dy * dy;
          st.hovered_series = int(si), st.hovered_point = int(i);
        }
      }
    }
  }
  // Reference lines with their label at the right end.
  for (const PlotLine& l : spec.lines) {
    const float y = m.y(l.y);
    dashed_line(dl, ImVec2(a0.x, y), ImVec2(a1.x, y), text, 0.5f * em, 1.5f);
    if (!l.label.empty()) {
      // On a background box: bars and their labels may be under it.
      const ImVec2 ts = ImGui::CalcTextSize(l.label.c_str());
      ImVec2 t0(a1.x - ts.x - 0.5f * em, y - ts.y - 0.15f * em);
      if (t0.y < a0.y) t0.y = y + 0.15f * em;  // no room above the line: below it
      ImVec4 bg = vc.background;
      bg.w = 0.8f;
      dl->AddRectFilled(ImVec2(t0.x - 0.2f * em, t0.y), ImVec2(a1.x - 0.1f * em, t0.y + ts.y + 0.1f * em),
                        ImGui::ColorConvertFloat4ToU32(bg), 0.2f * em);
      dl->AddText(t0, text, l.label.c_str());
    }
  }
  dl->PopClipRect();
  dl->AddRect(a0, a1, dim);

  // Tooltip beside the hovered point or bar.
  if (st.hovered_series >= 0) {
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
  } else if (hovered && st.user_range) {
    ImGui::SetTooltip("double-click: fit the data");
  }

  // Leave the cursor below the whole widget.
  ImGui::SetCursorScreenPos(ImVec2(p0.x, p0.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
  ImGui::PopID();
}

}  // namespace ws::viz
