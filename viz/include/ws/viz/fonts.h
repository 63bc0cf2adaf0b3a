// TrueType fonts for the UI, rasterized at exactly the pixel size in use (sharp at every scale;
// FontGlobalScale would only stretch a bitmap). The paths are found at configure time
// (third_party/CMakeLists.txt); WARPSCOPE_UI_FONT / WARPSCOPE_MONO_FONT override them.
#pragma once

#include <imgui.h>

#include <span>
#include <string>

namespace ws::viz {

struct FontPaths {
  std::string ui;    // proportional, for labels (DejaVu Sans)
  std::string mono;  // for source code and numbers in columns (JetBrains Mono)
};
FontPaths default_font_paths();

// "" when `bytes` look like a TrueType/OpenType font whose table directory lies inside the file
// (what ImGui's rasteriser assumes), else what is wrong ("not a TrueType or OpenType font").
std::string font_file_problem(const std::string& bytes);

// Clears `atlas` and adds the UI font (first, so it is the default) and the mono font at `px`
// layout pixels, rasterized at `raster` output pixels per layout pixel (2 for a 2x export: the
// caller then sets io.FontGlobalScale = 1 / raster, so that every glyph advance, and with it every
// wrapped line, is exactly twice the 1x one); then the heading and caption fonts, and for each of
// `zooms` (factors over `px`: a picture that grows into its box) a UI and a mono font at that
// size. Returns "" when both TTFs loaded, else a warning naming the missing file and the package
// to install; then ImGui's bitmap font stands in and the caller must show the warning.
std::string build_fonts(ImFontAtlas& atlas, float px, const FontPaths& paths, float raster = 1.0f,
                        std::span<const float> zooms = {});

// The mono font of the current ImGui context at the size of the font in use (the UI font if the
// mono one is missing).
ImFont* mono_font();

// Type for a lecture hall's last row: a lesson step's title at kHeadingFactor times the UI font,
// its caption at kCaptionFactor (at 720p: 30 and 24 px over the 16 px of the pictures' labels).
// Both are the UI font itself if a TTF is missing.
inline constexpr float kHeadingFactor = 1.875f;
inline constexpr float kCaptionFactor = 1.5f;
ImFont* heading_font();
ImFont* caption_font();

// The UI font at `zoom` times the UI font's size, or null when the atlas was built without it
// (the caller draws scaled this frame and asks for it: Look::zooms).
ImFont* zoom_font(float zoom);

}  // namespace ws::viz
