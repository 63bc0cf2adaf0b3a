// An OpenGL 3.3 core context without any window or display server, through EGL's device platform
// (eglQueryDevicesEXT + eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT)). It has no surface:
// draw into a Framebuffer. Works on Mesa's llvmpipe (CI) and on NVIDIA GPUs alike.
// eglGetDisplay(EGL_DEFAULT_DISPLAY) is deliberately not used: it fails on Mesa without X.
//
//   std::string err;
//   auto ctx = ws::viz::HeadlessContext::create(err);
//   if (!ctx) die(err);
//   // GL calls work here; ctx->renderer() says which device draws ("llvmpipe ...", "NVIDIA H200").
#pragma once

#include <memory>
#include <string>

namespace ws::viz {

class HeadlessContext {
 public:
  // Picks a hardware EGL device before a software one; WARPSCOPE_EGL_DEVICE=<index> forces one.
  static std::unique_ptr<HeadlessContext> create(std::string& error);
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  const std::string& renderer() const { return renderer_; }  // GL_RENDERER

 private:
  HeadlessContext() = default;
  void* display_ = nullptr;
  void* context_ = nullptr;
  std::string renderer_;
};

}  // namespace ws::viz
