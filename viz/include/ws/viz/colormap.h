// The colors of the views: one perceptually uniform, colorblind-safe map for quantities (viridis,
// the same polynomial as shaders/heatmap.frag, so legends and tests agree with the GL drawing to
// the byte), and Okabe & Ito's eight colors for categories (warps, instruction kinds), which stay
// distinct for the common color-vision deficiencies.
//
//   ImVec4 c = ws::viz::viridis(0.5f);           // the map's middle (teal)
//   ImU32 w = ws::viz::category_u32(warp);       // warp colors cycle through 8
#pragma once

#include <imgui.h>

#include <array>
#include <cstdint>

namespace ws::viz {

// t in [0, 1] (clamped).
ImVec4 viridis(float t);
// Where v sits on the colour map of [vmin, vmax], in [0, 1]: linearly, or on a log scale
// (log2(1 + v - vmin) / log2(1 + vmax - vmin): counts from 1 to 1088 spread so that 4 and 64 differ).
// The heatmap shader computes the same.
float scale_position(float v, float vmin, float vmax, bool log_scale = false);
// What the heatmap shader draws for value v on the range [vmin, vmax], as 8-bit RGB.
std::array<uint8_t, 3> viridis_rgb8(float v, float vmin, float vmax, bool log_scale = false);

inline constexpr int kCategoryColors = 8;
// Okabe-Ito: orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple, grey.
ImVec4 category(int i);
inline ImU32 category_u32(int i) { return ImGui::ColorConvertFloat4ToU32(category(i)); }

// Semantic colors shared by the views (both themes).
struct ViewColors {
  ImVec4 active;      // a lane that executes (sky blue)
  ImVec4 inactive;    // a live lane that sits out (grey, darker than text)
  ImVec4 conflict;    // bank conflict / warning (vermillion)
  ImVec4 ok;          // conflict-free / first wavefront (bluish green)
  ImVec4 global;      // global-memory access (orange)
  ImVec4 sync;        // warp-synchronous op (reddish purple)
  ImVec4 barrier;     // __syncthreads (yellow)
  ImVec4 selection;   // outline of the selected thing (white or yellow)
  ImVec4 empty;       // no data (a shade off the window background)
  ImVec4 text, text_dim, background;
};
// For the current ImGui style (dark or high contrast: read from the style's colors).
ViewColors view_colors();

}  // namespace ws::viz
