// The views on real emulator traces, rendered headless (Mesa) and checked pixel by pixel against
// the trace and the analysis: the bank heatmap's cells have the color map's color of their value,
// the divergence timeline's lit cells are the trace's active masks, the access map draws one row
// per wavefront, the reduction lab shows PASS. Also the session (background runs, superseding,
// refusals) and `warpscope --headless --view`.
//
// Index of this file:
// [SECTION] The pictures, pixel by pixel
// [SECTION] The labs
// [SECTION] The session: runs in the background, refusals
// [SECTION] warpscope --headless --view
#include "headless_gl.h"
#include "run_binary.h"

#include "model/session.h"
#include "cli/view_export.h"
#include "views/access_map.h"
#include "views/bank_heatmap.h"
#include "views/block_layout.h"
#include "views/divergence_timeline.h"
#include "views/lab.h"
#include "views/memory_heatmap.h"
#include "views/playback.h"
#include "views/source_view.h"
#include "views/view_common.h"

#include "ws/analysis/instruction.h"
#include "ws/viz/colormap.h"
#include "ws/viz/drawn_text.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/panel_capture.h"
#include "ws/viz/png.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <algorithm>
#include <bit>
#include <cstring>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;
using namespace ws::app;

namespace {

RunRequest reduce(const std::string& variant, uint32_t block = 64, uint64_t n = 256) {
  RunRequest r = default_request();
  r.config.variant = variant;
  r.config.block = {block, 1, 1};
  r.config.n = n;
  r.config.record.blocks = {0};
  return r;
}

void run(Session& s, const RunRequest& r) {
  s.request(r);
  ASSERT_TRUE(s.wait_idle());
  ASSERT_TRUE(s.data());
  ASSERT_TRUE(s.data()->error.empty()) << s.data()->error;
}

// Renders `draw` as a panel of w x h pixels (1x, normal look).
ws::viz::Image render(int w, int h, const std::function<void()>& draw, bool presentation = false) {
  ws::viz::PanelCapture cap{"view", ImVec2(float(w), float(h)), ws::viz::Look{1.0f, presentation}, 1.0f, draw};
  ws::viz::Image img;
  std::string err;
  EXPECT_TRUE(ws::viz::render_panel(cap, img, err)) << err;
  return img;
}

std::string rgb(const uint8_t* p) {
  char b[32];
  std::snprintf(b, sizeof b, "(%d,%d,%d)", p[0], p[1], p[2]);
  return b;
}

::testing::AssertionResult near(const ws::viz::Image& img, float x, float y, ImVec4 c, const std::string& what) {
  const int ix = int(std::floor(x)), iy = int(std::floor(y));
  if (ix < 0 || iy < 0 || ix >= img.width || iy >= img.height)
    return ::testing::AssertionFailure() << what << ": " << ix << "," << iy << " outside the image";
  const uint8_t* p = img.pixel(ix, iy);
  const int want[3] = {int(std::lround(c.x * 255)), int(std::lround(c.y * 255)), int(std::lround(c.z * 255))};
  for (int k = 0; k < 3; ++k)
    if (std::abs(int(p[k]) - want[k]) > 2)
      return ::testing::AssertionFailure() << what << " at " << ix << "," << iy << " is " << rgb(p) << ", expected ("
                                           << want[0] << "," << want[1] << "," << want[2] << ")";
  return ::testing::AssertionSuccess();
}

using Views = wstest::HeadlessGl;

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] The pictures, pixel by pixel
//-------------------------------------------------------------------------------------------------

// Variant 2 (index = 2*s*tid), block 64: warp 0's shared loads stride 2, 4, 8... words. Every
// cell of every visible row must have viridis(value) (or the empty color for an unused bank).
TEST_F(Views, BankHeatmapCellsHaveTheirValuesColor) {
  Session s;
  run(s, reduce("2"));
  BankHeatmapView st;
  ws::viz::ViewColors vc;
  ws::viz::Image img = render(900, 700, [&] {
    vc = ws::viz::view_colors();
    st.draw(s);
  });
  ASSERT_GT(st.visible_rows, 3);
  ASSERT_GE(st.cell_w, 6.0f);
  // The stride-2 row exists: bank 0 serves 2 words, bank 1 none.
  bool stride2 = false;
  for (int r = 0; r < st.visible_rows; ++r)
    if (st.rows[size_t(r)].words[0] == 2 && st.rows[size_t(r)].words[1] == 0) stride2 = true;
  EXPECT_TRUE(stride2);
  int checked = 0;
  for (int r = 0; r < st.visible_rows; ++r)
    for (int b = 0; b < 32; ++b) {
      const int v = st.rows[size_t(st.first_row + r)].words[size_t(b)];
      ImVec4 want = vc.empty;
      if (v > 0) {
        auto c = ws::viz::viridis_rgb8(float(v), 1.0f, st.vmax);
        want = ImVec4(c[0] / 255.f, c[1] / 255.f, c[2] / 255.f, 1);
      }
      const float x = st.grid_min.x + (b + 0.5f) * st.cell_w, y = st.grid_min.y + (r + 0.5f) * st.cell_h;
      ASSERT_TRUE(near(img, x, y, want, "bank " + std::to_string(b) + " row " + std::to_string(r) + " value " + std::to_string(v)));
      ++checked;
    }
  EXPECT_EQ(checked, 32 * st.visible_rows);
}

