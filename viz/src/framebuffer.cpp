#include "ws/viz/framebuffer.h"

#include "ws/viz/gl.h"

#include <cstring>

namespace ws::viz {

Framebuffer::~Framebuffer() { release(); }

void Framebuffer::release() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (texture_) glDeleteTextures(1, &texture_);
  fbo_ = texture_ = 0;
  width_ = height_ = 0;
}

bool Framebuffer::resize(int width, int height, std::string& error) {
  if (width == width_ && height == height_ && fbo_) return true;
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (width <= 0 || height <= 0 || width > max_size || height > max_size) {
    error = "framebuffer size " + std::to_string(width) + "x" + std::to_string(height) +
            " is outside 1.." + std::to_string(max_size) + " on this GL device";
    return false;
  }
  release();
  GLint prev_tex = 0, prev_fbo = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev_tex);
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fbo);
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
  GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(prev_tex));
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(prev_fbo));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    release();
    error = "framebuffer incomplete (status 0x" + std::to_string(status) + ")";
    return false;
  }
  width_ = width;
  height_ = height;
  return true;
}

void Framebuffer::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width_, height_);
}

Image Framebuffer::read() const {
  GLint prev = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &prev);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  Image img = read_pixels(width_, height_);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(prev));
  return img;
}

Image read_pixels(int width, int height) {
  Image img;
  img.width = width;
  img.height = height;
  img.rgba.resize(size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, img.rgba.data());
  // GL rows run bottom-up; PNG rows top-down.
  const size_t row = size_t(width) * 4;
  std::vector<uint8_t> tmp(row);
  for (int y = 0; y < height / 2; ++y) {
    uint8_t* a = img.rgba.data() + size_t(y) * row;
    uint8_t* b = img.rgba.data() + size_t(height - 1 - y) * row;
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
  // Blending leaves partial alpha where translucent widgets were drawn; an exported picture is
  // what the user saw on an opaque screen.
  for (size_t i = 3; i < img.rgba.size(); i += 4) img.rgba[i] = 255;
  return img;
}

}  // namespace ws::viz
