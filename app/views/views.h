// The views of the viewer (issue 7): each is a draw function over the Session (its trace, its
// analysis report, the shared Selection) and a state struct that lives across frames (zoom, GL
// caches) and records where the last draw put things (hover, and tests that check pixels).
//
// Every view draws into the current ImGui window: the panels (app/panels/*.cpp) call them with
// session(), and `warpscope --headless --view NAME` renders one alone. Large grids go through our
// shaders (ws::viz::Canvas + HeatmapRenderer / TimelineRenderer), never a rectangle per cell.
#pragma once

#include "session.h"

#include "ws/analysis/views.h"
#include "ws/viz/canvas.h"
#include "ws/viz/heatmap.h"
#include "ws/viz/plot.h"
#include "ws/viz/timeline.h"

#include <imgui.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace ws::app {

// --- Warp access map -----------------------------------------------------------------------------
struct AccessMapState {
  // Last draw (screen coordinates of the current ImGui context).
  int64_t event = -1;           // the instruction drawn
  bool shared = false;
  int wavefront_rows = 0;       // rows drawn below the lanes (shared: one per wavefront)
  int sector_boxes = 0;         // global: 32-byte sectors drawn
  ImVec2 lanes_min{0, 0};       // top-left of lane 0's box
  ImVec2 grid_min{0, 0};        // top-left of the bank grid / sector strip
  float cell_w = 0, row_h = 0;  // one bank column / lane box width, one wavefront row height
};
void draw_access_map(Session& s, AccessMapState& st);

// --- Bank-conflict heatmap -----------------------------------------------------------------------
enum class BankScope : int { Warp = 0, Block = 1, Launch = 2 };
struct BankHeatmapState {
  BankScope scope = BankScope::Warp;
  ws::viz::Canvas canvas;
  ws::viz::HeatmapRenderer renderer;
  // Cached rows (recomputed when the data or the scope changes).
  uint64_t cache_key = ~0ull;
  std::vector<analysis::BankRow> rows;
  ws::viz::Heatmap map;
  // Last draw.
  ImVec2 grid_min{0, 0};
  float cell_w = 0, cell_h = 0;
  int first_row = 0, visible_rows = 0;
  float vmax = 1;
};
void draw_bank_heatmap(Session& s, BankHeatmapState& st);

// --- Divergence timeline -------------------------------------------------------------------------
struct TimelineState {
  analysis::TimelineMode mode = analysis::TimelineMode::AlignedSteps;
  float zoom = 0;     // pixels per column; 0 = fit the width
  float col0 = 0;     // first visible column (pan)
  ws::viz::Canvas canvas;
  ws::viz::TimelineRenderer renderer;
  uint64_t cache_key = ~0ull;
  analysis::BlockTimeline timeline;
  ws::viz::TimelineGrid grid;
  // Last draw.
  ImVec2 grid_min{0, 0};
  float col_px = 0, lane_px = 0, gap_px = 0;
  // Compare: the same launch on the other backend drawn below (emulator above: the textbook SIMT
  // model; gpu-trace below: what the hardware grouped). `other` is a session of its own that runs
  // the main run's request on the other backend whenever the main run changes.
  bool compare = false;
  std::unique_ptr<Session> other;
  std::unique_ptr<TimelineState> other_view;
  uint64_t other_for = 0;  // the main run's generation the other session was asked for
};
void draw_divergence_timeline_view(Session& s, TimelineState& st);
// The backend a comparison runs on: the emulator for a GPU run, gpu-trace for an emulator run.
BackendKind compare_backend(BackendKind main);
// Starts (or refreshes) the comparison run for the main session's current run; returns the other
// session (headless renders wait on it).
Session& compare_session(Session& s, TimelineState& st);

// --- Block layout --------------------------------------------------------------------------------
struct BlockLayoutState {
  ws::viz::Canvas canvas;
  ws::viz::HeatmapRenderer renderer;
  ws::viz::Heatmap map;
  uint64_t cache_key = ~0ull;
  int edit_block[3] = {0, 0, 0};
  // Last draw.
  ImVec2 grid_min{0, 0};
  float cell = 0;
  int cols = 0, rows = 0;
};
void draw_block_layout_view(Session& s, BlockLayoutState& st);