// Variant 1 (tid % (2*s)), block 64 = 2 warps: every lane row of every column of the timeline is
// lit exactly when the trace's mask has the lane.
TEST_F(Views, TimelineCellsAreTheActiveMasks) {
  for (const char* variant : {"1", "3"}) {
    SCOPED_TRACE(std::string("variant ") + variant);
    Session s;
    run(s, reduce(variant));
    TimelineView st;
    ws::viz::ViewColors vc;
    ws::viz::Image img = render(1000, 700, [&] {
      vc = ws::viz::view_colors();
      st.draw(s);
    });
    const ws::Trace& t = *s.trace();
    ASSERT_EQ(st.timeline.warps, 2u);
    ASSERT_GE(st.lane_px, 3.0f);
    ASSERT_EQ(st.lane_px, std::floor(st.lane_px));
    const float band = 32 * st.lane_px + st.gap_px;
    int lit = 0, dark = 0;
    for (uint32_t w = 0; w < 2; ++w)
      for (const auto& en : st.timeline.per_warp[w]) {
        const ws::Event& e = t.events[size_t(en.event)];
        const float x = st.grid_min.x + (float(en.column) + 0.4f) * st.col_px;
        for (int row = 0; row < 32; ++row) {
          // Row `row` draws the lane the view grouped there; the rows are a permutation of the lanes.
          const int lane = st.lane_order[w][size_t(row)];
          const float y = st.grid_min.y + float(w) * band + (float(row) + 0.5f) * st.lane_px;
          ImVec4 want;
          if (e.type == ws::EventType::Barrier) want = vc.barrier;
          else if (!((e.mask >> lane) & 1u)) want = vc.inactive, ++dark;
          else want = e.type == ws::EventType::Access ? (e.space == ws::MemSpace::Shared ? vc.active : vc.global) : vc.sync, ++lit;
          ASSERT_TRUE(near(img, x, y, want, "warp " + std::to_string(w) + " lane " + std::to_string(lane) + " column " + std::to_string(en.column)));
        }
      }
    EXPECT_GT(lit, 100);
    EXPECT_GT(dark, 100);  // variant 1's staircase, variant 3's halving: lanes sit out
    for (uint32_t w = 0; w < 2; ++w) {
      std::array<uint8_t, 32> sorted = st.lane_order[w];
      std::sort(sorted.begin(), sorted.end());
      for (int l = 0; l < 32; ++l) EXPECT_EQ(sorted[size_t(l)], l);
    }
  }
}

// The access map draws one row per wavefront: a conflict-free instruction and the worst one.
TEST_F(Views, AccessMapDrawsOneRowPerWavefront) {
  Session s;
  run(s, reduce("2", 256, 1024));
  const ws::Trace& t = *s.trace();
  std::vector<std::pair<int64_t, uint32_t>> picks(2, {-1, 0});  // (event, wavefronts)
  for (size_t i = 0; i < t.events.size(); ++i) {
    const ws::Event& e = t.events[i];
    if (e.type != ws::EventType::Access || e.space != ws::MemSpace::Shared) continue;
    const auto m = ws::analysis::metrics_of(t, e);
    if (m.shared.wavefronts == 1 && picks[0].first < 0) picks[0] = {int64_t(i), 1};
    if (m.shared.wavefronts > picks[1].second) picks[1] = {int64_t(i), m.shared.wavefronts};
  }
  ASSERT_GE(picks[0].first, 0);
  ASSERT_GE(picks[1].second, 4u);  // block 256: 4-way at s = 2, 8-way at s = 4
  for (auto [event, wavefronts] : picks) {
    SCOPED_TRACE("event " + std::to_string(event));
    s.select_event(event);
    AccessMapView st;
    ws::viz::ViewColors vc;
    ws::viz::Image img = render(1000, 640, [&] {
      vc = ws::viz::view_colors();
      st.draw(s);
    });
    EXPECT_EQ(st.event, event);
    EXPECT_TRUE(st.shared);
    EXPECT_EQ(st.wavefront_rows, int(wavefronts));
    const auto m = ws::analysis::metrics_of(t, t.events[size_t(event)]);
    // Every word's cell, at its (bank, wavefront), in the first-pass or the conflict color.
    for (const auto& w : m.shared.words) {
      const float x = st.grid_min.x + w.bank * st.cell_w + 2, y = st.grid_min.y + w.wavefront * st.row_h + 2;
      ASSERT_TRUE(near(img, x, y, w.wavefront == 0 ? vc.ok : vc.conflict, "word " + std::to_string(w.word)));
    }
    // Lanes: active ones in the active color, inactive ones grey.
    const ws::Event& e = t.events[size_t(event)];
    for (int l = 0; l < 32; ++l)
      ASSERT_TRUE(near(img, st.lanes_min.x + l * st.cell_w + 2, st.lanes_min.y + 2,
                       ((e.mask >> l) & 1u) ? vc.active : vc.inactive, "lane " + std::to_string(l)));
    // Nothing below the last wavefront row.
    const uint8_t* below = img.pixel(int(st.grid_min.x + 2), int(st.grid_min.y + wavefronts * st.row_h + 2));
    const ImVec4 ok = vc.ok, bad = vc.conflict;
    EXPECT_FALSE(std::abs(below[1] - int(ok.y * 255)) <= 2 && std::abs(below[0] - int(ok.x * 255)) <= 2) << rgb(below);
    EXPECT_FALSE(std::abs(below[1] - int(bad.y * 255)) <= 2 && std::abs(below[0] - int(bad.x * 255)) <= 2) << rgb(below);
  }
}

