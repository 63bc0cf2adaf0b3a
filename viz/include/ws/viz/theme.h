// The two themes of the viewer and the single base size everything is measured in.
//
// Every size in the UI is a multiple of the font size; the font size is kBaseFontPx times the
// UI scale (native DPI x user scale), and 1.5x that in presentation mode (projectors).
#pragma once

#include <imgui.h>

namespace ws::viz {

inline constexpr float kBaseFontPx = 16.0f;
inline constexpr float kPresentationFontFactor = 1.5f;

enum class Theme { Dark, HighContrast };

// A fresh style (never an already-scaled one: ScaleAllSizes compounds) with the theme's colors and
// every size scaled by `scale`.
ImGuiStyle make_style(Theme theme, float scale);
// The color behind all windows (glClearColor).
ImVec4 background_color(Theme theme);

}  // namespace ws::viz
