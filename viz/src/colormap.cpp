#include "ws/viz/colormap.h"

#include <algorithm>
#include <cmath>

namespace ws::viz {

ImVec4 viridis(float t) {
  // Same coefficients and evaluation order as shaders/heatmap.frag.
  const float c0[3] = {0.2777273272234177f, 0.005407344544966578f, 0.3340998053353061f};
  const float c1[3] = {0.1050930431085774f, 1.404613529898575f, 1.384590162594685f};
  const float c2[3] = {-0.3308618287255563f, 0.214847559468213f, 0.09509516302823659f};
  const float c3[3] = {-4.634230498983486f, -5.799100973351585f, -19.33244095627987f};
  const float c4[3] = {6.228269936347081f, 14.17993336680509f, 56.69055260068105f};
  const float c5[3] = {4.776384997670288f, -13.74514537774601f, -65.35303263337234f};
  const float c6[3] = {-5.435455855934631f, 4.645852612178535f, 26.3124352495832f};
  t = std::clamp(t, 0.0f, 1.0f);
  float out[3];
  for (int k = 0; k < 3; ++k)
    out[k] = std::clamp(c0[k] + t * (c1[k] + t * (c2[k] + t * (c3[k] + t * (c4[k] + t * (c5[k] + t * c6[k]))))),
                        0.0f, 1.0f);
  return ImVec4(out[0], out[1], out[2], 1.0f);
}

float scale_position(float v, float vmin, float vmax, bool log_scale) {
  if (log_scale)
    return std::clamp(std::log2(1.0f + std::max(v - vmin, 0.0f)) / std::max(std::log2(1.0f + vmax - vmin), 1e-20f), 0.0f, 1.0f);
  return std::clamp((v - vmin) / std::max(vmax - vmin, 1e-20f), 0.0f, 1.0f);
}

std::array<uint8_t, 3> viridis_rgb8(float v, float vmin, float vmax, bool log_scale) {
  const float t = scale_position(v, vmin, vmax, log_scale);
  const ImVec4 c = viridis(t);
  return {uint8_t(std::lround(c.x * 255)), uint8_t(std::lround(c.y * 255)), uint8_t(std::lround(c.z * 255))};
}

ImVec4 category(int i) {
  static const ImVec4 k[kCategoryColors] = {
      ImVec4(0.902f, 0.624f, 0.000f, 1), ImVec4(0.337f, 0.706f, 0.914f, 1), ImVec4(0.000f, 0.620f, 0.451f, 1),
      ImVec4(0.941f, 0.894f, 0.259f, 1), ImVec4(0.000f, 0.447f, 0.698f, 1), ImVec4(0.835f, 0.369f, 0.000f, 1),
      ImVec4(0.800f, 0.475f, 0.655f, 1), ImVec4(0.600f, 0.600f, 0.600f, 1)};
  return k[((i % kCategoryColors) + kCategoryColors) % kCategoryColors];
}

ViewColors view_colors() {
  const ImGuiStyle& s = ImGui::GetStyle();
  const ImVec4 bg = s.Colors[ImGuiCol_WindowBg];
  const bool high_contrast = bg.x + bg.y + bg.z < 0.01f;
  ViewColors c;
  c.active = category(1);
  c.inactive = high_contrast ? ImVec4(0.40f, 0.40f, 0.40f, 1) : ImVec4(0.36f, 0.37f, 0.40f, 1);
  c.conflict = category(5);
  c.ok = category(2);
  c.global = category(0);
  c.sync = category(6);
  c.barrier = category(3);
  c.selection = high_contrast ? ImVec4(1, 1, 1, 1) : ImVec4(0.95f, 0.95f, 0.95f, 1);
  c.empty = high_contrast ? ImVec4(0.10f, 0.10f, 0.10f, 1) : ImVec4(0.16f, 0.165f, 0.185f, 1);
  c.text = s.Colors[ImGuiCol_Text];
  c.text_dim = s.Colors[ImGuiCol_TextDisabled];
  c.background = bg;
  return c;
}

}  // namespace ws::viz
