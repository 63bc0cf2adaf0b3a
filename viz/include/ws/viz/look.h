// How the UI looks right now: scale and presentation mode, turned into a font size, a style and a
// theme. Changing the look rebuilds the font atlas at the new pixel size and scales a fresh style.
//
//   ws::viz::Look look{.scale = dpi * user_scale, .presentation = false};
//   std::string warning = ws::viz::apply_look(look);   // between frames, never inside one
#pragma once

#include "ws/viz/fonts.h"
#include "ws/viz/theme.h"

#include <string>
#include <vector>

namespace ws::viz {

struct Look {
  float scale = 1.0f;         // native DPI x user scale
  bool presentation = false;  // projector mode: larger font, high-contrast theme
  // Output pixels per layout pixel: 2 draws the 1x picture at twice the resolution (a 2x export;
  // the caller sets io.DisplayFramebufferScale to match). Layout, wrapping and sizes stay 1x.
  float raster = 1.0f;
  // Larger sizes of the UI and mono fonts that pictures grow into (a lesson's views; sorted).
  std::vector<float> zooms = {};

  float font_px() const {
    return kBaseFontPx * scale * (presentation ? kPresentationFontFactor : 1.0f);
  }
  float style_scale() const { return font_px() / kBaseFontPx; }
  Theme theme() const { return presentation ? Theme::HighContrast : Theme::Dark; }
  bool operator==(const Look&) const = default;
};

// Applies `look` to the current ImGui context (fonts, style) and re-uploads the font texture when
// the OpenGL renderer is already initialized. Returns the font warning ("" when fonts are fine).
std::string apply_look(const Look& look, const FontPaths& fonts = default_font_paths());

}  // namespace ws::viz
