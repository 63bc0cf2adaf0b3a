#include "shell/window.h"

#include "model/device_probe.h"
#include "shell/frame.h"
#include "shell/settings.h"
#include "shell/shell.h"

#include "ws/viz/framebuffer.h"
#include "ws/viz/gl.h"
#include "ws/viz/imgui_gl.h"
#include "ws/util/atomic_file.h"
#include "ws/viz/png.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include <cstdlib>
#include <optional>
#include <iostream>
#include <string>
#include <vector>

namespace ws::app {

namespace {

std::string g_glfw_error;  // GLFW reports through a callback; kept for our one-line message

void on_glfw_error(int, const char* text) { g_glfw_error = text ? text : ""; }

void print_no_display(const std::string& program, const std::string& why) {
  std::cerr << "warpscope: no display (" << why << "); render headless instead: " << program
            << " --headless --size 1600x900 --screenshot warpscope.png\n";
}

struct WindowState {
  std::vector<Action> pending;  // filled by the key callback, consumed once per frame
};

// Keys to Actions. Installed before ImGui's GLFW backend, which chains to it.
void on_key(GLFWwindow* window, int key, int, int action, int mods) {
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  auto* ws = static_cast<WindowState*>(glfwGetWindowUserPointer(window));
  const bool ctrl = mods & GLFW_MOD_CONTROL;
  auto push = [&](Action a) { ws->pending.push_back(a); };
  if (action == GLFW_PRESS) {
    if (key == GLFW_KEY_F1) push(Action::ToggleHelp);
    // Esc as an action, not through ImGui: whichever widget has the keyboard, the overlay closes.
    if (key == GLFW_KEY_ESCAPE) push(Action::CloseOverlay);
    if (key == GLFW_KEY_F11) push(Action::TogglePresentation);
    if (key == GLFW_KEY_F12) push(Action::SaveScreenshot);
    if (ctrl && key == GLFW_KEY_Q) push(Action::Quit);
    if (ctrl && (key == GLFW_KEY_0 || key == GLFW_KEY_KP_0)) push(Action::ScaleReset);
    // A lesson's keys (the shell ignores them outside a lesson and while a field is typed in).
    if (key == GLFW_KEY_RIGHT || key == GLFW_KEY_PAGE_DOWN || key == GLFW_KEY_SPACE) push(Action::StepNext);
    if (key == GLFW_KEY_LEFT || key == GLFW_KEY_PAGE_UP) push(Action::StepPrev);
    if (key == GLFW_KEY_HOME) push(Action::StepFirst);
    if (!ctrl && key == GLFW_KEY_R) push(Action::StepReset);
    if (!ctrl && key == GLFW_KEY_C) push(Action::StepControls);
    if (!ctrl && key == GLFW_KEY_PERIOD) push(Action::InstructionNext);
    if (!ctrl && key == GLFW_KEY_COMMA) push(Action::InstructionPrev);
    if (ctrl && key == GLFW_KEY_S) push(Action::StepSave);
    if (!ctrl && key >= GLFW_KEY_0 && key <= GLFW_KEY_9) push(Action(int(Action::Digit0) + (key - GLFW_KEY_0)));
    if (!ctrl && key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_9) push(Action(int(Action::Digit0) + (key - GLFW_KEY_KP_0)));
    if (key == GLFW_KEY_ENTER || key == GLFW_KEY_KP_ENTER) push(Action::Confirm);
  }
  // '+' is Shift+'=' on US keyboards; accept '=' alone too, and the keypad.
  if (ctrl && (key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD)) push(Action::ScaleUp);
  if (ctrl && (key == GLFW_KEY_MINUS || key == GLFW_KEY_KP_SUBTRACT)) push(Action::ScaleDown);
}

float content_scale(GLFWwindow* window) {
  float xs = 1.0f, ys = 1.0f;
  glfwGetWindowContentScale(window, &xs, &ys);
  return xs > 0 ? xs : 1.0f;
}

// `w` x `h` shrunk (keeping its shape) to fit the primary monitor's work area, where GLFW knows it.
void fit_to_monitor(int& w, int& h) {
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (!monitor) return;
  int mx = 0, my = 0, mw = 0, mh = 0;
  glfwGetMonitorWorkarea(monitor, &mx, &my, &mw, &mh);
  if (mw <= 0 || mh <= 0) {
    const GLFWvidmode* mode = glfwGetVideoMode(monitor);
    if (!mode) return;
    mw = mode->width, mh = mode->height;
  }
  if (w <= mw && h <= mh) return;
  const double k = std::min(double(mw) / w, double(mh) / h);
  w = std::max(1, int(w * k)), h = std::max(1, int(h * k));
}

// Fullscreen follows presentation mode; the windowed position and size come back afterwards.
struct Fullscreen {
  bool on = false;
  int x = 0, y = 0, w = 0, h = 0;
  void set(GLFWwindow* window, bool want) {
    if (want == on) return;
    if (want) {
      GLFWmonitor* monitor = glfwGetPrimaryMonitor();
      const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
      if (!mode) return;
      glfwGetWindowPos(window, &x, &y);
      glfwGetWindowSize(window, &w, &h);
      glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
      // (never larger than the monitor it comes back to: a window made for a bigger screen, or
      // sized while fullscreen, would hang off a 720p projector's edge)
      fit_to_monitor(w, h);
      glfwSetWindowMonitor(window, nullptr, x, y, w, h, GLFW_DONT_CARE);
    }
    on = want;
  }
};

// --scale and --presentation are for this run only: unless the user changed them in the session,
// the file keeps what it had, so a one-off `warpscope --presentation` does not stick.
struct CliOverrides {
  Settings from_file;
  std::optional<float> scale;
  std::optional<bool> presentation;
};

void save_layout(ShellState& s, const CliOverrides& cli) {
  Settings out = s.settings;
  if (cli.scale && out.user_scale == *cli.scale) out.user_scale = cli.from_file.user_scale;
  if (cli.presentation && out.presentation == *cli.presentation) out.presentation = cli.from_file.presentation;
  size_t n = 0;
  const char* ini = ImGui::SaveIniSettingsToMemory(&n);
  std::string err = save_text(imgui_ini_path(), std::string(ini, n));
  if (err.empty()) err = save_text(settings_path(), format_settings(out));
  if (!err.empty()) notify(s, err, true);
  ImGui::GetIO().WantSaveIniSettings = false;
  s.settings_dirty = false;
}

}  // namespace

int run_window(const Options& opt) {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!x11 || !*x11) && (!wayland || !*wayland)) {
    print_no_display(opt.program, "DISPLAY and WAYLAND_DISPLAY are not set");
    return 1;
  }
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    print_no_display(opt.program, "GLFW cannot initialize: " + g_glfw_error);
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // the default size grows with the DPI
  int width = opt.width, height = opt.height;
  fit_to_monitor(width, height);
  GLFWwindow* window = glfwCreateWindow(width, height, "warpscope", nullptr, nullptr);
  if (!window) {
    std::cerr << "warpscope: cannot open an OpenGL 3.3 window: " << g_glfw_error << "\n";
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    std::cerr << "warpscope: cannot load OpenGL 3.3 functions\n";
    glfwDestroyWindow(window);
    glfwTerminate();
    return 1;
  }

  WindowState wstate;
  glfwSetWindowUserPointer(window, &wstate);
  glfwSetKeyCallback(window, on_key);

  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // we load and save it ourselves, atomically, in the config folder
  ShellState s;
  s.persist = true;
  CliOverrides cli;
  cli.from_file = load_settings(settings_path());
  s.settings = cli.from_file;
  if (opt.scale_given) s.settings.user_scale = *(cli.scale = opt.scale);  // an explicit --scale wins
  if (opt.presentation) s.settings.presentation = *(cli.presentation = true);
  s.backend = probe_backend();
  {
    std::string ini, err;
    if (s.settings.user_arranged && ws::read_file(imgui_ini_path(), ini, err))
      ImGui::LoadIniSettingsFromMemory(ini.data(), ini.size());
  }
  s.layout_dirty = !s.settings.user_arranged;
  if (!opt.lesson.empty()) {
    // The lesson was checked before the window opened (cli.cpp): it loads.
    s.trust_outside = opt.trust_outside;
    if (std::string err = open_lesson(s, opt.lesson, opt.trust); !err.empty()) notify(s, err, true);
    s.settings.presentation = true;  // a lesson is for the projector (F11 turns it off; this run only)
  }

  ImGui_ImplGlfw_InitForOpenGL(window, true);
  shell_prepare(s, content_scale(window));
  if (!ws::viz::imgui_gl_init()) {
    std::cerr << "warpscope: cannot initialize the OpenGL renderer\n";
    return 1;
  }

  Fullscreen fullscreen;
  int rc = 0;
  for (int frame = 0; !glfwWindowShouldClose(window) && !s.quit; ++frame) {
    if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
      glfwWaitEvents();  // nothing to draw: do not spin
      continue;
    }
    glfwPollEvents();
    fullscreen.set(window, s.settings.presentation);
    shell_prepare(s, content_scale(window));

    FrameInput in;
    int ww = 0, wh = 0, fw = 0, fh = 0;
    glfwGetWindowSize(window, &ww, &wh);
    glfwGetFramebufferSize(window, &fw, &fh);
    in.display_size = ImVec2(static_cast<float>(ww), static_cast<float>(wh));
    in.actions.swap(wstate.pending);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    render_frame(s, in, ImVec2(static_cast<float>(fw), static_cast<float>(fh)), [] { ImGui_ImplGlfw_NewFrame(); });

    const bool scripted_end = opt.frames > 0 && frame + 1 >= opt.frames;
    if (s.want_screenshot || (scripted_end && !opt.screenshot.empty())) {
      // The back buffer holds exactly what the swap is about to show.
      glReadBuffer(GL_BACK);
      ws::viz::Image img = ws::viz::read_pixels(fw, fh);
      std::filesystem::path path = scripted_end && !opt.screenshot.empty()
                                       ? std::filesystem::path(opt.screenshot)
                                       : export_path(s, "", 1.0f);
      std::string err = ws::viz::save_png(path, img);
      if (!err.empty()) {
        notify(s, err, true);
        if (scripted_end) rc = 1;
      } else {
        notify(s, "saved " + path.string() + " (" + std::to_string(fw) + "x" + std::to_string(fh) + ")", false);
      }
      s.want_screenshot = false;
    }
    shell_after_render(s);
    glfwSwapBuffers(window);
    if (s.settings_dirty || io.WantSaveIniSettings) save_layout(s, cli);
    if (scripted_end) break;
  }
  save_layout(s, cli);

  ws::viz::imgui_gl_shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return rc;
}

}  // namespace ws::app