// An if/else on odd and even lanes, as the back row sees it: in the if's column the lit rows are
// one solid block, in the else's column the other block, not 16 one-row stripes that make both
// columns look alike. Counted on the picture's pixels, against the masks in the trace.
TEST_F(Views, TimelineDrawsABranchAsTwoSolidBlocks) {
  Session s;
  RunRequest r = default_request();
  r.kernel = "divergence";
  r.config.variant = "odd-even";
  r.config.n = 64;
  r.config.block = {64, 1, 1};
  r.config.record.blocks = {0};
  run(s, r);
  TimelineView st;
  st.controls = false;
  ws::viz::ViewColors vc;
  ws::viz::Image img = render(1000, 700, [&] {
    vc = ws::viz::view_colors();
    st.draw(s);
  });
  const ws::Trace& t = *s.trace();
  const float band = 32 * st.lane_px + st.gap_px;
  int split_columns = 0;
  for (const auto& en : st.timeline.per_warp[0]) {
    const ws::Event& e = t.events[size_t(en.event)];
    if (e.type == ws::EventType::Barrier || std::popcount(e.mask) != 16) continue;
    ++split_columns;
    // The rows lit in this column, top to bottom: how many separate runs of lit rows.
    const float x = st.grid_min.x + (float(en.column) + 0.4f) * st.col_px;
    int runs = 0, lit_rows = 0;
    bool was_lit = false;
    for (int row = 0; row < 32; ++row) {
      const uint8_t* p = img.pixel(int(x), int(st.grid_min.y + (float(row) + 0.5f) * st.lane_px));
      const bool lit = std::abs(p[0] - int(vc.inactive.x * 255)) > 12 || std::abs(p[2] - int(vc.inactive.z * 255)) > 12;
      lit_rows += lit;
      runs += lit && !was_lit;
      was_lit = lit;
    }
    EXPECT_EQ(lit_rows, 16) << "column " << en.column;
    EXPECT_EQ(runs, 1) << "column " << en.column << ": the 16 working lanes are not one block";
  }
  EXPECT_GE(split_columns, 2);  // the if's and the else's
  (void)band;
}

// In a lesson the arrow keys are the steps': an access map shown there never moves its
// instruction on them (in a panel it does), so going back a slide never shows numbers that
// contradict the caption. Keys fed to a plain ImGui context, two frames: up, then down.
TEST(LessonKeys, ArrowsMoveTheInstructionInAPanelButNeverInALesson) {
  Session s;
  run(s, reduce("2"));
  const ws::Trace& t = *s.trace();
  int64_t ev = -1;
  for (size_t i = 0; i < t.events.size() && ev < 0; ++i)
    if (t.events[i].type == ws::EventType::Access && t.events[i].warp == 0) ev = int64_t(i);
  ASSERT_GE(ev, 0);
  for (bool in_lesson : {false, true}) {
    s.select_event(ev);
    AccessMapView v;
    v.controls = true;
    v.in_lesson = in_lesson;
    ImGuiContext* ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1000, 700);
    io.DeltaTime = 1.0f / 60;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->AddFontDefault();
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    io.KeyMap[ImGuiKey_RightArrow] = 262;
    for (int frame = 0; frame < 2; ++frame) {
      io.KeysDown[262] = frame == 1;
      ImGui::NewFrame();
      ImGui::SetNextWindowFocus();
      ImGui::Begin("map");
      v.draw(s);
      ImGui::End();
      ImGui::Render();
    }
    ImGui::DestroyContext(ctx);
    if (in_lesson) {
      EXPECT_EQ(s.sel.event, ev) << "the arrow moved the instruction in a lesson";
    } else {
      EXPECT_GT(s.sel.event, ev) << "in a panel the arrow steps to the warp's next instruction";
    }
  }
}

// dim3(128,2) is drawn as it is: two rows of 128, even in a box narrower than 128 cells of the
// usual size (the cells get smaller; x is never cut into 64-wide pieces), as a slide shows it.
TEST_F(Views, ABlockIsDrawnInItsShape) {
  Session s;
  RunRequest r = default_request();
  r.kernel = "matadd";
  r.config.variant = "row";
  r.config.n = 64;
  r.config.block = {128, 2, 1};
  r.config.params["cols"] = 128;
  r.config.record.blocks = {0};
  run(s, r);
  for (bool controls : {true, false}) {
    BlockLayoutView v;
    v.controls = controls;
    render(620, 420, [&] { v.draw(s); });
    EXPECT_EQ(v.cols, 128) << "controls " << controls;
    EXPECT_EQ(v.rows, 2) << "controls " << controls;
  }
}

