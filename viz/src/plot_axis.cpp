// The plot widget's arithmetic: tick placement, labels, ranges, zoom and CSV (no ImGui needed).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "ws/viz/plot.h"

namespace ws::viz {

double nice_step(double lo, double hi, int max_ticks) {
  if (!(hi > lo) || max_ticks < 2) return 0;
  const double raw = (hi - lo) / double(max_ticks - 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  // The smallest of 1, 2, 5, 10 times the magnitude that keeps the count within max_ticks.
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    const double step = m * mag;
    const double first = std::ceil(lo / step - 1e-9) * step;
    const int count = int(std::floor((hi - first) / step + 1e-9)) + 1;
    if (count <= max_ticks) return step;
  }
  return 10 * mag;
}

std::vector<double> nice_ticks(double lo, double hi, int max_ticks) {
  const double step = nice_step(lo, hi, max_ticks);
  if (step <= 0) return {lo};
  std::vector<double> ticks;
  const double first = std::ceil(lo / step - 1e-9);
  for (double k = first;; k += 1) {
    const double v = k * step;
    if (v > hi + step * 1e-9) break;
    ticks.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);  // no "-0"
    if (ticks.size() > size_t(max_ticks)) break;             // (rounding guard)
  }
  return ticks;
}

std::string format_tick(double v, double step) {
  char buf[48];
  const double a = std::max(std::fabs(v), std::fabs(step));
  if (a >= 1e6 || (a > 0 && a < 1e-4)) {
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
  }
  int decimals = 0;
  if (step > 0 && step < 1) decimals = std::min(6, int(std::ceil(-std::log10(step) - 1e-9)));
  // A step of 0.25 needs two decimals though log10 says one.
  if (step > 0) {
    const double scaled = step * std::pow(10.0, decimals);
    if (std::fabs(scaled - std::round(scaled)) > 1e-6 && decimals < 6) ++decimals;
  }
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

PlotRange fit_range(const PlotSpec& spec) {
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0;
  double y0 = x0, y1 = -x0;
  bool any_bars = false;
  for (const PlotSeries& s : spec.series) {
    any_bars |= s.style == PlotStyle::Bars;
    for (size_t i = 0; i < s.y.size(); ++i) {
      const double x = i < s.x.size() ? s.x[i] : double(i);
      const double y = s.y[i];
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
      double lo = y, hi = y;
      if (i < s.y_lo.size() && std::isfinite(s.y_lo[i])) lo = std::min(lo, s.y_lo[i]);
      if (i < s.y_hi.size() && std::isfinite(s.y_hi[i])) hi = std::max(hi, s.y_hi[i]);
      y0 = std::min(y0, lo);
      y1 = std::max(y1, hi);
    }
  }
  for (const PlotLine& l : spec.lines) {
    y0 = std::min(y0, l.y);
    y1 = std::max(y1, l.y);
  }
  if (!spec.categories.empty()) {
    x0 = std::min(x0, 0.0);
    x1 = std::max(x1, double(spec.categories.size() - 1));
  }
  PlotRange r;
  if (!(x1 >= x0)) x0 = 0, x1 = 1;  // no data at all
  if (!(y1 >= y0)) y0 = 0, y1 = 1;
  if (spec.y_from_zero && y0 >= 0) y0 = 0;
  if (any_bars || !spec.categories.empty()) {
    x0 -= 0.5;
    x1 += 0.5;
  }
  if (x1 - x0 <= 0) {  // one point
    x0 -= 0.5;
    x1 += 0.5;
  } else if (!any_bars && spec.categories.empty()) {
    const double pad = 0.02 * (x1 - x0);  // points at the ends are drawn whole
    x0 -= pad;
    x1 += pad;
  }
  if (y1 - y0 <= 0) {
    const double pad = y1 != 0 ? std::fabs(y1) * 0.5 : 1;
    y0 = spec.y_from_zero && y0 >= 0 ? 0 : y0 - pad;
    y1 += pad;
  }
  y1 += 0.05 * (y1 - y0);  // headroom for labels above bars
  r.x0 = x0, r.x1 = x1, r.y0 = y0, r.y1 = y1;
  return r;
}

void zoom_range(double& lo, double& hi, double anchor, double factor) {
  lo = anchor - (anchor - lo) * factor;
  hi = anchor + (hi - anchor) * factor;
}

namespace {
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}
std::string csv_number(double v) {
  if (!std::isfinite(v)) return "";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}
}  // namespace

std::string to_csv(const PlotSpec& spec) {
  bool spread = false, labels = false;
  for (const PlotSeries& s : spec.series) {
    spread |= !s.y_lo.empty() || !s.y_hi.empty();
    labels |= !s.labels.empty();
  }
  const std::string x_title = spec.x.title().empty() ? (spec.categories.empty() ? "x" : "category") : spec.x.title();
  const std::string y_title = spec.y.title().empty() ? "y" : spec.y.title();
  std::string out = "series," + csv_field(x_title) + "," + csv_field(y_title);
  if (spread) out += ",low,high";
  if (labels) out += ",label";
  out += "\n";
  for (const PlotSeries& s : spec.series) {
    for (size_t i = 0; i < s.y.size(); ++i) {
      const double x = i < s.x.size() ? s.x[i] : double(i);
      std::string xs = csv_number(x);
      if (!spec.categories.empty()) {
        const long k = std::lround(x);
        if (k >= 0 && size_t(k) < spec.categories.size()) xs = spec.categories[size_t(k)];
      }
      out += csv_field(s.name) + "," + csv_field(xs) + "," + csv_number(s.y[i]);
      if (spread) {
        out += "," + (i < s.y_lo.size() ? csv_number(s.y_lo[i]) : "");
        out += "," + (i < s.y_hi.size() ? csv_number(s.y_hi[i]) : "");
      }
      if (labels) out += "," + csv_field(i < s.labels.size() ? s.labels[i] : "");
      out += "\n";
    }
  }
  return out;
}

}  // namespace ws::viz
