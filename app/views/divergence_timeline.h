// Divergence timeline: each warp of the selected block as 32 lane rows x issue steps, barriers as
// vertical lines; optionally the same launch on the other backend below it.
#pragma once

#include "views/view.h"

#include "model/session.h"

#include "ws/analysis/views.h"
#include "ws/viz/canvas.h"
#include "ws/viz/timeline.h"

#include <imgui.h>

#include <array>
#include <cstdint>
#include <vector>
#include <memory>

namespace ws::app {

struct TimelineView final : View {
  static const ViewOption kOptions[5];  // (divergence_timeline.cpp)
  void draw(Session& s) override;
  std::string prepare_picture(Session& s) override;               // waits for the comparison run

  analysis::TimelineMode mode = analysis::TimelineMode::AlignedSteps;
  bool grouped = true;  // the "lanes" option: each warp's lanes grouped by their paths (else 0-31)
  std::vector<std::array<uint8_t, 32>> lane_order;  // per warp: the lane drawn in each row
  float zoom = 0;     // font sizes (ems) per column; 0 = fit the width
  float col0 = 0;     // first visible column (pan)
  // The "zoom" option: times the fit, around the selected instruction (applied at the next draw).
  int zoom_times = 1;
  ws::viz::Canvas canvas;
  ws::viz::TimelineRenderer renderer;
  uint64_t cache_key = ~0ull;
  analysis::BlockTimeline timeline;
  ws::viz::TimelineGrid grid;
  // Last draw.
  ImVec2 grid_min{0, 0};
  float col_px = 0, lane_px = 0, gap_px = 0;
  std::string hidden_note;  // "warps 0-5 of 8 shown (scroll for the rest)" when not all fit
  // Compare: the same launch on the other backend drawn below (emulator above: the textbook SIMT
  // model; gpu-trace below: what the hardware grouped). `other` is a session of its own that runs
  // the main run's request on the other backend whenever the main run changes.
  bool compare = false;
  std::unique_ptr<Session> other;
  std::unique_ptr<TimelineView> other_view;
  uint64_t other_for = 0;  // the main run's generation the other session was asked for

  // Starts (or refreshes) the comparison run for the main session's current run; returns the
  // other session.
  Session& compare_session(Session& s);

 private:
  struct ZoomClicks {
    bool in = false, out = false;
  };
  struct Layout {  // where one draw puts the bands
    float label_w = 0, gap_px = 0, room = 0, lane_px = 0, band = 0, height = 0, canvas_w = 0;
    float fit = 0;  // the zoom (columns per em) at which every column fits
    bool scrolls = false;
  };
  void draw_one(Session& s, bool main);
  ZoomClicks draw_controls(Session& s, bool main);
  void compute(Session& s);
  void draw_summary(Session& s, bool main);
  Layout plan() const;
  void apply_zoom(Session& s, const Layout& L, ZoomClicks z);
  bool draw_bands(Session& s, const Layout& L);
  void draw_marks(Session& s, const Layout& L);
  void hover(Session& s, const Layout& L);
  void draw_legend(const Layout& L);
};

// The backend a comparison runs on: the emulator for a GPU run, gpu-trace for an emulator run.
BackendKind compare_backend(BackendKind main);

}  // namespace ws::app