// Two launches compared: the timeline of the shorter one uses the longer one's x scale (one step
// as wide on both sides), and two global access maps draw as many lines across (a byte as wide).
TEST_F(Views, ComparedPicturesShareTheirScale) {
  Session a, b;
  run(a, reduce("1"));
  run(b, reduce("8"));
  TimelineView ta, tb;
  ta.controls = tb.controls = false;
  render(900, 500, [&] { ta.draw(a); });
  render(900, 500, [&] { tb.draw(b); });
  ASSERT_NE(ta.extent, tb.extent);
  ta.common_extent = tb.common_extent = std::max(ta.extent, tb.extent);
  render(900, 500, [&] { ta.draw(a); });
  render(900, 500, [&] { tb.draw(b); });
  EXPECT_FLOAT_EQ(ta.col_px, tb.col_px);

  // Global loads of 1 line (coalesced) and of 4 lines (stride): the same lines across both.
  Session one, four;
  RunRequest co = default_request();
  co.kernel = "coalesce";
  co.config.record.blocks = {0};
  co.config.variant = "offset";
  run(one, co);
  co.config.variant = "stride";
  co.config.params["stride"] = 4;
  run(four, co);
  auto first_global = [](Session& s) {
    const ws::Trace& t = *s.trace();
    for (size_t i = 0; i < t.events.size(); ++i)
      if (t.events[i].type == ws::EventType::Access && t.events[i].space == ws::MemSpace::Global) return int64_t(i);
    return int64_t(-1);
  };
  one.select_event(first_global(one));
  four.select_event(first_global(four));
  AccessMapView ma, mb;
  ma.controls = mb.controls = false;
  render(900, 500, [&] { ma.draw(one); });
  render(900, 500, [&] { mb.draw(four); });
  ASSERT_LT(ma.extent, mb.extent) << "the coalesced load draws fewer lines across";
  ma.common_extent = mb.common_extent = std::max(ma.extent, mb.extent);
  render(900, 500, [&] { ma.draw(one); });
  render(900, 500, [&] { mb.draw(four); });
  EXPECT_FLOAT_EQ(ma.cell_w, mb.cell_w);
  EXPECT_GT(ma.line_w, 0.0f);
  EXPECT_FLOAT_EQ(ma.line_w, mb.line_w);  // 128 bytes as wide on both sides
}

// A recording of some blocks only: the memory heatmap says its blank global elements may be the
// other blocks', instead of drawing half the input as untouched and leaving it at that.
TEST_F(Views, APartialRecordingSaysWhatWasNotRecorded) {
  for (const std::vector<uint32_t>& blocks : {std::vector<uint32_t>{0}, std::vector<uint32_t>{}}) {
    Session s;
    RunRequest r = reduce("3", 64, 256);  // 4 blocks
    r.config.record.blocks = blocks;      // (empty: every block)
    run(s, r);
    MemoryHeatmapView v;
    v.controls = false;
    std::string drawn;
    render(900, 600, [&] {
      v.draw(s);
      for (const auto& t : ws::viz::drawn_text(*ImGui::GetWindowDrawList(), *ImGui::GetIO().Fonts)) drawn += t.text + "\n";
    });
    const bool says = drawn.find("1 of 4 blocks recorded: a blank global element may be touched by the blocks not recorded") !=
                      std::string::npos;
    EXPECT_EQ(says, !blocks.empty()) << drawn;
  }
}

// A global load: coalesced 4-byte loads are 4 sectors of one line.
TEST_F(Views, AccessMapGlobalSectors) {
  Session s;
  run(s, reduce("3"));
  const ws::Trace& t = *s.trace();
  int64_t ev = -1;
  for (size_t i = 0; i < t.events.size() && ev < 0; ++i)
    if (t.events[i].type == ws::EventType::Access && t.events[i].space == ws::MemSpace::Global &&
        t.events[i].kind == ws::AccessKind::Load && t.events[i].mask == 0xffffffffu)
      ev = int64_t(i);
  ASSERT_GE(ev, 0);
  s.select_event(ev);
  AccessMapView st;
  render(1000, 640, [&] { st.draw(s); });
  EXPECT_FALSE(st.shared);
  EXPECT_EQ(st.sector_boxes, 4);
}

// Without --select each picture opens on the instruction its lesson is about: the naive
// transpose's column store (32 sectors), not its coalesced row read; the atomics' atomicAdd on one
// word, not the load before it.
TEST_F(Views, TheDefaultPictureIsTheCostliestInstruction) {
  struct Case {
    const char* kernel;
    const char* variant;
    ws::AccessKind kind;
  };
  for (const Case& c : {Case{"transpose", "naive", ws::AccessKind::Store}, Case{"atomics", "add", ws::AccessKind::Atomic}}) {
    Session s;
    RunRequest r;
    r.kernel = c.kernel;
    r.config.variant = c.variant;
    run(s, r);
    ASSERT_NE(s.trace(), nullptr) << c.kernel;
    ASSERT_GE(s.sel.event, 0) << c.kernel;
    const ws::Event& e = s.trace()->events[size_t(s.sel.event)];
    EXPECT_EQ(e.kind, c.kind) << c.kernel;
    EXPECT_EQ(e.space, ws::MemSpace::Global) << c.kernel;
    EXPECT_GT(ws::analysis::excess_cost(ws::analysis::metrics_of(*s.trace(), e)), 0u) << c.kernel;
  }
}

// Compare: the same launch on the other backend below. A run that says it came from the GPU gets
// an emulator run as its companion (here both are emulator traces, so the two timelines must be
// cell for cell the same); without a GPU, an emulator run's companion says why it has no trace.
TEST_F(Views, TimelineComparesWithTheOtherBackend) {
  Session s;
  run(s, reduce("1", 64, 128));
  auto as_gpu = std::make_shared<SessionData>(*s.data());
  as_gpu->request.backend = ws::BackendKind::GpuTrace;  // pretend: its companion is then the emulator
  s.set_data(as_gpu);
  TimelineView st;
  st.compare = true;
  Session& other = st.compare_session(s);
  ASSERT_TRUE(other.wait_idle());
  ASSERT_TRUE(other.data());
  EXPECT_EQ(other.data()->request.backend, ws::BackendKind::Emu);
  render(900, 800, [&] { st.draw(s); });
  ASSERT_TRUE(st.other_view);
  EXPECT_GT(st.grid.columns, 0);
  EXPECT_EQ(st.other_view->grid.columns, st.grid.columns);
  EXPECT_EQ(st.other_view->grid.masks, st.grid.masks);
  // The main run changes: the companion follows.
  const uint64_t asked = st.other_for;
  run(s, reduce("3", 64, 128));
  st.compare_session(s);
  EXPECT_NE(st.other_for, asked);
  ASSERT_TRUE(st.other->wait_idle());
  EXPECT_EQ(st.other->data()->request.config.variant, "3");
}

