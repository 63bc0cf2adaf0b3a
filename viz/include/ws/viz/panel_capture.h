// Renders ONE panel alone into an offscreen framebuffer, for "Save as PNG" at 1x or 2x.
//
// The panel is drawn again, by the same body function the window uses, in a private ImGui context
// laid out at the on-screen size and drawn at `factor` output pixels per screen pixel, its fonts
// rasterized at that resolution: a 2x export is the 1x picture at twice the resolution (the same
// lines wrap at the same words), sharp, not an upscaled screenshot; and windows overlapping the
// panel on screen never appear in it.
//
//   ws::viz::PanelCapture cap{.title = "Warp access map", .size = window_size, .look = look,
//                             .factor = 2.0f, .draw = [&] { draw_warp_access_map(state); }};
//   ws::viz::Image img;
//   if (!ws::viz::render_panel(cap, img, err)) show(err);
//
// Call it outside the frame of the main context (after Render), with the GL context current.
#pragma once

#include "ws/viz/image.h"
#include "ws/viz/look.h"

#include <imgui.h>

#include <functional>
#include <optional>
#include <string>

namespace ws::viz {

struct PanelCapture {
  std::string title;           // window title drawn at the top of the picture
  ImVec2 size{0, 0};           // the panel's size on screen, in pixels at factor 1
  Look look;                   // the look on screen
  float factor = 1.0f;         // output pixels per on-screen pixel (1 or 2 for slides)
  std::function<void()> draw;  // the panel body: ImGui calls inside Begin/End
  // Where the mouse rests, in output pixels: the picture then shows what hovering there shows
  // (highlights, the tooltip). None: nothing hovered, as an exported picture should be.
  std::optional<ImVec2> mouse{};
};

bool render_panel(const PanelCapture& capture, Image& out, std::string& error);

}  // namespace ws::viz
