// TrueType fonts for the UI, rasterized at exactly the pixel size in use (sharp at every scale;
// FontGlobalScale would only stretch a bitmap). The paths are found at configure time
// (third_party/CMakeLists.txt); WARPSCOPE_UI_FONT / WARPSCOPE_MONO_FONT override them.
#pragma once

#include <imgui.h>

#include <string>

namespace ws::viz {

struct FontPaths {
  std::string ui;    // proportional, for labels (DejaVu Sans)
  std::string mono;  // for source code and numbers in columns (JetBrains Mono)
};
FontPaths default_font_paths();

// Clears `atlas` and adds the UI font (first, so it is the default) and the mono font at `px`
// layout pixels, rasterized at `raster` output pixels per layout pixel (2 for a 2x export: the
// caller then sets io.FontGlobalScale = 1 / raster, so that every glyph advance, and with it every
// wrapped line, is exactly twice the 1x one). Returns "" when both TTFs loaded, else a warning
// naming the missing file and the package to install; then ImGui's bitmap font stands in and the
// caller must show the warning.
std::string build_fonts(ImFontAtlas& atlas, float px, const FontPaths& paths, float raster = 1.0f);

// The mono font of the current ImGui context (the UI font if the mono one is missing).
ImFont* mono_font();

// Headings (a lesson step's title): the UI font at kHeadingFactor times the size (the UI font
// itself if a TTF is missing).
inline constexpr float kHeadingFactor = 1.5f;
ImFont* heading_font();

}  // namespace ws::viz