// The memory heatmap colored by bank conflicts: at stride 2 every element the warp read met one
// other word in its bank (value 1); at stride 33 none did (value 0, the map's lowest color), and
// elements nobody touched stay blank.
TEST_F(Views, MemoryHeatmapColorsBankConflictsPerElement) {
  for (int stride : {2, 33}) {
    Session s;
    RunRequest r = default_request();
    r.kernel = "bank";
    r.config.variant = "stride";
    r.config.n = 32;
    r.config.block = {32, 1, 1};
    r.config.params["stride"] = stride;
    run(s, r);
    MemoryHeatmapView mh;
    mh.mode = 1;
    ws::viz::ViewColors vc;
    ws::viz::Image img = render(900, 1400, [&] {  // tall enough for the 1024 words of stride 33
      vc = ws::viz::view_colors();
      mh.draw(s);
    });
    if (const char* keep = std::getenv("WS_KEEP_PNG"))
      (void)ws::viz::save_png(std::string(keep) + "/memory_conflicts_" + std::to_string(stride) + ".png", img);
    const ws::Trace& t = *s.trace();
    size_t sh = t.allocations.size();
    for (size_t a = 0; a < t.allocations.size(); ++a)
      if (t.allocations[a].space == ws::MemSpace::Shared) sh = a;
    ASSERT_LT(sh, t.allocations.size());
    const auto& A = *mh.allocs[sh];
    ASSERT_GE(A.cell, 4.0f);
    int read = 0;
    for (size_t e = 0; e < A.counts.loads.size(); ++e) {
      if (A.counts.loads[e] == 0) continue;  // the elements the strided read touched (all were filled first)
      ++read;
      EXPECT_EQ(A.counts.conflicts[e], stride == 2 ? 1u : 0u) << "element " << e;
      const auto c = ws::viz::viridis_rgb8(float(A.counts.conflicts[e]), 0.0f, A.map.vmax);
      const float x = A.grid_min.x + (float(e % size_t(A.cols)) + 0.5f) * A.cell;
      const float y = A.grid_min.y + (float(e / size_t(A.cols)) + 0.5f) * A.cell_h;
      EXPECT_TRUE(near(img, x, y, ImVec4(c[0] / 255.f, c[1] / 255.f, c[2] / 255.f, 1), "element " + std::to_string(e)));
    }
    EXPECT_EQ(read, 32) << "stride " << stride;
  }
}

// The timeline's zoom option: 4 times the fitting column width, the selected instruction's column
// in the middle of the picture.
TEST_F(Views, TimelineZoomOptionCentresTheSelection) {
  Session s;
  run(s, reduce("1", 64, 128));
  TimelineView fit, zoomed;
  const ws::app::ViewType* type = ws::app::find_view_type("timeline");
  ASSERT_NE(type, nullptr);
  ASSERT_EQ(ws::app::apply_option(*type, zoomed, "zoom", "4"), "");
  render(900, 500, [&] { fit.draw(s); });
  const int columns = fit.grid.columns;
  ASSERT_GT(columns, 8);
  // Select an instruction in the middle of warp 0's row.
  const auto& row = fit.timeline.per_warp.at(0);
  const auto& mid = row.at(row.size() / 2);
  s.select_event(int64_t(mid.event));
  render(900, 500, [&] { zoomed.draw(s); });
  EXPECT_NEAR(zoomed.col_px, 4 * fit.col_px, 0.01f * fit.col_px);
  const float visible = float(columns) / 4;
  EXPECT_NEAR(zoomed.col0 + visible / 2, float(mid.column), 1.0f + 0.02f * float(columns));
}

//-------------------------------------------------------------------------------------------------
// [SECTION] The labs
//-------------------------------------------------------------------------------------------------

TEST_F(Views, ReductionLabShowsPass) {
  for (bool presentation : {false, true}) {
    Session s;
    run(s, reduce("3"));
    LabView st;
    ws::viz::ViewColors vc;
    ws::viz::Image img = render(520, 760, [&] {
      vc = ws::viz::view_colors();
      st.draw(s);
    }, presentation);
    ASSERT_EQ(st.verdict, 1);
    ASSERT_TRUE(s.data()->result.passed);
    const float y = (st.verdict_min.y + st.verdict_max.y) / 2;
    EXPECT_TRUE(near(img, st.verdict_min.x + 3, y, vc.ok, "PASS badge"));
    // The badge holds dark text (PASS): some pixels inside are far from the badge color.
    int ink = 0;
    for (int x = int(st.verdict_min.x); x < int(st.verdict_max.x); ++x)
      if (img.pixel(x, int(y))[1] < 80) ++ink;
    EXPECT_GT(ink, 3);
  }
}

