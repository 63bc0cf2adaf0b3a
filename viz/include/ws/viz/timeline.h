// The divergence timeline's GL drawing (shaders/timeline.frag): warps as bands of 32 lane rows,
// issue columns along x, a cell lit when the lane was active. The data is a mask and a kind per
// (warp, column), uploaded once per change; zoom and pan are uniforms.
//
//   ws::viz::TimelineGrid g;  g.warps = 8; g.columns = 120; g.masks/kinds sized 8 * 120 (+ flags)
//   ws::viz::TimelineRenderer r;  r.draw(g, view, colors, err);   // fills the viewport
#pragma once

#include <imgui.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ws::viz {

enum TimelineKind : uint8_t { kTlNone = 0, kTlShared = 1, kTlGlobal = 2, kTlSync = 3, kTlFence = 4, kTlBarrier = 5 };

inline constexpr int kTimelineMaxWarps = 64;

struct TimelineGrid {
  int warps = 0;
  int columns = 0;
  std::vector<uint32_t> masks;  // warps * columns, row-major by warp
  std::vector<uint8_t> kinds;   // warps * columns (TimelineKind)
  std::vector<uint8_t> column_flags;  // columns: kTlBarrier for a barrier column
  std::vector<uint32_t> live;   // warps: live-lane mask
  uint64_t version = 0;         // bump when the data changes (re-upload)
};

// Sizes in layout pixels (a 2x export's DisplayFramebufferScale multiplies them).
struct TimelineView {
  float col0 = 0;        // first visible column
  float col_px = 8;      // pixels per column
  float lane_px = 2;     // pixels per lane row
  float gap_px = 6;      // pixels between warps
  float cursor = 1e30f;  // playback: columns from here on are dimmed
};

// Colors by slot: 0 background, 1 inactive lane, 2 shared, 3 global, 4 sync, 5 fence, 6 barrier.
using TimelineColors = std::array<ImVec4, 8>;

class TimelineRenderer {
 public:
  TimelineRenderer();
  ~TimelineRenderer();
  TimelineRenderer(const TimelineRenderer&) = delete;
  TimelineRenderer& operator=(const TimelineRenderer&) = delete;
  bool draw(const TimelineGrid& g, const TimelineView& v, const TimelineColors& colors, std::string& error);

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace ws::viz
