#include "shell/layout.h"

#include "views/view.h"

#include <algorithm>
#include <cmath>

namespace ws::app {

ShellLayout compute_layout(ImVec2 display, float font_px, const ImGuiStyle& style) {
  const float em = font_px;
  ShellLayout L;
  // BeginMainMenuBar's height is one frame: font + frame padding above and below.
  L.menu_height = font_px + 2.0f * style.FramePadding.y;
  L.status_height = font_px + 2.0f * kStatusPadY * em;
  L.status = {ImVec2(0, display.y - L.status_height), ImVec2(display.x, L.status_height)};

  const float gap = 0.25f * em;
  const float top = L.menu_height + gap;
  const float bottom = display.y - L.status_height - gap;
  const float height = std::max(bottom - top, 6.0f * em);
  const float width = std::max(display.x - 2 * gap, 30.0f * em);

  // Side columns want a readable width in ems but give way to the center on narrow windows.
  float left = std::clamp(0.21f * width, 12.0f * em, 24.0f * em);
  float right = std::clamp(0.26f * width, 13.0f * em, 30.0f * em);
  const float min_center = 0.45f * width;
  if (width - left - right - 2 * gap < min_center) {
    float k = (width - min_center - 2 * gap) / (left + right);
    left *= k;
    right *= k;
  }
  const float center = width - left - right - 2 * gap;
  const float x0 = gap, x1 = x0 + left + gap, x2 = x1 + center + gap;

  auto split = [&](float y, float h, float frac, Rect& a, Rect& b, float x, float w) {
    float ha = std::round(h * frac - gap / 2);
    a = {ImVec2(x, y), ImVec2(w, ha)};
    b = {ImVec2(x, y + ha + gap), ImVec2(w, h - ha - gap)};
  };
  auto halves = [&](float x, float y, float w, float h, Rect& a, Rect& b) {
    float wa = std::round((w - gap) / 2);
    a = {ImVec2(x, y), ImVec2(wa, h)};
    b = {ImVec2(x + wa + gap, y), ImVec2(w - wa - gap, h)};
  };

  Rect reduction, memory_lab, access, bank, divergence, block, heat, source, playback, timing, streams, rest, lower;
  // Left column: the lab, the playback bar (a few lines), the memory lab.
  split(top, height, 0.54f, reduction, rest, x0, left);
  {
    const float ph = std::min(std::round(6.6f * em), std::round(rest.size.y * 0.5f));
    playback = {rest.pos, ImVec2(left, ph)};
    memory_lab = {ImVec2(x0, rest.pos.y + ph + gap), ImVec2(left, rest.size.y - ph - gap)};
  }
  // Right column: the source, the timing, the stream timeline.
  split(top, height, 0.45f, source, lower, x2, right);
  split(lower.pos.y, lower.size.y, 0.55f, timing, streams, x2, right);
  // Center: the access map on top (largest: it is the picture lectures show most), then two rows
  // of two.
  float row = std::round((height - 2 * gap) * 0.29f);
  float h_access = height - 2 * (row + gap);
  access = {ImVec2(x1, top), ImVec2(center, h_access)};
  halves(x1, top + h_access + gap, center, row, bank, divergence);
  halves(x1, top + h_access + 2 * gap + row, center, height - h_access - 2 * gap - row, block, heat);

  auto rect_of = [&](Slot slot) {
    switch (slot) {
      case Slot::LeftTop: return reduction;
      case Slot::LeftMiddle: return playback;
      case Slot::LeftBottom: return memory_lab;
      case Slot::Center: return access;
      case Slot::CenterRow1Left: return bank;
      case Slot::CenterRow1Right: return divergence;
      case Slot::CenterRow2Left: return block;
      case Slot::CenterRow2Right: return heat;
      case Slot::RightTop: return source;
      case Slot::RightBottom: return timing;
      case Slot::RightLowest: return streams;
      case Slot::RightLowestFile: return streams;
    }
    return access;
  };
  for (const ViewType& v : view_types()) L.panels.push_back(rect_of(v.slot));
  return L;
}

}  // namespace ws::app
