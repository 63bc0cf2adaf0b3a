#include "cli/headless.h"

#include "model/device_probe.h"
#include "shell/frame.h"
#include "lessons/lesson_player.h"
#include "model/session.h"
#include "cli/view_export.h"

#include "ws/viz/framebuffer.h"
#include "ws/viz/gl.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/imgui_gl.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <cfloat>
#include <chrono>

namespace ws::app {

bool render_headless(const HeadlessRun& run, ws::viz::Image& out, std::string& renderer, std::string& error,
                     bool* bad_input) {
  if (bad_input) *bad_input = false;
  auto ctx = ws::viz::HeadlessContext::create(error);
  if (!ctx) return false;
  renderer = ctx->renderer();
  ws::viz::Framebuffer fb;
  const float factor = run.factor > 0 ? run.factor : 1.0f;
  if (!fb.resize(int(std::lround(float(run.width) * factor)), int(std::lround(float(run.height) * factor)), error))
    return false;

  ImGuiContext* imgui = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // headless never reads or writes the user's layout: reproducible
  io.LogFilename = nullptr;
  io.DisplaySize = ImVec2(static_cast<float>(run.width), static_cast<float>(run.height));
  io.DisplayFramebufferScale = ImVec2(factor, factor);
  io.MousePos = run.mouse.value_or(ImVec2(-FLT_MAX, -FLT_MAX));
  io.MouseDrawCursor = run.mouse.has_value();  // the arrow, so that the picture shows where

  ShellState s;
  s.persist = false;
  s.settings.user_scale = run.scale;
  s.raster = factor;
  s.display = io.DisplaySize;
  s.settings.presentation = run.presentation;
  s.backend = probe_backend();
  shell_prepare(s, 1.0f);
  bool ok = ws::viz::imgui_gl_init();
  if (!ok) error = "cannot initialize the OpenGL renderer";

  if (run.lesson) {
    s.lesson = run.lesson;
    s.lesson_mode = true;
    s.slide_report = run.slide_report;
    run.lesson->go(run.step, true);
    if (!run.lesson->wait_ready()) error = "the step's runs did not finish within two minutes";
    else error = run.lesson->prepare_pictures();
    if (!error.empty()) {
      ws::viz::imgui_gl_shutdown();
      ImGui::DestroyContext(imgui);
      return false;
    }
  }
  // The same picture every time: the session's first run is finished before the first frame.
  Session& ses = session();
  if (run.request) ses.request(*run.request);
  ses.start_default();  // (only if nothing was asked for: a request marks the default as taken)
  ses.wait_idle();
  if (!run.select.empty())
    if (std::string err = apply_selection(ses, run.select); !err.empty()) {
      error = err;
      if (bad_input) *bad_input = true;
      return false;
    }
  auto last = std::chrono::steady_clock::now();
  // A picture of one flat color is no picture (the window always draws borders and text): such a
  // last frame is drawn again, a few times, and never written as a slide.
  auto blank = [](const ws::viz::Image& img) {
    if (img.width <= 0 || img.height <= 0) return true;
    const uint8_t* first = img.pixel(0, 0);
    for (int y = 0; y < img.height; ++y)
      for (int x = 0; x < img.width; ++x)
        if (std::memcmp(img.pixel(x, y), first, 4) != 0) return false;
    return true;
  };
  int frames = run.frames;
  for (int f = 0; ok && f < frames; ++f) {
    shell_prepare(s, 1.0f);  // an action of the previous frame may have changed the look
    FrameInput in;
    in.display_size = io.DisplaySize;
    if (f == 0) in.actions = run.actions;
    auto now = std::chrono::steady_clock::now();
    // Real time per frame, so the status bar shows what this renderer costs.
    io.DeltaTime = f == 0 ? 1.0f / 60.0f : std::max(1e-4f, std::chrono::duration<float>(now - last).count());
    last = now;
    fb.bind();
    render_frame(s, in, ImVec2(float(fb.width()), float(fb.height())));
    // A window's buffer swap ends each frame; without one, Mesa's threaded llvmpipe kept every
    // frame's commands (3 MB a frame at 1600x900): finish the frame here.
    glFinish();
    shell_after_render(s);
    if (f + 1 == frames && frames < run.frames + 4 && blank(fb.read())) {
      std::cerr << "warpscope: frame " << f + 1 << " came out blank; drawing it again\n";
      ++frames;
    }
  }
  if (ok) out = fb.read();
  if (ok && blank(out)) {
    ok = false;
    error = "the picture came out blank (one color) after " + std::to_string(frames) + " frames of " + renderer;
  }
  ws::viz::imgui_gl_shutdown();
  ImGui::DestroyContext(imgui);
  return ok;
}

}  // namespace ws::app
