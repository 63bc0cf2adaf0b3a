#include "ws/viz/look.h"

#include "ws/viz/imgui_gl.h"

namespace ws::viz {

std::string apply_look(const Look& look, const FontPaths& fonts) {
  ImGuiIO& io = ImGui::GetIO();
  // Round to whole pixels: fractional font sizes rasterize blurry.
  float px = static_cast<float>(static_cast<int>(look.font_px() + 0.5f));
  const float raster = look.raster > 0 ? look.raster : 1.0f;
  std::string warning = build_fonts(*io.Fonts, px, fonts, raster, look.zooms);
  // The atlas is rasterized at `raster` times the size: scaled back, one texel per output pixel.
  io.FontGlobalScale = 1.0f / raster;
  ImGui::GetStyle() = make_style(look.theme(), look.style_scale());
  if (imgui_gl_ready()) imgui_gl_reload_fonts();
  return warning;
}

}  // namespace ws::viz