// --- Memory heatmap ------------------------------------------------------------------------------
struct MemoryHeatmapState {
  struct Alloc {
    ws::viz::Canvas canvas;
    ws::viz::HeatmapRenderer renderer;
    ws::viz::Heatmap map;
    analysis::ElementCounts counts;
    ImVec2 grid_min{0, 0};
    float cell = 0;
    int cols = 0;
  };
  std::vector<std::unique_ptr<Alloc>> allocs;  // (GL objects do not move)
  uint64_t cache_key = ~0ull;
  // What the color says: 0 lane accesses, 1 bank conflicts (other words in the same bank and
  // pass, summed), 2 first touch (the event that touched the element first).
  int mode = 0;
};
void draw_memory_heatmap_view(Session& s, MemoryHeatmapState& st);

// --- Source view ---------------------------------------------------------------------------------
struct SourceViewState {
  uint64_t scrolled_for = ~0ull;  // scroll to the selected line once per selection
};
void draw_source_view_body(Session& s, SourceViewState& st);

// --- Playback ------------------------------------------------------------------------------------
void draw_playback(Session& s);
// Advances playback by `dt` seconds when playing (called once per frame by the shell).
void tick_playback(Session& s, float dt);

// --- Reduction lab -------------------------------------------------------------------------------
struct LabState {
  // The kernels this lab offers (empty: the whole catalog). The Memory lab is the same panel over
  // the memory lectures' kernels.
  std::vector<std::string> kernels;
  int n = 0, block = 0, block_y = 1, seed = 1;
  bool synced = false;  // controls initialised from the session's request
  std::string invalid;  // the catalog's refusal of the controls' combination ("" = fine)
  // Last draw: the PASS / FAIL badge (tests check its color).
  ImVec2 verdict_min{0, 0}, verdict_max{0, 0};
  int verdict = -1;  // -1 none, 0 fail, 1 pass
};
void draw_lab(Session& s, LabState& st);

// --- Timing --------------------------------------------------------------------------------------
class TimingRunner;
struct TimingViewState {
  int open_tab = 0;  // tab to select on the next draw (0 Variants, 1 Live, 2 Sweep; -1: the user's)
  bool asked_ceilings = false;
  int size_index = 2, dtype_index = 0, block_index = 1;  // Variants/Sweep: n = 2^24, int, block 256
  int live_size_index = 3;                                // Live: n = 2^24
  int sweep_axis = 0;
  int count_metric = 0;
  std::string counts_requested;  // history key of the run the counts were asked for
  ws::viz::PlotState variants_plot, live_ms_plot, live_gbps_plot, sweep_plot, counts_plot;
  std::filesystem::path export_dir = ".";  // where "Save CSV" writes
  std::string message;                     // the last CSV export's path or error
  bool message_is_error = false;
};
void draw_timing_view(Session& s, TimingRunner& r, TimingViewState& st);
// What live mode times: the labs' run, with the Live tab's n (raised to time something real).
struct LiveTarget {
  std::string kernel, name;
  RunConfig config;
};
LiveTarget live_target(const RunRequest& labs_run, const TimingViewState& st);

// --- Shared pieces (view_common.cpp) -------------------------------------------------------------
// Shows why there is nothing to draw (running, refused, faulted, empty, no recorded block) and
// returns false then. With a trace, shows a truncation / fault banner when there is one.
bool view_ready(Session& s, const char* what);
// "reduce.cuh:47" for a site of the trace.
std::string site_label(const Trace& t, uint32_t site);
// A count with thousands separators ("1,727,145"): whole-grid numbers are read off a wall.
std::string grouped(uint64_t v);
// Launch / block / warp pickers on one line (what the view is looking at).
void selection_bar(Session& s, bool warp);
// A color scale legend: `steps` swatches from vmin to vmax with tick labels and a caption.
// `max_width` (> 0) keeps the legend and its caption inside a column narrower than the window
// (e.g. the heatmap beside its per-site table).
void viridis_legend(float vmin, float vmax, const char* caption, bool integers, float max_width = 0);
// ImGui::SetTooltip, but lines wrap at 50 font widths (or 80% of the display if narrower):
// tooltips that quote a source line stay inside a narrow view (and a projected picture) instead
// of running off its edge.
void wrapped_tooltip(const char* fmt, ...) IM_FMTARGS(1);
// A small colored square and a label, on the current line.
void swatch(ImVec4 color, const char* label);
// Sizes in font units.
inline float em() { return ImGui::GetFontSize(); }

}  // namespace ws::app
