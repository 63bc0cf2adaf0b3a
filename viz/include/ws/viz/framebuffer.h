// An offscreen render target: an RGBA8 texture attached to a framebuffer object. Headless frames,
// panel exports and (later) views drawn with our shaders all render into one of these.
//
//   ws::viz::Framebuffer fb;
//   if (!fb.resize(w, h, err)) fail(err);
//   fb.bind();  ... draw ...;  Image img = fb.read();
#pragma once

#include "ws/viz/image.h"

#include <string>

namespace ws::viz {

class Framebuffer {
 public:
  Framebuffer() = default;
  ~Framebuffer();
  Framebuffer(const Framebuffer&) = delete;
  Framebuffer& operator=(const Framebuffer&) = delete;

  // (Re)creates the attachments when the size changes. Needs a current GL context.
  bool resize(int width, int height, std::string& error);
  void bind() const;  // binds it for drawing and sets the viewport to its size
  Image read() const;  // top-down RGBA, alpha forced opaque
  unsigned texture() const { return texture_; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  void release();
  unsigned fbo_ = 0;
  unsigned texture_ = 0;
  int width_ = 0;
  int height_ = 0;
};

// Reads the currently bound read framebuffer (e.g. the window's back buffer before the swap).
Image read_pixels(int width, int height);

}  // namespace ws::viz
