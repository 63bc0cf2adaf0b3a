// A picture drawn by our own shaders, shown inside an ImGui panel: the GL draw goes into an
// offscreen texture (a Framebuffer) sized exactly to the on-screen pixels, and ImGui shows that
// texture as an Image, one texel per pixel (nearest filtering: cells stay crisp). The texture is
// redrawn only when the key (the data's version, the view's zoom...) or the size changes, so a
// 1M-cell heatmap costs one draw when it changes and nothing per frame otherwise.
//
//   ws::viz::Canvas canvas;                       // in the view's state (lives across frames)
//   ImVec2 pos = ImGui::GetCursorScreenPos();
//   canvas.show(ImVec2(w, h), key, [&](std::string& err) { return renderer.draw(map, empty, err); }, err);
//
// Call it inside an ImGui frame (between NewFrame and Render) with the GL context current; it
// restores the framebuffer and viewport it found.
#pragma once

#include "ws/viz/framebuffer.h"

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace ws::viz {

class Canvas {
 public:
  // Draws (if needed) and places an Image of `size` pixels at the cursor. Returns false (and sets
  // `error`) when the texture cannot be made or the draw fails; nothing is placed then.
  bool show(ImVec2 size, uint64_t key, const std::function<bool(std::string&)>& draw, std::string& error);
  unsigned texture() const { return fb_ ? fb_->texture() : 0; }

 private:
  std::unique_ptr<Framebuffer> fb_;
  uint64_t key_ = ~0ull;
  bool valid_ = false;
};

// FNV-1a, to build canvas keys from the things a picture depends on.
inline uint64_t hash_mix(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= 1099511628211ull;
  }
  return h;
}
// The same over bytes (a font file's contents).
inline uint64_t hash_bytes(uint64_t h, const void* p, size_t n) {
  for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const uint8_t*>(p)[i]) * 1099511628211ull;
  return h;
}
inline constexpr uint64_t kHashSeed = 1469598103934665603ull;

}  // namespace ws::viz