// Broken on purpose looks broken: the seeds' cache[2] race and the lecture's first step 5 (no
// volatile, no __syncwarp) compute the right sum on the emulator, and still get no PASS: RACE in
// the conflict color, LOCKSTEP ONLY in the warning color, and the first pair in words.
TEST_F(Views, ARaceIsNoPass) {
  struct Case {
    RunRequest req;
    const char* word;
  };
  RunRequest race;
  race.kernel = "race";
  race.config.variant = "0";
  RunRequest unsafe = reduce("5u");
  for (const Case& c : {Case{race, "RACE"}, Case{unsafe, "LOCKSTEP ONLY"}}) {
    Session s;
    run(s, c.req);
    ASSERT_TRUE(s.data()->result.passed) << c.word;  // the sum is right...
    LabView st;
    ws::viz::ViewColors vc;
    ws::viz::Image img = render(520, 760, [&] {
      vc = ws::viz::view_colors();
      st.draw(s);
    });
    EXPECT_EQ(st.verdict, 0) << c.word;  // ...and it is no pass
    EXPECT_EQ(st.verdict_word, c.word);
    const float y = (st.verdict_min.y + st.verdict_max.y) / 2;
    EXPECT_TRUE(near(img, st.verdict_min.x + 3, y, std::string(c.word) == "RACE" ? vc.conflict : vc.barrier, c.word));
  }
}

// The Memory lab's matrix kernels take a 2D block shape (seed 000: dim3(16,16) vs dim3(128,2)):
// the lab shows the run's x and y, and the run used exactly that shape.
TEST_F(Views, MemoryLabTakesTwoDimensionalBlocks) {
  Session s;
  RunRequest r = default_request();
  r.kernel = "matadd";
  r.config.variant.clear();
  r.config.n = 64;
  r.config.block = {128, 2, 1};
  r.config.record.blocks = {0};
  run(s, r);
  ASSERT_TRUE(s.data()->result.passed) << s.data()->result.result;
  EXPECT_EQ(s.data()->result.launches.at(0).launch.block.y, 2u);
  LabView st;
  st.kernels = {"bank", "coalesce", "transpose", "matadd", "matmul", "shortcut"};
  render(520, 760, [&] { st.draw(s); });
  EXPECT_EQ(st.block, 128);
  EXPECT_EQ(st.block_y, 2);
  EXPECT_EQ(st.verdict, 1);
}

TEST(LabText, GroupedCountsReadOffAWall) {
  EXPECT_EQ(grouped(0), "0");
  EXPECT_EQ(grouped(999), "999");
  EXPECT_EQ(grouped(1000), "1,000");
  EXPECT_EQ(grouped(1727145), "1,727,145");
  EXPECT_EQ(grouped(18446744073709551615ull), "18,446,744,073,709,551,615");
}

//-------------------------------------------------------------------------------------------------
// [SECTION] The session: runs in the background, refusals
//-------------------------------------------------------------------------------------------------

// One launch for every panel: a run asked for anywhere (the lab, the block layout, a lesson) shows
// in every panel's fields, so "Run with this block" never runs a stale shape.
TEST_F(Views, EveryPanelShowsTheLaunchOfTheLastRequest) {
  Session s;
  LabView lab;
  BlockLayoutView layout;
  run(s, reduce("3", 128, 1024));
  render(520, 700, [&] {
    lab.draw(s);
    layout.draw(s);
  });
  EXPECT_EQ(lab.block, 128);
  EXPECT_EQ(lab.n, 1024);
  EXPECT_EQ(layout.edit_block[0], 128);
  run(s, reduce("3", 64, 2048));  // asked for by someone else
  render(520, 700, [&] {
    lab.draw(s);
    layout.draw(s);
  });
  EXPECT_EQ(lab.block, 64);
  EXPECT_EQ(lab.n, 2048);
  EXPECT_EQ(layout.edit_block[0], 64);
}

// Every view draws its explanation, not nothing, when there is no trace (a refused run).
TEST_F(Views, RefusedRunIsExplained) {
  Session s;
  RunRequest r = reduce("3", 96);  // not a power of two: refused
  s.request(r);
  ASSERT_TRUE(s.wait_idle());
  ASSERT_TRUE(s.data());
  EXPECT_NE(s.data()->error.find("power of two"), std::string::npos) << s.data()->error;
  EXPECT_EQ(s.trace(), nullptr);
  AccessMapView a;
  BankHeatmapView b;
  TimelineView tl;
  BlockLayoutView bl;
  MemoryHeatmapView mh;
  SourceView sv;
  ws::viz::Image img = render(600, 400, [&] {
    a.draw(s);
    b.draw(s);
    tl.draw(s);
    bl.draw(s);
    mh.draw(s);
    sv.draw(s);
    PlaybackView().draw(s);
  });
  // The message is drawn in the warning color: count its pixels.
  int warm = 0;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x)
      if (img.pixel(x, y)[0] > 180 && img.pixel(x, y)[2] < 60) ++warm;
  EXPECT_GT(warm, 50);
}

// A newer request supersedes an older one: the last one asked for is what is shown.
TEST(Session, NewerRequestWins) {
  Session s;
  s.request(reduce("1", 256, 1 << 16));
  s.request(reduce("2"));
  s.request(reduce("3"));
  ASSERT_TRUE(s.wait_idle());
  ASSERT_TRUE(s.data());
  EXPECT_EQ(s.data()->resolved.variant, "3");
  EXPECT_FALSE(s.busy());
  EXPECT_EQ(s.data()->reports.size(), s.data()->result.launches.size());
  // The history keeps the key numbers: variant 3 has no bank conflicts.
  auto it = s.history.find(Session::history_key("reduce", s.data()->resolved));
  ASSERT_NE(it, s.history.end());
  EXPECT_EQ(it->second.shared_conflicts, 0u);
  EXPECT_TRUE(it->second.passed);
}

