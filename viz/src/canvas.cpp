#include "ws/viz/canvas.h"

#include "ws/viz/gl.h"

#include <cmath>

namespace ws::viz {

bool Canvas::show(ImVec2 size, uint64_t key, const std::function<bool(std::string&)>& draw, std::string& error) {
  // One texel per output pixel: a 2x export (DisplayFramebufferScale 2) draws twice the texels.
  const ImVec2 fb_scale = ImGui::GetIO().DisplayFramebufferScale;
  const int w = int(std::lround(size.x * fb_scale.x)), h = int(std::lround(size.y * fb_scale.y));
  if (w <= 0 || h <= 0) return true;  // nothing to show in a collapsed panel
  if (!fb_) fb_ = std::make_unique<Framebuffer>();
  const bool resized = fb_->width() != w || fb_->height() != h;
  if (!fb_->resize(w, h, error)) {
    valid_ = false;
    return false;
  }
  if (resized || key != key_ || !valid_) {
    GLint prev_fbo = 0, prev_tex = 0, viewport[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fbo);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev_tex);
    glGetIntegerv(GL_VIEWPORT, viewport);
    // One texel per pixel: nearest, so cell edges are not blurred.
    glBindTexture(GL_TEXTURE_2D, fb_->texture());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(prev_tex));
    fb_->bind();
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    valid_ = draw(error);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(prev_fbo));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    key_ = key;
    if (!valid_) return false;
  }
  // GL textures are bottom-up: flip with the uvs.
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(fb_->texture())), ImVec2(std::round(size.x), std::round(size.y)),
               ImVec2(0, 1), ImVec2(1, 0));
  return true;
}

}  // namespace ws::viz
