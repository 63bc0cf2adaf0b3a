// Step-to-step switch time of a shipped lesson, as the presenter's clicker feels it: from the key
// press (LessonPlayer::go) until a frame of the new step is on screen (its runs in, its selection
// applied, the whole 1920 x 1080 slide drawn and finished by GL). Two cases:
//   cached    the step was run ahead in the background (the usual case: the next step);
//   uncached  a fresh player jumps straight to the step (nothing run ahead: its emulator runs
//             happen inside the switch).
// Prints each step's times and the median and maximum of each case.
//
//   build/bench/bench_lesson [lessons/reduction.toml] [WxH]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "lessons/lesson.h"
#include "lessons/lesson_frame.h"
#include "lessons/lesson_player.h"

#include "ws/viz/framebuffer.h"
#include "ws/viz/gl.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/imgui_gl.h"
#include "ws/viz/look.h"

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// One frame of the slide, finished.
void frame(ws::app::LessonPlayer& p, ImVec2 display) {
  ws::viz::imgui_gl_new_frame();
  ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
  ImGui::NewFrame();
  ws::app::draw_lesson(p, display, "");
  ImGui::Render();
  glViewport(0, 0, int(display.x), int(display.y));
  glClear(GL_COLOR_BUFFER_BIT);
  ws::viz::imgui_gl_render(ImGui::GetDrawData());
  glFinish();
}

// From go(k) to the first finished frame of the step with its runs in.
double switch_to(ws::app::LessonPlayer& p, size_t k, ImVec2 display) {
  const Clock::time_point t0 = Clock::now();
  p.go(k, true);
  for (;;) {
    frame(p, display);  // poll()s the player: a finished run is taken in during the frame
    if (p.ready()) {
      frame(p, display);  // the frame that shows it
      return ms_since(t0);
    }
    if (ms_since(t0) > 120000) return -1;
  }
}

void summary(const char* what, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  if (ms.empty()) return;
  std::printf("%-10s median %8.1f ms   max %8.1f ms   (%zu steps)\n", what, ms[ms.size() / 2], ms.back(), ms.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::string file = argc > 1 ? argv[1] : "";
  if (file.empty())
    for (const auto& f : ws::app::shipped_lessons())
      if (f.filename() == "reduction.toml") file = f.string();
  int w = 1920, h = 1080;
  if (argc > 2 && std::sscanf(argv[2], "%dx%d", &w, &h) != 2) {
    std::fprintf(stderr, "bench_lesson: size is WxH, e.g. 1920x1080\n");
    return 2;
  }
  ws::app::LessonLoad l = ws::app::load_lesson(file);
  if (!l.ok()) {
    std::fprintf(stderr, "bench_lesson: %s\n", l.error.c_str());
    return 2;
  }
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  ws::viz::Framebuffer fb;
  if (!ctx || !fb.resize(w, h, err)) {
    std::fprintf(stderr, "bench_lesson: no headless GL: %s\n", err.c_str());
    return 1;
  }
  fb.bind();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(float(w), float(h));
  const ImVec2 display{float(w), float(h)};
  ws::viz::apply_look(ws::viz::Look{ws::app::slide_scale(display), true});
  if (!ws::viz::imgui_gl_init()) {
    std::fprintf(stderr, "bench_lesson: cannot start the OpenGL renderer\n");
    return 1;
  }
  std::printf("lesson %s (%zu steps), %dx%d, renderer %s, %u hardware threads\n", file.c_str(), l.lesson.steps.size(),
              w, h, reinterpret_cast<const char*>(glGetString(GL_RENDERER)), std::thread::hardware_concurrency());
  std::printf("%-6s %-50s %12s %12s\n", "step", "title", "cached", "uncached");

  const ws::app::Lesson lesson = l.lesson;
  std::vector<double> cached, uncached;
  {
    ws::app::LessonPlayer p(lesson);
    (void)switch_to(p, 0, display);
    for (size_t k = 0; k < lesson.steps.size(); ++k) {
      // Uncached first, with a player of its own that has run nothing ahead.
      double cold;
      {
        ws::app::LessonPlayer fresh(lesson);
        cold = switch_to(fresh, k, display);
      }
      double warm = -1;
      if (k > 0) {
        // The presenter spends a while on step k - 1: the player runs step k ahead meanwhile.
        const Clock::time_point t0 = Clock::now();
        while (!p.is_cached(k) && ms_since(t0) < 120000) {
          frame(p, display);
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        warm = switch_to(p, k, display);
      }
      std::printf("%-6zu %-50.50s %9.1f ms %9.1f ms\n", k + 1, lesson.steps[k].title.c_str(), warm, cold);
      if (warm >= 0) cached.push_back(warm);
      if (cold >= 0) uncached.push_back(cold);
    }
  }
  summary("cached", cached);
  summary("uncached", uncached);
  ws::viz::imgui_gl_shutdown();
  ImGui::DestroyContext();
  return 0;
}
