#include "ws/viz/headless_context.h"

#include "ws/viz/gl.h"

#include <glad/egl.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace ws::viz {

namespace {

std::string egl_error_name(EGLint e) {
  switch (e) {
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    default: return "EGL error " + std::to_string(e);
  }
}

// Software devices (Mesa's llvmpipe) are only a fallback: on the GPU machine the NVIDIA device
// must win even when Mesa is installed too.
bool is_software(EGLDeviceEXT dev) {
  if (!eglQueryDeviceStringEXT) return false;
  const char* ext = eglQueryDeviceStringEXT(dev, EGL_EXTENSIONS);
  return ext && std::strstr(ext, "EGL_MESA_device_software");
}

// Tries one device; on success leaves a current context in `display`/`context`.
bool try_device(EGLDeviceEXT dev, EGLDisplay& display, EGLContext& context, std::string& why) {
  display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, dev, nullptr);
  if (display == EGL_NO_DISPLAY) {
    why = "eglGetPlatformDisplayEXT: " + egl_error_name(eglGetError());
    return false;
  }
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) {
    why = "eglInitialize: " + egl_error_name(eglGetError());
    return false;
  }
  // Reload with the display so display extensions (surfaceless, no_config) are known.
  gladLoaderLoadEGL(display);
  if (!eglBindAPI(EGL_OPENGL_API)) {
    why = "eglBindAPI(OpenGL): " + egl_error_name(eglGetError());
    eglTerminate(display);
    return false;
  }
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                                   EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLConfig config = EGL_NO_CONFIG_KHR;
  EGLint n = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &n) || n < 1) {
    if (!GLAD_EGL_KHR_no_config_context) {
      why = "no EGL config with OpenGL support";
      eglTerminate(display);
      return false;
    }
    config = EGL_NO_CONFIG_KHR;  // the context needs no config: we never create a surface
  }
  const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  context = eglCreateContext(display, config, EGL_NO_CONTEXT, ctx_attribs);
  if (context == EGL_NO_CONTEXT) {
    why = "eglCreateContext(GL 3.3 core): " + egl_error_name(eglGetError());
    eglTerminate(display);
    return false;
  }
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    why = "eglMakeCurrent without surface: " + egl_error_name(eglGetError());
    eglDestroyContext(display, context);
    eglTerminate(display);
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<HeadlessContext> HeadlessContext::create(std::string& error) {
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
    error = "cannot load libEGL.so.1 (install libegl1 and a driver: libegl-mesa0 or NVIDIA's)";
    return nullptr;
  }
  // NVIDIA's driver advertises the older EGL_EXT_device_base (enumeration + query in one) rather
  // than EGL_EXT_device_enumeration; either provides eglQueryDevicesEXT.
  if (!(GLAD_EGL_EXT_device_enumeration || GLAD_EGL_EXT_device_base) || !GLAD_EGL_EXT_platform_device ||
      !eglQueryDevicesEXT || !eglGetPlatformDisplayEXT) {
    error = "EGL has no device platform (EGL_EXT_device_enumeration / EGL_EXT_platform_device); "
            "install libegl-mesa0 or an NVIDIA driver";
    return nullptr;
  }
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!eglQueryDevicesEXT(16, devices, &count) || count < 1) {
    error = "EGL lists no devices (is a driver installed? libegl-mesa0 provides a software one)";
    return nullptr;
  }

  // Order: forced device, else hardware devices first, then software ones.
  std::vector<int> order;
  if (const char* forced = std::getenv("WARPSCOPE_EGL_DEVICE"); forced && *forced) {
    int i = std::atoi(forced);
    if (i < 0 || i >= count) {
      error = "WARPSCOPE_EGL_DEVICE=" + std::string(forced) + " but EGL lists " +
              std::to_string(count) + " device(s)";
      return nullptr;
    }
    order.push_back(i);
  } else {
    for (int pass = 0; pass < 2; ++pass)
      for (int i = 0; i < count; ++i)
        if (is_software(devices[i]) == (pass == 1)) order.push_back(i);
  }

  std::string reasons;
  for (int i : order) {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    std::string why;
    if (!try_device(devices[i], display, context, why)) {
      reasons += (reasons.empty() ? "" : "; ") + ("device " + std::to_string(i) + ": " + why);
      continue;
    }
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
      reasons += (reasons.empty() ? "" : "; ") + ("device " + std::to_string(i) + ": GL loader failed");
      eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext(display, context);
      eglTerminate(display);
      continue;
    }
    std::unique_ptr<HeadlessContext> ctx(new HeadlessContext());
    ctx->display_ = display;
    ctx->context_ = context;
    const char* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    ctx->renderer_ = r ? r : "unknown renderer";
    return ctx;
  }
  error = "no EGL device gave an OpenGL 3.3 core context (" + reasons + ")";
  return nullptr;
}

HeadlessContext::~HeadlessContext() {
  auto display = static_cast<EGLDisplay>(display_);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, static_cast<EGLContext>(context_));
  eglTerminate(display);
}

}  // namespace ws::viz
