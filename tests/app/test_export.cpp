// Driving the shell in-process, headless: panel exports land as PNGs of the right size (2x for
// slides), failures are reported in the status bar, actions change the look, F1 shows the help.
#include "shell/frame.h"
#include "cli/headless.h"
#include "views/view.h"
#include "model/session.h"
#include "shell/shell.h"

#include "ws/viz/framebuffer.h"
#include "ws/viz/headless_context.h"
#include "ws/viz/imgui_gl.h"
#include "ws/viz/png.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cstring>
#include <cmath>
#include <filesystem>

namespace fs = std::filesystem;

namespace {

// A headless GL + ImGui context running the shell, torn down at the end of the test.
struct Harness {
  std::unique_ptr<ws::viz::HeadlessContext> gl;
  ws::viz::Framebuffer fb;
  ImGuiContext* imgui = nullptr;
  ws::app::ShellState s;
  std::string err;

  bool start(int w, int h) {
    gl = ws::viz::HeadlessContext::create(err);
    if (!gl || !fb.resize(w, h, err)) return false;
    imgui = ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::GetIO().DisplaySize = ImVec2(float(w), float(h));
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ws::app::shell_prepare(s, 1.0f);
    return ws::viz::imgui_gl_init();
  }
  void frame(std::vector<ws::app::Action> actions = {}) {
    ws::app::shell_prepare(s, 1.0f);
    ws::app::FrameInput in{ImGui::GetIO().DisplaySize, std::move(actions)};
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    fb.bind();
    ws::app::render_frame(s, in, in.display_size);
    ws::app::shell_after_render(s);
  }
  ~Harness() {
    if (imgui) {
      ws::viz::imgui_gl_shutdown();
      ImGui::DestroyContext(imgui);
    }
  }
};

fs::path fresh_dir(const char* name) {
  fs::path d = fs::temp_directory_path() / ("ws-export-" + std::string(name));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(Export, PanelAtOneXAndTwoX) {
  Harness h;
  ASSERT_TRUE(h.start(1280, 720)) << h.err;
  h.s.export_dir = fresh_dir("panel");
  h.frame();
  h.frame();
  const int panel = ws::app::view_index("warp-access-map");
  ASSERT_GT(h.s.panel_sizes.size(), size_t(panel));
  const ImVec2 size = h.s.panel_sizes[size_t(panel)];
  h.s.exports.push_back({panel, 1.0f, size});
  h.s.exports.push_back({panel, 2.0f, size});
  h.frame();
  EXPECT_FALSE(h.s.message_is_error) << h.s.message;

  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(h.s.export_dir)) files.push_back(e.path());
  ASSERT_EQ(files.size(), 2u);
  std::sort(files.begin(), files.end());  // "...@2x.png" sorts after "....png"? check by name
  for (const fs::path& f : files) {
    ws::viz::Image img;
    std::string err;
    ASSERT_TRUE(ws::viz::load_png(f, img, err)) << err;
    const bool two = f.filename().string().find("@2x") != std::string::npos;
    EXPECT_NE(f.filename().string().find("warpscope-warp-access-map-"), std::string::npos) << f;
    EXPECT_EQ(img.width, int(std::lround(size.x * (two ? 2 : 1)))) << f;
    EXPECT_EQ(img.height, int(std::lround(size.y * (two ? 2 : 1)))) << f;
  }
  if (!std::getenv("WS_KEEP_EXPORTS")) fs::remove_all(h.s.export_dir);
}

TEST(Export, UnwritableFolderIsReportedInTheStatusBar) {
  Harness h;
  ASSERT_TRUE(h.start(800, 600)) << h.err;
  h.s.export_dir = "/nonexistent/exports";
  h.frame();
  h.s.exports.push_back({0, 1.0f, ImVec2(200, 100)});
  h.frame();
  EXPECT_TRUE(h.s.message_is_error);
  EXPECT_NE(h.s.message.find("cannot write /nonexistent/exports/"), std::string::npos) << h.s.message;
}

TEST(Shell, ScaleActionsStepAndClamp) {
  ws::app::ShellState s;
  ws::app::apply_action(s, ws::app::Action::ScaleUp);
  EXPECT_FLOAT_EQ(s.settings.user_scale, 1.1f);
  for (int i = 0; i < 40; ++i) ws::app::apply_action(s, ws::app::Action::ScaleUp);
  EXPECT_FLOAT_EQ(s.settings.user_scale, ws::app::kMaxUserScale);
  for (int i = 0; i < 40; ++i) ws::app::apply_action(s, ws::app::Action::ScaleDown);
  EXPECT_FLOAT_EQ(s.settings.user_scale, ws::app::kMinUserScale);
  ws::app::apply_action(s, ws::app::Action::ScaleReset);
  EXPECT_FLOAT_EQ(s.settings.user_scale, 1.0f);
  ws::app::apply_action(s, ws::app::Action::TogglePresentation);
  EXPECT_EQ(ws::app::wanted_look(s).theme(), ws::viz::Theme::HighContrast);
}

TEST(Shell, ScaleChangeRebuildsTheFontAtTheNewSize) {
  Harness h;
  ASSERT_TRUE(h.start(800, 600)) << h.err;
  h.frame();
  EXPECT_FLOAT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 16.0f);
  h.frame({ws::app::Action::ScaleUp, ws::app::Action::ScaleUp});  // 1.0 -> 1.1 -> 1.25
  h.frame();
  EXPECT_FLOAT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 20.0f);
  EXPECT_FLOAT_EQ(ImGui::GetIO().FontGlobalScale, 1.0f);  // sharp: never a stretched atlas
}

