#include "ws/viz/fonts.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <span>

namespace ws::viz {

namespace {

// Latin-1 plus the few symbols the UI writes (dashes, ellipsis, arrows, minus, <=, squares,
// triangles). A small set keeps the atlas small even at presentation sizes.
const ImWchar kUiRanges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x2199, 0x2212, 0x2212,
                             0x2264, 0x2265, 0x25A0, 0x25A1, 0x25B2, 0x25BC, 0};
const ImWchar kMonoRanges[] = {0x0020, 0x00FF, 0x2190, 0x2193, 0};

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return (v && *v) ? v : fallback;
}

bool add_ttf(ImFontAtlas& atlas, const std::string& path, float px, const ImWchar* ranges) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::is_regular_file(path, ec)) return false;
  ImFontConfig cfg;
  cfg.OversampleH = 3;
  cfg.OversampleV = 1;
  // Fractional advances: snapped ones would round differently at 1x and 2x, and a 2x export
  // would wrap its text elsewhere. Horizontal oversampling keeps the stems sharp.
  cfg.PixelSnapH = false;
  return atlas.AddFontFromFileTTF(path.c_str(), px, &cfg, ranges) != nullptr;
}

}  // namespace

FontPaths default_font_paths() {
  return {env_or("WARPSCOPE_UI_FONT", WS_FONT_UI_PATH),
          env_or("WARPSCOPE_MONO_FONT", WS_FONT_MONO_PATH)};
}

std::string build_fonts(ImFontAtlas& atlas, float px, const FontPaths& paths, float raster,
                        std::span<const float> zooms) {
  atlas.Clear();
  std::string warning;
  if (!add_ttf(atlas, paths.ui, px * raster, kUiRanges)) {
    warning = "UI font not found (" + (paths.ui.empty() ? std::string("none configured") : paths.ui) +
              "): install fonts-dejavu-core; using ImGui's small bitmap font";
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * raster;
    atlas.AddFontDefault(&cfg);
  }
  if (!add_ttf(atlas, paths.mono, px * raster, kMonoRanges)) {
    if (warning.empty())
      warning = "code font not found (" + (paths.mono.empty() ? std::string("none configured") : paths.mono) +
                "): install fonts-jetbrains-mono";
    // No second font: mono_font() falls back to the UI font.
  } else {
    // Only with both fonts, so that the positions below hold: headings, captions, then the
    // pictures' larger sizes, a UI and a mono font each.
    add_ttf(atlas, paths.ui, std::round(px * kHeadingFactor) * raster, kUiRanges);
    add_ttf(atlas, paths.ui, std::round(px * kCaptionFactor) * raster, kUiRanges);
    for (float z : zooms) {
      add_ttf(atlas, paths.ui, std::round(px * z) * raster, kUiRanges);
      add_ttf(atlas, paths.mono, std::round(px * z) * raster, kMonoRanges);
    }
  }
  atlas.Build();
  return warning;
}

namespace {

constexpr int kFirstZoomFont = 4;

ImFont* font_at(int i) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  return i < atlas->Fonts.Size ? atlas->Fonts[i] : atlas->Fonts[0];
}

int font_index(const ImFont* f) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  for (int i = 0; i < atlas->Fonts.Size; ++i)
    if (atlas->Fonts[i] == f) return i;
  return -1;
}

}  // namespace

ImFont* mono_font() {
  // The mono font of the size in use: a zoomed picture's code grows with its labels.
  const int i = font_index(ImGui::GetFont());
  if (i >= kFirstZoomFont) return font_at((i - kFirstZoomFont) / 2 * 2 + kFirstZoomFont + 1);
  return font_at(1);
}

ImFont* heading_font() { return font_at(2); }

ImFont* caption_font() { return font_at(3); }

ImFont* zoom_font(float zoom) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  const float want = std::round(atlas->Fonts[0]->FontSize * ImGui::GetIO().FontGlobalScale * zoom);
  for (int i = kFirstZoomFont; i < atlas->Fonts.Size; i += 2)
    if (std::round(atlas->Fonts[i]->FontSize * ImGui::GetIO().FontGlobalScale) == want) return atlas->Fonts[i];
  return nullptr;
}

}  // namespace ws::viz