// Requests a long run (2^22 elements, every block recorded: seconds on the emulator) and waits
// until it runs.
static void start_a_long_run(Session& s) {
  RunRequest r = reduce("1", 256, 1 << 22);
  r.config.record.blocks.clear();
  s.request(r);
  for (int i = 0; i < 200 && s.busy_text().rfind("running", 0) != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

// A long run stops on Cancel, and the panels get a "cancelled" message rather than a result.
TEST(Session, CancelStopsALongRun) {
  Session s;
  start_a_long_run(s);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  s.cancel();
  ASSERT_TRUE(s.wait_idle(std::chrono::seconds(30)));
  ASSERT_TRUE(s.data());
  // Only the cancel path writes this (a finished run would PASS; the step budget says otherwise).
  EXPECT_NE(s.data()->error.find("cancelled"), std::string::npos) << s.data()->error;
  EXPECT_FALSE(s.data()->result.completed);
}

// What the program does before main() returns: stop() cancels the run going and joins the
// worker, so no run goes on while statics are destroyed.
TEST(Session, StopCancelsTheRunGoingAndJoins) {
  Session s;
  start_a_long_run(s);
  ASSERT_EQ(s.busy_text().rfind("running", 0), 0u) << s.busy_text();
  s.stop();
  EXPECT_TRUE(s.busy_text().empty()) << s.busy_text();  // nothing runs or waits to run
  s.poll();
  ASSERT_TRUE(s.data());
  EXPECT_NE(s.data()->error.find("cancelled"), std::string::npos) << s.data()->error;
  s.request(reduce("3", 256, 1024));  // after stop(): never runs
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(s.busy_text().rfind("queued", 0), 0u) << s.busy_text();
}

// The Memory lab's lesson: shared[base + s*tid] with stride 2 has bank conflicts, stride 33 none.
TEST(Session, BankStride2ConflictsStride33None) {
  Session s;
  for (int stride : {2, 33}) {
    RunRequest r = default_request();
    r.kernel = "bank";
    r.config.variant = "stride";
    r.config.n = 32;
    r.config.block = {32, 1, 1};
    r.config.params["stride"] = stride;
    s.request(r);
    ASSERT_TRUE(s.wait_idle());
    ASSERT_TRUE(s.data());
    ASSERT_TRUE(s.data()->error.empty()) << s.data()->error;
    const auto it = s.history.find(Session::history_key("bank", s.data()->resolved));
    ASSERT_NE(it, s.history.end());
    if (stride == 2) EXPECT_EQ(it->second.shared_conflicts, 1u);  // one 2-way load: 2 wavefronts
    else EXPECT_EQ(it->second.shared_conflicts, 0u);
  }
}

TEST(Session, Variant2HasConflictsVariant3None) {
  Session s;
  run(s, reduce("2"));
  const KeyNumbers k2 = key_numbers(*s.data());
  run(s, reduce("3"));
  const KeyNumbers k3 = key_numbers(*s.data());
  EXPECT_GT(k2.shared_conflicts, 0u);
  EXPECT_EQ(k3.shared_conflicts, 0u);
  EXPECT_GT(k3.simd_efficiency, 0.0);
}

// The lab's key numbers take the GPU's whole-grid counters when every launch has them (a
// multi-pass reduction sums its launches), and say which blocks the recorded numbers cover.
TEST(Session, KeyNumbersSumTheGridCountersOfEveryLaunch) {
  SessionData d;
  d.result.passed = true;
  for (uint64_t conflicts : {30u, 2u}) {
    ws::analysis::Report r;
    r.blocks = {0};
    r.total_blocks = 64;
    r.grid.present = true;
    r.grid.blocks = 64;
    r.grid.shared[ws::analysis::kLd].conflicts = conflicts;
    r.grid.shared[ws::analysis::kLd].wavefronts = conflicts + 10;
    r.grid.instructions = 10;
    r.grid.lane_accesses = 160;
    r.grid.global[ws::analysis::kLd].bytes_requested = 512;
    r.grid.global[ws::analysis::kLd].bytes_moved = 1024;
    d.reports.push_back(r);
  }
  KeyNumbers k = key_numbers(d);
  EXPECT_TRUE(k.grid);
  EXPECT_EQ(k.grid_shared_conflicts, 32u);
  EXPECT_EQ(k.grid_shared_wavefronts, 52u);
  EXPECT_EQ(k.grid_instructions, 20u);
  EXPECT_DOUBLE_EQ(k.grid_simd_efficiency, 0.5);
  EXPECT_DOUBLE_EQ(k.grid_global_load_efficiency, 0.5);
  EXPECT_EQ(k.recorded_blocks, 2u);
  EXPECT_EQ(k.total_blocks, 128u);
  EXPECT_EQ(k.shared_conflicts, 0u);  // the recorded blocks' own numbers are apart

  d.reports[1].grid = {};  // one launch without counters: no grid numbers at all
  k = key_numbers(d);
  EXPECT_FALSE(k.grid);
}

TEST(Session, SelectionSpec) {
  Session s;
  run(s, reduce("2"));
  EXPECT_EQ(apply_selection(s, "block=0,warp=1,step=2"), "");
  EXPECT_EQ(s.sel.warp, 1u);
  ASSERT_GE(s.sel.event, 0);
  EXPECT_EQ(s.trace()->events[size_t(s.sel.event)].step, 2u);
  EXPECT_EQ(apply_selection(s, "event=5"), "");
  EXPECT_EQ(s.sel.event, 5);
  EXPECT_NE(apply_selection(s, "colour=3"), "");
  EXPECT_NE(apply_selection(s, "event=x"), "");
  EXPECT_NE(apply_selection(s, "event=999999"), "");
  EXPECT_EQ(apply_selection(s, "cursor=10"), "");
  EXPECT_EQ(s.sel.cursor, 10);
}

//-------------------------------------------------------------------------------------------------
// [SECTION] warpscope --headless --view
//-------------------------------------------------------------------------------------------------

// --mouse: the picture shows what hovering there shows. The bank heatmap's cell of bank 10 in
// the second row (a store: one word) gets its tooltip, below and right of the arrow; the picture
// without --mouse has neither.
TEST(ViewCli, MouseShowsTheTooltipThere) {
  const fs::path plain = fs::temp_directory_path() / "ws-mouse-plain.png";
  const fs::path hover = fs::temp_directory_path() / "ws-mouse-hover.png";
  const std::string view = "--headless --view bank-conflict-heatmap --kernel bank --variant stride --param stride=2 "
                           "--n 32 --block 32 --size 640x400 --scale 2 ";
  ASSERT_EQ(run_warpscope(view + "--screenshot " + plain.string()).exit_code, 0);
  RunResult r = run_warpscope(view + "--mouse 300,200 --screenshot " + hover.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ws::viz::Image a, b;
  std::string err;
  ASSERT_TRUE(ws::viz::load_png(plain, a, err)) << err;
  ASSERT_TRUE(ws::viz::load_png(hover, b, err)) << err;
  ASSERT_EQ(a.width, b.width);
  ASSERT_EQ(a.height, b.height);
  int changed = 0, min_x = a.width, min_y = a.height;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x)
      if (std::memcmp(a.pixel(x, y), b.pixel(x, y), 3) != 0) {
        ++changed;
        min_x = std::min(min_x, x), min_y = std::min(min_y, y);
      }
  EXPECT_GT(changed, 100 * 100) << "no tooltip box";
  EXPECT_NEAR(min_y, 200, 40) << "the change starts at the arrow";
  fs::remove(plain);
  fs::remove(hover);
  RunResult outside = run_warpscope(view + "--mouse 1280,10 --screenshot " + hover.string());
  EXPECT_EQ(outside.exit_code, 2);
  EXPECT_NE(outside.out.find("--mouse '1280,10' is outside the picture"), std::string::npos) << outside.out;
  EXPECT_FALSE(fs::exists(hover));
}

// The binary: one view to a PNG; bad names and missing --headless are usage errors.
TEST(ViewCli, RendersOneView) {
  const fs::path png = fs::temp_directory_path() / "ws-view-test.png";
  fs::remove(png);
  RunResult r = run_warpscope("--headless --view bank-conflict-heatmap --variant 2 --n 512 --block 64 --select block=0,warp=1 "
                              "--size 640x400 --scale 2 --screenshot " + png.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ws::viz::Image img;
  std::string err;
  ASSERT_TRUE(ws::viz::load_png(png, img, err)) << err;
  EXPECT_EQ(img.width, 1280);
  EXPECT_EQ(img.height, 800);
  fs::remove(png);
  EXPECT_EQ(run_warpscope("--headless --view nope --screenshot " + png.string()).exit_code, 2);
  EXPECT_EQ(run_warpscope("--view timeline --screenshot " + png.string()).exit_code, 2);
  // The memory heatmap's color mode: a known one renders, an unknown one names the choices.
  EXPECT_EQ(run_warpscope("--headless --view memory --kernel bank --variant stride --param stride=2 --n 32 --block 32 "
                          "--color conflicts --screenshot " + png.string()).exit_code, 0);
  fs::remove(png);
  RunResult x = run_warpscope("--headless --view timeline --timeline-x days --screenshot " + png.string());
  EXPECT_EQ(x.exit_code, 2);
  EXPECT_NE(x.out.find("x is steps, clock or time (not 'days')"), std::string::npos) << x.out;
  // An option the view does not have is refused too, with the options it has.
  RunResult other = run_warpscope("--headless --view timeline --color conflicts --screenshot " + png.string());
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.out.find("has no option 'color' (options: x, compare, zoom, lanes or controls)"), std::string::npos) << other.out;
  RunResult scope = run_warpscope("--headless --view banks --view-option scope=everything --screenshot " + png.string());
  EXPECT_EQ(scope.exit_code, 2);
  EXPECT_NE(scope.out.find("scope is warp, block or launch"), std::string::npos) << scope.out;
  RunResult color = run_warpscope("--headless --view memory --color hue --screenshot " + png.string());
  EXPECT_EQ(color.exit_code, 2);
  EXPECT_NE(color.out.find("accesses, conflicts, first-touch, hazards or contention"), std::string::npos) << color.out;
  RunResult bad = run_warpscope("--headless --view timeline --select warp=x --screenshot " + png.string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.out.find("not a number"), std::string::npos) << bad.out;
  // What the command line names must exist: a kernel, a variant, a warp of the block, a recorded
  // block. Refused (exit 2) with what exists, never a picture of something else.
  const std::pair<std::string, std::string> wrong[] = {
      {"--view lab --kernel reduse", "no kernel named 'reduse' (kernels: reduce,"},
      {"--view lab --variant 42", "kernel 'reduce' has no variant '42' (variants: 1, 2,"},
      {"--view access --select warp=99", "warp 99 does not exist: a block of 256 threads has warps 0-7"},
      {"--view access --select block=9", "block 9 was not recorded (recorded blocks: 0-3)"},
      {"--view access --select lane=32", "lane 32 does not exist: lanes are 0-31"},
      {"--select warp=99", "warp 99 does not exist"},
  };
  for (const auto& [args, message] : wrong) {
    RunResult r = run_warpscope("--headless " + args + " --screenshot " + png.string());
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
    EXPECT_FALSE(fs::exists(png)) << args;
  }
  EXPECT_FALSE(fs::exists(png));
}
