#include "shell/shell.h"

#include "shell/layout.h"
#include "lessons/exercise_session.h"
#include "lessons/lesson_frame.h"
#include "lessons/lesson_player.h"
#include "model/kernel_file_watch.h"
#include "model/session.h"

#include "ws/viz/panel_capture.h"
#include "ws/viz/png.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iostream>

namespace ws::app {

namespace {

// Zoom steps a lecturer can hit repeatedly without landing on odd sizes.
constexpr float kScaleSteps[] = {0.5f, 0.67f, 0.75f, 0.8f, 0.9f, 1.0f, 1.1f, 1.25f,
                                 1.5f, 1.75f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f};

float step_scale(float current, int dir) {
  if (dir > 0) {
    for (float s : kScaleSteps)
      if (s > current + 0.01f) return s;
    return kScaleSteps[std::size(kScaleSteps) - 1];
  }
  for (auto it = std::rbegin(kScaleSteps); it != std::rend(kScaleSteps); ++it)
    if (*it < current - 0.01f) return *it;
  return kScaleSteps[0];
}

}  // namespace

ws::viz::Look wanted_look(const ShellState& s) {
  // A lesson is a slide: in the presentation look, scaled to the display (lesson_frame.h).
  const bool slide = s.lesson_mode && s.lesson;
  return ws::viz::Look{s.dpi_scale * s.settings.user_scale * (slide ? slide_scale(s.display) : 1.0f),
                       s.settings.presentation || slide, s.raster, slide ? s.lesson->zooms() : std::vector<float>{}};
}

bool shell_prepare(ShellState& s, float dpi_scale) {
  s.dpi_scale = dpi_scale > 0 ? dpi_scale : 1.0f;
  ws::viz::Look look = wanted_look(s);
  if (s.look_applied && look == s.look) return false;
  s.font_warning = ws::viz::apply_look(look);
  if (!s.font_warning.empty() && !s.look_applied)
    std::cerr << "warpscope: " << s.font_warning << "\n";
  s.look = look;
  s.look_applied = true;
  // Positions were in the old pixel size: tile again at the new one.
  if (!s.settings.user_arranged) s.layout_dirty = true;
  return true;
}

void notify(ShellState& s, std::string message, bool is_error) {
  (is_error ? std::cerr : std::cout) << "warpscope: " << message << "\n";
  s.message = std::move(message);
  s.message_is_error = is_error;
  s.message_time = std::chrono::steady_clock::now();
}

namespace {

// A lesson's keys; nothing outside lesson mode, nor while a text field takes the keys.
void apply_lesson_action(ShellState& s, Action a) {
  if (!s.lesson_mode || !s.lesson) return;
  if (ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput) return;
  LessonPlayer& p = *s.lesson;
  if (a >= Action::Digit0 && a <= Action::Digit9) {
    if (s.jump.size() < 4) s.jump += char('0' + (int(a) - int(Action::Digit0)));
    return;
  }
  const std::string jump = std::move(s.jump);
  s.jump.clear();
  switch (a) {
    case Action::StepNext: p.next(); break;
    case Action::StepPrev: p.prev(); break;
    case Action::StepFirst: p.first(); break;
    case Action::StepReset: p.reset_step(); break;
    case Action::StepControls: p.toggle_controls(); break;
    case Action::InstructionNext: p.session().step_instruction(+1); break;
    case Action::InstructionPrev: p.session().step_instruction(-1); break;
    case Action::Confirm:
      if (!jump.empty()) p.go(size_t(std::max(1, std::stoi(jump))) - 1);
      break;
    case Action::StepSave: {
      const size_t at = p.index();
      LessonStep step = p.current_as_step();
      std::string err = insert_step(p.lesson().file, at, step);
      if (err.empty()) {
        LessonLoad again = load_lesson(p.lesson().file, {s.lesson_trusted, s.trust_outside});
        err = again.error;
        if (again.ok()) {
          p.replace_lesson(std::move(again.lesson), at);
          p.go(at + 1, true);
        }
      }
      notify(s, err.empty() ? "saved the state as step " + std::to_string(at + 2) + " of " + p.lesson().file.string()
                            : err,
             !err.empty());
      break;
    }
    default: break;
  }
}

}  // namespace

std::string open_lesson(ShellState& s, const std::filesystem::path& file, bool trusted) {
  std::error_code ec;
  const std::string folder = std::filesystem::weakly_canonical(file, ec).parent_path().string();
  trusted = trusted || s.settings.trusted_folders.count(folder);
  LessonLoad l = load_lesson(file, {trusted, s.trust_outside});
  if (!l.ok()) return l.error;
  s.trust_prompt.reset();
  if (!l.untrusted_files.empty()) s.trust_prompt = ShellState::TrustPrompt{file, l.untrusted_files, ""};
  s.lesson_trusted = l.untrusted_files.empty();
  s.lesson = std::make_shared<LessonPlayer>(std::move(l.lesson));
  s.lesson->go(0, true);
  s.lesson_mode = true;
  s.jump.clear();
  return {};
}

void apply_action(ShellState& s, Action a) {
  Settings& st = s.settings;
  if (a == Action::StepReset && !s.lesson_mode && exercise_session().is_open() && !ImGui::GetIO().WantTextInput) {
    exercise_session().ask_restore = true;  // (the Exercise panel asks first)
    return;
  }
  switch (a) {
    case Action::ToggleHelp: s.help_open = !s.help_open; break;
    case Action::CloseOverlay:
      if (s.help_open) s.help_open = false;
      else if (s.lesson_mode) s.lesson_mode = false, s.layout_dirty = true;
      break;
    case Action::StepNext:
    case Action::StepPrev:
    case Action::StepFirst:
    case Action::StepReset:
    case Action::StepSave:
    case Action::StepControls:
    case Action::InstructionNext:
    case Action::InstructionPrev:
    case Action::Digit0: case Action::Digit1: case Action::Digit2: case Action::Digit3: case Action::Digit4:
    case Action::Digit5: case Action::Digit6: case Action::Digit7: case Action::Digit8: case Action::Digit9:
    case Action::Confirm:
      apply_lesson_action(s, a);
      break;
    case Action::SaveScreenshot: s.want_screenshot = true; break;
    case Action::Quit: s.quit = true; break;
    case Action::TogglePresentation:
      // For this run: what the settings file keeps is whether to start in it (View menu).
      st.presentation = !st.presentation;
      st.user_arranged = false;
      s.settings_dirty = true;
      break;
    case Action::ScaleUp:
    case Action::ScaleDown:
    case Action::ScaleReset: {
      float next = a == Action::ScaleReset ? 1.0f : step_scale(st.user_scale, a == Action::ScaleUp ? 1 : -1);
      next = std::clamp(next, kMinUserScale, kMaxUserScale);
      if (next != st.user_scale) {
        st.user_scale = next;
        st.user_arranged = false;  // a new scale re-tiles: hand-placed pixels no longer fit
        s.settings_dirty = true;
      }
      break;
    }
    case Action::ResetLayout:
      // The default layout is every panel in its tile: closed panels come back, so no tile is
      // left empty.
      st.hidden.clear();
      st.user_arranged = false;
      s.layout_dirty = true;
      s.settings_dirty = true;
      break;
  }
}

std::filesystem::path export_path(const ShellState& s, const std::string& what, float factor) {
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::string name = "warpscope-" + (what.empty() ? "" : what + "-") + stamp;
  if (factor > 1.0f) {
    // Appended piecewise: "@" + to_string(...) trips a GCC 12 -Wrestrict false positive.
    name += '@';
    name += std::to_string(static_cast<int>(factor));
    name += 'x';
  }
  std::filesystem::path p = s.export_dir / (name + ".png");
  // Two exports in the same second must not overwrite each other.
  for (int i = 2; std::filesystem::exists(p); ++i)
    p = s.export_dir / (name + "-" + std::to_string(i) + ".png");
  return p;
}

void shell_frame(ShellState& s, const FrameInput& in) {
  for (Action a : in.actions) apply_action(s, a);
  ImGuiIO& io = ImGui::GetIO();
  // The session: start the first run once, take in a finished run, advance playback.
  Session& ses = session();
  ses.start_default();
  ses.poll();
  kernel_file_watch().poll(ses);
  exercise_session().poll(ses, kernel_file_watch());
  ses.advance_playback(io.DeltaTime);
  for (Session::Notice& n : ses.take_notices()) notify(s, std::move(n.text), n.is_error);
  if (s.views.empty())
    for (const ViewType& v : view_types()) s.views.push_back(v.make());
  if (io.DeltaTime > 0) {
    float ms = io.DeltaTime * 1000.0f;
    s.frame_ms = s.frame_ms == 0.0f ? ms : s.frame_ms * 0.9f + ms * 0.1f;
  }

  const ImVec2 display = in.display_size;
  s.display = display;
  // A lesson fills the window: its step, nothing else (help still opens over it).
  if (s.lesson_mode && s.lesson) {
    LessonFrameLayout L = draw_lesson(*s.lesson, display, s.jump.c_str(), s.slide_report != nullptr);
    if (s.slide_report) *s.slide_report = std::move(L.report);
    if (s.help_open) draw_help_overlay(s);
    if (s.trust_prompt) draw_trust_prompt(s);
    return;
  }
  if (display.x != s.last_display.x || display.y != s.last_display.y) {
    if (!s.settings.user_arranged) s.layout_dirty = true;
    s.last_display = display;
  }
  ShellLayout layout = compute_layout(display, ImGui::GetFontSize(), ImGui::GetStyle());

  draw_menu_bar(s);
  const auto views = view_types();
  for (size_t i = 0; i < views.size(); ++i)
    if (!s.settings.hidden.count(views[i].id) && (!views[i].present || views[i].present()))
      draw_panel_window(s, static_cast<int>(i), layout.panels[i]);
  // ImGui focuses the last window it creates; the panel lectures start from should be the one.
  if (s.focus_default) {
    if (int i = view_index("warp-access-map"); i >= 0 && !s.settings.hidden.count(views[size_t(i)].id))
      ImGui::SetWindowFocus(views[size_t(i)].title);
    s.focus_default = false;
  }
  draw_status_bar(s, layout);
  if (s.help_open) draw_help_overlay(s);
  if (s.trust_prompt) draw_trust_prompt(s);
  s.layout_dirty = false;
}

void shell_after_render(ShellState& s) {
  std::vector<PanelExport> exports;
  exports.swap(s.exports);
  const auto views = view_types();
  for (const PanelExport& e : exports) {
    if (e.panel < 0 || static_cast<size_t>(e.panel) >= std::min(views.size(), s.views.size())) continue;
    const ViewType& p = views[static_cast<size_t>(e.panel)];
    View& view = *s.views[static_cast<size_t>(e.panel)];
    ws::viz::PanelCapture cap{p.title, e.size, s.look, e.factor, [&view] { view.draw(session()); }};
    ws::viz::Image img;
    std::string err;
    std::filesystem::path path = export_path(s, p.id, e.factor);
    if (!ws::viz::render_panel(cap, img, err)) {
      notify(s, "cannot export " + std::string(p.title) + ": " + err, true);
      continue;
    }
    err = ws::viz::save_png(path, img);
    if (!err.empty())
      notify(s, err, true);
    else
      notify(s, "saved " + path.string() + " (" + std::to_string(img.width) + "x" +
                    std::to_string(img.height) + ")", false);
  }
}

}  // namespace ws::app
