// Soak: the viewer playing a lesson headless for a long while, as a lecture would: a frame every
// 16 ms, the next step every few seconds (wrapping around), and the process's resident memory
// printed every minute. After the first minutes (fonts, caches of the steps around the one shown)
// it must stay flat: nothing a lecture does may grow without bound. "heap MB" is what malloc has
// handed out and not had back: a leak grows it; RSS growing without it is the heap's fragmentation
// or memory the GL driver maps itself.
//
//   build/bench/bench_soak [minutes=30] [lessons/reduction.toml] [seconds per step=3]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "lessons/lesson.h"
#include "lessons/lesson_frame.h"
#include "lessons/lesson_player.h"

#include "ws/viz/framebuffer.h"
#include "ws/viz/gl.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/imgui_gl.h"
#include "ws/viz/look.h"

#include <malloc.h>
#include <unistd.h>

namespace {

double rss_mb() {
  std::ifstream in("/proc/self/statm");
  long pages = 0, resident = 0;
  in >> pages >> resident;
  return double(resident) * double(::sysconf(_SC_PAGE_SIZE)) / (1 << 20);
}

// Bytes malloc has handed out and not had back (small blocks and mmapped ones): a leak grows it,
// a fragmented heap grows RSS without it.
double heap_mb() {
  const struct mallinfo2 m = mallinfo2();
  return double(m.uordblks + m.hblkhd) / (1 << 20);
}

}  // namespace

int main(int argc, char** argv) {
  const double minutes = argc > 1 ? std::atof(argv[1]) : 30.0;
  std::string file = argc > 2 ? argv[2] : "";
  const double step_seconds = argc > 3 ? std::atof(argv[3]) : 3.0;
  if (file.empty())
    for (const auto& f : ws::app::shipped_lessons())
      if (f.filename() == "reduction.toml") file = f.string();
  ws::app::LessonLoad l = ws::app::load_lesson(file);
  if (!l.ok() || minutes <= 0 || step_seconds <= 0) {
    std::fprintf(stderr, "bench_soak: %s\n", l.ok() ? "minutes and seconds per step are > 0" : l.error.c_str());
    return 2;
  }
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  ws::viz::Framebuffer fb;
  const int w = 1920, h = 1080;
  if (!ctx || !fb.resize(w, h, err)) {
    std::fprintf(stderr, "bench_soak: no headless GL: %s\n", err.c_str());
    return 1;
  }
  fb.bind();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::GetIO().DisplaySize = ImVec2(float(w), float(h));
  ws::viz::apply_look(ws::viz::Look{1.0f, true});
  if (!ws::viz::imgui_gl_init()) return 1;
  const size_t steps = l.lesson.steps.size();
  ws::app::LessonPlayer p(std::move(l.lesson));
  p.go(0, true);
  std::printf("soak: %s (%zu steps), a step every %.1f s, %.0f minutes, renderer %s\n", file.c_str(), steps,
              step_seconds, minutes, reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  std::printf("%8s %8s %10s %10s %10s\n", "minute", "frames", "steps", "RSS MB", "heap MB");
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto next_step = start + std::chrono::duration<double>(step_seconds);
  auto next_report = start;
  uint64_t frames = 0, shown = 0;
  for (int minute = 0;;) {
    const auto now = Clock::now();
    if (now >= next_report) {
      std::printf("%8d %8llu %10llu %10.1f %10.1f\n", minute, static_cast<unsigned long long>(frames),
                  static_cast<unsigned long long>(shown), rss_mb(), heap_mb());
      std::fflush(stdout);
      if (minute >= minutes) break;
      ++minute;
      next_report = start + std::chrono::minutes(minute);
    }
    if (now >= next_step) {
      p.go((p.index() + 1) % steps, true);
      ++shown;
      next_step = now + std::chrono::duration<double>(step_seconds);
    }
    ws::viz::imgui_gl_new_frame();
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ws::app::draw_lesson(p, ImVec2(float(w), float(h)), "");
    ImGui::Render();
    glViewport(0, 0, w, h);
    glClear(GL_COLOR_BUFFER_BIT);
    ws::viz::imgui_gl_render(ImGui::GetDrawData());
    glFinish();
    ++frames;
    std::this_thread::sleep_until(now + std::chrono::milliseconds(16));
  }
  ws::viz::imgui_gl_shutdown();
  ImGui::DestroyContext();
  return 0;
}
