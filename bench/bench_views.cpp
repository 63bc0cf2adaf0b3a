// Frame cost of the large views (a 1M-cell heatmap or a 64-warp x 10k-step timeline must
// stay interactive), rendered headless into a 1600x1000 framebuffer by our shaders, as the
// views draw them. Prints the median and the 90th percentile of 30 frames for:
//   heatmap  1024 x 1024 cells: new data each frame (upload + draw), and the same data again;
//   timeline 64 warps x 32 lanes x 10000 steps: new data (upload + draw), and a pan (draw only),
//            zoomed out (all 10000 columns on screen) and zoomed in (8 px per column).
// A view redraws its texture only when its data, zoom or size change (ws::viz::Canvas); a frame
// where nothing changed costs one textured quad, so these are the worst-case frames.
//
//   build/bench/bench_views            # on Mesa llvmpipe here; on a GPU machine, its EGL driver
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "ws/viz/framebuffer.h"
#include "ws/viz/gl.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/heatmap.h"
#include "ws/viz/timeline.h"

namespace {

struct Stat {
  double median, p90;
};

template <class F>
Stat time_frames(int frames, F&& frame) {
  std::vector<double> ms;
  frame(-1);  // warm-up: shader build, first allocation
  glFinish();
  for (int i = 0; i < frames; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    frame(i);
    glFinish();  // the frame is done when the GPU (or llvmpipe) is
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms[size_t(double(ms.size() - 1) * 0.9)]};
}

void row(const char* what, Stat s) { std::printf("%-58s %9.2f ms %9.2f ms\n", what, s.median, s.p90); }

}  // namespace

int main() {
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  if (!ctx) {
    std::fprintf(stderr, "bench_views: no headless GL context: %s\n", err.c_str());
    return 1;
  }
  ws::viz::Framebuffer fb;
  if (!fb.resize(1600, 1000, err)) {
    std::fprintf(stderr, "bench_views: %s\n", err.c_str());
    return 1;
  }
  fb.bind();
  std::printf("renderer: %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  std::printf("%-58s %12s %12s\n", "frame (1600 x 1000 pixels)", "median", "p90");
  std::mt19937 rng(7);
  constexpr int kFrames = 30;

  // --- 1M-cell heatmap --------------------------------------------------------------------------
  ws::viz::Heatmap h;
  h.cols = 1024;
  h.rows = 1024;
  h.values.resize(size_t(h.cols) * size_t(h.rows));
  std::uniform_real_distribution<float> u(0, 32);
  for (float& v : h.values) v = u(rng);
  h.vmax = 32;
  ws::viz::HeatmapRenderer hr;
  const ImVec4 empty(0.1f, 0.1f, 0.12f, 1);
  row("heatmap 1024 x 1024, new data every frame", time_frames(kFrames, [&](int i) {
        h.values[size_t(std::max(i, 0))] += 1;  // data changed: the view re-uploads
        if (!hr.draw(h, empty, err)) std::fprintf(stderr, "%s\n", err.c_str());
      }));
  row("heatmap 1024 x 1024, same data (a resize or a theme change)", time_frames(kFrames, [&](int) {
        hr.draw(h, empty, err);
      }));

  // --- 64-warp x 10k-step timeline -----------------------------------------------------------------
  ws::viz::TimelineGrid g;
  g.warps = 64;
  g.columns = 10000;
  g.masks.resize(size_t(g.warps) * size_t(g.columns));
  g.kinds.resize(g.masks.size());
  g.column_flags.assign(size_t(g.columns), 0);
  g.live.assign(size_t(g.warps), 0xffffffffu);
  std::uniform_int_distribution<uint32_t> mask;
  for (size_t i = 0; i < g.masks.size(); ++i) {
    g.masks[i] = mask(rng);
    g.kinds[i] = uint8_t(2 + i % 3);
  }
  for (int c = 0; c < g.columns; c += 50) g.column_flags[size_t(c)] = ws::viz::kTlBarrier;
  g.version = 1;
  ws::viz::TimelineRenderer tr;
  ws::viz::TimelineColors colors{};
  for (size_t i = 0; i < colors.size(); ++i) colors[i] = ImVec4(0.1f * float(i), 0.5f, 0.8f, 1);
  ws::viz::TimelineView all;
  all.col_px = 1600.0f / float(g.columns);
  all.lane_px = 1000.0f / (64 * 32 + 63 * 2);
  all.gap_px = 2;
  ws::viz::TimelineView zoomed = all;
  zoomed.col_px = 8;
  row("timeline 64 warps x 10000 steps, new data every frame", time_frames(kFrames, [&](int) {
        ++g.version;
        if (!tr.draw(g, all, colors, err)) std::fprintf(stderr, "%s\n", err.c_str());
      }));
  row("timeline, zoomed out (all 10000 steps), pan: draw only", time_frames(kFrames, [&](int i) {
        all.col0 = float(std::max(i, 0));
        tr.draw(g, all, colors, err);
      }));
  row("timeline, zoomed in (8 px per step), pan: draw only", time_frames(kFrames, [&](int i) {
        zoomed.col0 = float(std::max(i, 0) * 37);
        tr.draw(g, zoomed, colors, err);
      }));
  return 0;
}
