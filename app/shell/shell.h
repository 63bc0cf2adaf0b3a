// The UI shell: menu bar, panels, status bar, help overlay. One frame function drawn by the same
// code in a GLFW window and headless; it takes the display size and the user's actions and knows
// nothing about windows or key codes.
//
// A frame, in either driver (see frame.h):
//   shell_prepare(state, dpi)        between frames: applies a changed look (rebuilds fonts)
//   ImGui::NewFrame(); shell_frame(state, input); ImGui::Render(); ...draw...
//   (driver saves a requested whole-window screenshot from the framebuffer)
//   shell_after_render(state)        panel exports, each rendered offscreen
#pragma once

#include "shell/actions.h"
#include "shell/settings.h"
#include "views/view.h"

#include "ws/viz/look.h"

#include <imgui.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ws::app {

struct Rect;
struct ShellLayout;
class LessonPlayer;
struct SlideReport;

struct FrameInput {
  ImVec2 display_size{0, 0};
  std::vector<Action> actions;  // keys pressed since the last frame (window) or scripted (tests)
};

struct PanelExport {
  int panel = -1;         // index into view_types()
  float factor = 1.0f;    // 1x or 2x
  ImVec2 size{0, 0};      // on-screen size when it was asked for
};

struct ShellState {
  Settings settings;
  bool persist = false;           // window path: remember settings and layout; headless: never
  float dpi_scale = 1.0f;         // native content scale of the monitor (1 headless)
  float raster = 1.0f;            // output pixels per layout pixel (a 2x headless export: 2)
  std::string backend = "CPU emulator";
  std::filesystem::path export_dir = ".";

  // Applied look (fonts and style are rebuilt when the wanted look differs).
  bool look_applied = false;
  ws::viz::Look look;
  std::string font_warning;

  // Requests for the driver, cleared by whoever fulfils them.
  bool quit = false;
  bool want_screenshot = false;
  std::vector<PanelExport> exports;

  // One instance of every view, in view_types() order (made on the first frame): each panel's
  // state lives in its view.
  std::vector<std::unique_ptr<View>> views;

  // A lesson, when one is open: while lesson_mode is on, the window shows its step instead of
  // the panels (lessons/lesson_frame.h).
  std::shared_ptr<LessonPlayer> lesson;
  bool lesson_mode = false;
  bool lesson_trusted = false;  // the open lesson's kernel files were built (trusted)
  bool trust_outside = false;   // --trust-outside: a lesson's files may lie outside its folder
  // A lesson that names kernel files, opened from an untrusted folder: the files, and a look at
  // each, until the user trusts the folder or says not now (trust_prompt.h).
  struct TrustPrompt {
    std::filesystem::path lesson;
    std::vector<std::filesystem::path> files;
    std::string preview;
  };
  std::optional<TrustPrompt> trust_prompt;
  std::string jump;  // digits of a step number being typed
  // Where each frame's slide report goes (lessons/slide_report.h; null: not measured).
  SlideReport* slide_report = nullptr;
  // The File menu's list of shipped lessons (file, title or why it does not load), read once.
  struct LessonChoice {
    std::filesystem::path file;
    std::string title, error;
  };
  std::optional<std::vector<LessonChoice>> shipped;
  std::optional<std::vector<LessonChoice>> shipped_exercises;  // the same for the exercises
  std::string lesson_path;  // the File menu's "open this file" field
  std::string exercise_path;  // the File menu's "open this exercise" field
  std::string exercise_work_dir;  // where the student's copies go ("": ~/warpscope-exercises)
  std::string kernel_file_path;  // the File menu's "open this kernel file" field

  // UI state.
  bool help_open = false;
  bool focus_default = true;      // first frame: the warp access map is the focused panel
  bool layout_dirty = true;       // re-tile the panels this frame
  ImVec2 last_display{0, 0};     // the panels were tiled for this size
  ImVec2 display{0, 0};          // the window's size at the last frame (a lesson scales to it)
  float frame_ms = 0.0f;          // smoothed
  std::string message;            // last export result, shown in the status bar
  bool message_is_error = false;
  std::chrono::steady_clock::time_point message_time;
  bool settings_dirty = false;
  std::vector<ImVec2> panel_sizes;  // last on-screen size per panel (exports of hidden panels)
};

ws::viz::Look wanted_look(const ShellState& s);
// Between frames. Returns true when the look changed (fonts rebuilt, layout re-tiled).
bool shell_prepare(ShellState& s, float dpi_scale);
void shell_frame(ShellState& s, const FrameInput& in);
void shell_after_render(ShellState& s);

void apply_action(ShellState& s, Action a);
// Opens `file` as the lesson (step 1, lesson mode on); "" or why not (the file's error). Its
// kernel files are built only when `trusted` or its folder is in the trusted settings; else the
// lesson opens with those steps off and the trust prompt asks.
std::string open_lesson(ShellState& s, const std::filesystem::path& file, bool trusted = false);
// The trust prompt (an open lesson's kernel files, a look at each, trust the folder or not now).
void draw_trust_prompt(ShellState& s);
void notify(ShellState& s, std::string message, bool is_error);
// A fresh export file name in s.export_dir: warpscope-<what>-YYYYmmdd-HHMMSS[@2x].png
std::filesystem::path export_path(const ShellState& s, const std::string& what, float factor);

// Pieces of the frame, one file each.
void draw_menu_bar(ShellState& s);
void draw_status_bar(ShellState& s, const ShellLayout& layout);
void draw_help_overlay(ShellState& s);
void draw_panel_window(ShellState& s, int panel, const Rect& tile);

}  // namespace ws::app