TEST(Shell, HelpOverlayListsEveryShortcut) {
  ws::app::HeadlessRun run;
  run.width = 1280;
  run.height = 720;
  ws::viz::Image plain, help;
  std::string renderer, err;
  ASSERT_TRUE(ws::app::render_headless(run, plain, renderer, err)) << err;
  run.actions = {ws::app::Action::ToggleHelp};
  ASSERT_TRUE(ws::app::render_headless(run, help, renderer, err)) << err;
  // The overlay is centered: the middle of the picture changes, the menu bar does not.
  int changed_center = 0, changed_menu = 0;
  for (int y = 0; y < 720; ++y)
    for (int x = 0; x < 1280; ++x) {
      bool diff = std::memcmp(plain.pixel(x, y), help.pixel(x, y), 3) != 0;
      if (diff && std::abs(x - 640) < 100 && std::abs(y - 360) < 60) ++changed_center;
      if (diff && y < 10) ++changed_menu;
    }
  EXPECT_GT(changed_center, 1000);
  EXPECT_EQ(changed_menu, 0);
  EXPECT_GE(ws::app::shortcuts().size(), 7u);
  // Esc closes it, whatever had the keyboard: the picture is the plain one again.
  run.actions = {ws::app::Action::ToggleHelp, ws::app::Action::CloseOverlay};
  ws::viz::Image closed;
  ASSERT_TRUE(ws::app::render_headless(run, closed, renderer, err)) << err;
  int still_changed = 0;
  for (int y = 300; y < 420; ++y)
    for (int x = 540; x < 740; ++x) still_changed += std::memcmp(plain.pixel(x, y), closed.pixel(x, y), 3) != 0;
  EXPECT_EQ(still_changed, 0);
  EXPECT_STREQ(ws::app::shortcut_keys(ws::app::Action::CloseOverlay), "Esc");
  if (std::getenv("WS_KEEP_EXPORTS")) ws::viz::save_png(fs::temp_directory_path() / "ws-help.png", help);
}

// Reset layout is the default layout: every panel in its tile, the closed ones back.
TEST(Shell, ResetLayoutBringsClosedPanelsBack) {
  ws::app::ShellState s;
  s.settings.hidden = {"memory-lab", "timing"};
  s.settings.user_arranged = true;
  ws::app::apply_action(s, ws::app::Action::ResetLayout);
  EXPECT_TRUE(s.settings.hidden.empty());
  EXPECT_FALSE(s.settings.user_arranged);
  EXPECT_TRUE(s.layout_dirty);
}

// A view's message (a CSV saved, or why not) reaches the status bar through the session.
TEST(Shell, ViewsSayThingsInTheStatusBar) {
  ws::app::Session session;
  session.notify("saved /tmp/x.csv", false);
  session.notify("cannot write /nope/x.csv: No such file or directory", true);
  const auto notices = session.take_notices();
  ASSERT_EQ(notices.size(), 2u);
  EXPECT_TRUE(notices[1].is_error);
  EXPECT_TRUE(session.take_notices().empty());
  for (int i = 0; i < 40; ++i) session.notify(std::to_string(i), false);
  const auto kept = session.take_notices();
  ASSERT_EQ(kept.size(), 16u);  // bounded: the oldest are dropped
  EXPECT_EQ(kept.back().text, "39");
}
