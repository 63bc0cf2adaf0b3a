#include "cli.h"

#include "commands/commands.h"
#include "headless.h"
#include "options.h"
#include "window.h"

#include "ws/viz/png.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <iostream>

namespace ws::app {

std::optional<Size> parse_size(const std::string& text, std::string& error) {
  const std::string format =
      "expected WIDTHxHEIGHT in pixels, each 1 to " + std::to_string(kMaxImageSide) + ", e.g. 1600x900";
  auto x = text.find_first_of("xX");
  Size s;
  auto number = [](std::string_view part, int& out) {
    if (part.empty() || part.size() > 6) return false;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    return ec == std::errc() && ptr == part.data() + part.size();
  };
  if (x == std::string::npos || !number(std::string_view(text).substr(0, x), s.width) ||
      !number(std::string_view(text).substr(x + 1), s.height)) {
    error = "'" + text + "' is not a size: " + format;
    return std::nullopt;
  }
  if (s.width < 1 || s.height < 1 || s.width > kMaxImageSide || s.height > kMaxImageSide) {
    error = "'" + text + "' is out of range: " + format;
    return std::nullopt;
  }
  return s;
}

namespace {

int run_headless_cli(const Options& opt) {
  if (opt.screenshot.empty()) {
    std::cerr << "warpscope: --headless needs --screenshot FILE (there is nothing else to show)\n";
    return 2;
  }
  HeadlessRun run;
  run.width = opt.width;
  run.height = opt.height;
  run.scale = opt.scale;
  run.presentation = opt.presentation;
  run.frames = opt.frames > 0 ? opt.frames : 4;
  ws::viz::Image img;
  std::string renderer, error;
  if (!render_headless(run, img, renderer, error)) {
    std::cerr << "warpscope: headless rendering failed: " << error << "\n";
    return 1;
  }
  error = ws::viz::save_png(opt.screenshot, img);
  if (!error.empty()) {
    std::cerr << "warpscope: " << error << "\n";
    return 1;
  }
  std::cout << "warpscope: wrote " << opt.screenshot << " (" << img.width << "x" << img.height
            << ", scale " << opt.scale << ", " << run.frames << " frames, rendered by " << renderer
            << ")\n";
  return 0;
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{
      "warpscope: see how CUDA kernels really execute - which lanes of which warp touch which\n"
      "addresses and shared-memory banks, where warps diverge, how fast the kernels run.\n"
      "Without options it opens the viewer window.",
      "warpscope"};
  app.set_version_flag("--version", WS_VERSION);
  Options opt;
  if (argc > 0 && argv[0] && *argv[0]) opt.program = argv[0];
  std::string size_text;
  app.add_flag("--headless", opt.headless,
               "Render without a display (EGL device platform, works on CPU-only machines); "
               "needs --screenshot. Ignores the saved layout, so pictures are reproducible");
  app.add_option("--size", size_text,
                 "Window or image size WIDTHxHEIGHT in pixels, 1.." + std::to_string(kMaxImageSide) +
                     " each (default 1600x900)")
      ->check(CLI::Validator(
          [](std::string& v) {
            std::string err;
            return parse_size(v, err) ? std::string() : err;
          },
          "", "size"))
      ->type_name("WxH");
  auto* scale_opt = app.add_option("--scale", opt.scale, "UI scale on top of the monitor's DPI, 0.5 to 4 (default 1)")
      ->check(CLI::Range(0.5f, 4.0f));
  app.add_option("--screenshot", opt.screenshot,
                 "Write a PNG of the whole UI to FILE and exit (atomically: no partial file)")
      ->type_name("FILE");
  app.add_option("--frames", opt.frames,
                 "Frames to render before the screenshot / before quitting (default 4 headless)")
      ->check(CLI::Range(1, 100000));
  app.add_flag("--presentation", opt.presentation,
               "Presentation mode: larger font, high-contrast theme, fullscreen (F11 toggles)");
  app.footer(
      "Keys in the viewer: F1 help, F11 presentation mode, F12 screenshot, Ctrl +/- UI scale, "
      "Ctrl+Q quit.\n"
      "Settings and window layout: $XDG_CONFIG_HOME/warpscope/ (default ~/.config/warpscope/).\n"
      "Example without a display: warpscope --headless --size 1600x900 --scale 2 --screenshot out.png");

  register_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "warpscope: " << e.what() << "\n"
              << "Run 'warpscope --help' to see the options.\n";
    return 2;
  }
  int rc = run_selected_command(app);
  if (rc >= 0) return rc;
  opt.scale_given = scale_opt->count() > 0;

  if (!size_text.empty()) {
    std::string err;
    Size s = *parse_size(size_text, err);  // validated above
    opt.width = s.width;
    opt.height = s.height;
    opt.size_given = true;
  }
  if (opt.headless) return run_headless_cli(opt);
  return run_window(opt);
}

}  // namespace ws::app
