#include "cli/cli.h"

#include "cli/commands/commands.h"
#include "cli/headless.h"
#include "model/kernel_file_watch.h"
#include "lessons/exercise_session.h"
#include "views/exercise_view.h"
#include "lessons/lesson.h"
#include "lessons/lesson_player.h"
#include "model/options.h"
#include "cli/scale_check.h"
#include "model/session.h"
#include "model/timing_runner.h"
#include "cli/view_export.h"
#include "shell/window.h"

#include "ws/isolation/isolated_runs.h"
#include "ws/viz/png.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>

namespace ws::app {

namespace {

// Two numbers around a separator ("1600x900", "300,200"): each a whole number of at most six
// characters, nothing else.
bool parse_pair(std::string_view text, std::string_view separators, int& first, int& second) {
  auto number = [](std::string_view part, int& out) {
    if (part.empty() || part.size() > 6) return false;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    return ec == std::errc() && ptr == part.data() + part.size();
  };
  const auto at = text.find_first_of(separators);
  return at != std::string_view::npos && number(text.substr(0, at), first) && number(text.substr(at + 1), second);
}

}  // namespace

std::optional<Size> parse_size(const std::string& text, std::string& error) {
  const std::string format =
      "expected WIDTHxHEIGHT in pixels, each 1 to " + std::to_string(kMaxImageSide) + ", e.g. 1600x900";
  Size s;
  if (!parse_pair(text, "xX", s.width, s.height)) {
    error = "'" + text + "' is not a size: " + format;
    return std::nullopt;
  }
  if (s.width < 1 || s.height < 1 || s.width > kMaxImageSide || s.height > kMaxImageSide) {
    error = "'" + text + "' is out of range: " + format;
    return std::nullopt;
  }
  return s;
}

std::optional<Point> parse_point(const std::string& text, Size picture, std::string& error) {
  const std::string format = "expected X,Y, a pixel of the " + std::to_string(picture.width) + "x" +
                             std::to_string(picture.height) + " picture (X 0.." + std::to_string(picture.width - 1) +
                             ", Y 0.." + std::to_string(picture.height - 1) + ")";
  Point p;
  if (!parse_pair(text, ",", p.x, p.y)) {
    error = "'" + text + "' is not a point: " + format;
    return std::nullopt;
  }
  if (p.x < 0 || p.y < 0 || p.x >= picture.width || p.y >= picture.height) {
    error = "'" + text + "' is outside the picture: " + format;
    return std::nullopt;
  }
  return p;
}

namespace {

bool request_from_options(const Options& opt, RunRequest& req, std::string& error);

int run_headless_cli(const Options& opt) {
  if (opt.screenshot.empty()) {
    std::cerr << "warpscope: --headless needs --screenshot FILE (there is nothing else to show)\n";
    return 2;
  }
  HeadlessRun run;
  if (!opt.lesson.empty()) {
    LessonLoad l = load_lesson(opt.lesson, {opt.trust, opt.trust_outside});
    if (!l.ok()) {
      std::cerr << "warpscope: " << l.error << "\n";
      return 2;
    }
    if (std::string m = untrusted_message(l, opt.lesson); !m.empty()) {
      std::cerr << "warpscope: " << m << "\n";
      return 2;
    }
    if (opt.step < 1 || size_t(opt.step) > l.lesson.steps.size()) {
      std::cerr << "warpscope: --step " << opt.step << ": the lesson has steps 1 to " << l.lesson.steps.size() << "\n";
      return 2;
    }
    run.lesson = std::make_shared<LessonPlayer>(std::move(l.lesson));
    run.step = size_t(opt.step - 1);
  }
  run.width = opt.width;
  run.height = opt.height;
  run.scale = opt.scale;
  run.presentation = opt.presentation || run.lesson;  // a lesson is for the projector
  run.frames = opt.frames > 0 ? opt.frames : 4;
  if (!opt.mouse.empty()) {
    std::string err;
    const auto at = parse_point(opt.mouse, {opt.width, opt.height}, err);
    if (!at) {
      std::cerr << "warpscope: --mouse " << err << "\n";
      return 2;
    }
    run.mouse = ImVec2(float(at->x), float(at->y));
  }
  const LaunchText& l = opt.launch;
  if (!opt.kernel.empty() || !l.variant.empty() || !l.n.empty() || !l.block.empty() || !l.dtype.empty() ||
      !l.seed.empty() || !opt.select.empty() || !l.params.empty() || !opt.backend.empty()) {
    std::string err;
    RunRequest req;
    if (!request_from_options(opt, req, err)) {
      std::cerr << "warpscope: " << err << "\n";
      return 2;
    }
    run.request = req;
    run.select = opt.select;
    if (SelectionSpec sel; !(err = parse_selection(opt.select, sel)).empty()) {
      std::cerr << "warpscope: " << err << "\n";
      return 2;
    }
  }
  ws::viz::Image img;
  std::string renderer, error;
  bool bad_input = false;
  if (!render_headless(run, img, renderer, error, &bad_input)) {
    std::cerr << "warpscope: " << (bad_input ? "" : "headless rendering failed: ") << error << "\n";
    return bad_input ? 2 : 1;
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

// The run that --view or a whole-UI headless picture shows: the default run, changed by the
// launch options given.
bool request_from_options(const Options& opt, RunRequest& req, std::string& error) {
  req = default_request();
  if (!opt.kernel.empty() && opt.kernel != req.kernel) {
    req.kernel = opt.kernel;
    req.config.variant.clear();
    req.config.n = 0;
    req.config.block = {0, 1, 1};
  }
  if (opt.backend == "gpu-trace") req.backend = BackendKind::GpuTrace;
  error = apply_launch_text(opt.launch, req.config);
  if (!error.empty()) return false;
  // What the catalog refuses (no such kernel or variant, a block it cannot take) is refused here,
  // before anything runs: a picture of a refusal is no picture.
  const Catalog& cat = Catalog::instance();
  const CatalogEntry* e = cat.find(req.kernel);
  if (!e) {
    error = cat.run(req.kernel, req.config, req.backend).refused;
    return false;
  }
  RunConfig resolved = req.config;
  error = cat.resolve(*e, resolved);
  return error.empty();
}

// Every view's options, from the registry: "memory-heatmap: color = accesses|conflicts|first-touch; ...".
std::string view_options_help() {
  std::string h = "With --view: one of the view's own options, repeatable. ";
  bool first = true;
  for (const ViewType& t : view_types())
    for (const ViewOption& o : t.options) {
      h += std::string(first ? "" : "; ") + t.id + ": " + o.key + "=" + o.values;
      first = false;
    }
  return h + " (the first value is the default)";
}

int run_view_cli(const Options& opt) {
  if (!opt.headless || opt.screenshot.empty()) {
    std::cerr << "warpscope: --view renders one view to a PNG: it needs --headless and --screenshot FILE\n";
    return 2;
  }
  ViewRun run;
  run.view = opt.view;
  std::string err;
  // The view's own options; --color, --timeline-x and --compare are short for three of them.
  run.options = opt.view_options;
  if (!opt.color.empty()) run.options.push_back("color=" + opt.color);
  if (!opt.timeline_x.empty()) run.options.push_back("x=" + opt.timeline_x);
  if (opt.compare) run.options.push_back("compare=on");
  if (!make_view(run.view, run.options, err).view) {
    std::cerr << "warpscope: " << err << "\n";
    return 2;
  }
  if (!request_from_options(opt, run.request, err)) {
    std::cerr << "warpscope: " << err << "\n";
    return 2;
  }
  run.select = opt.select;
  if (SelectionSpec sel; !(err = parse_selection(opt.select, sel)).empty()) {
    std::cerr << "warpscope: " << err << "\n";
    return 2;
  }
  if (opt.size_given) {
    run.width = opt.width;
    run.height = opt.height;
  }
  run.factor = opt.scale;
  run.presentation = opt.presentation;
  if (!opt.mouse.empty()) {
    const Size picture{int(std::lround(run.width * run.factor)), int(std::lround(run.height * run.factor))};
    const auto at = parse_point(opt.mouse, picture, err);
    if (!at) {
      std::cerr << "warpscope: --mouse " << err << "\n";
      return 2;
    }
    run.mouse = ImVec2(float(at->x), float(at->y));
  }
  ws::viz::Image img;
  bool bad_input = false;
  if (!render_view(run, img, err, &bad_input)) {
    std::cerr << "warpscope: " << err << "\n";
    return bad_input ? 2 : 1;
  }
  err = ws::viz::save_png(opt.screenshot, img);
  if (!err.empty()) {
    std::cerr << "warpscope: " << err << "\n";
    return 1;
  }
  auto d = session().data();
  std::cout << "warpscope: wrote " << opt.screenshot << " (" << img.width << "x" << img.height << ", view "
            << find_view_type(opt.view)->id << ", " << run.request.kernel << " "
            << (d ? d->resolved.variant : run.request.config.variant) << ")\n";
  if (d && !d->error.empty()) std::cout << "warpscope: the run reported: " << d->error << "\n";
  return 0;
}


// `open FILE.cu`: built and watched; a picture waits for the build (false: nothing to draw).
bool open_kernel_file(Options& opt) {
  KernelFileWatch& w = kernel_file_watch();
  w.open(opt.kernel_file);
  if (!opt.headless && opt.view.empty()) return true;
  // A picture shows the built kernel (or the build's errors in the Kernel file panel).
  w.wait(session());
  for (const auto& d : w.last().diagnostics)
    if (d.severity == kernel_file::BuildDiagnostic::Severity::Error) std::cerr << kernel_file::to_text(d) << "\n";
  if (w.kernel().empty() && !opt.view.empty() && opt.view != "kernel-file" && opt.view != "build") return false;
  if (opt.kernel.empty()) opt.kernel = w.kernel();
  return true;
}

// --exercise: its starting file copied to --work and opened; a picture waits for its grade.
bool open_exercise(Options& opt) {
  KernelFileWatch& w = kernel_file_watch();
  if (std::string err = exercise_session().open(opt.exercise, 0, opt.work_dir, w); !err.empty()) {
    std::cerr << "warpscope: " << err << "\n";
    return false;
  }
  const ExerciseSession& x = exercise_session();
  std::cerr << "warpscope: " << (x.copied() ? "copied the starting file to " : "your copy (kept): ") << x.copy().string()
            << "\n";
  if (opt.headless || !opt.view.empty()) {
    ExerciseView v;
    if (std::string err = v.prepare_picture(session()); !err.empty()) std::cerr << "warpscope: " << err << "\n";
    if (opt.kernel.empty()) opt.kernel = w.kernel();
  }
  return true;
}

int run_command_line(int argc, char** argv) {
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
      ->check(scale_check());
  app.add_option("--screenshot", opt.screenshot,
                 "Write a PNG of the whole UI to FILE and exit (atomically: no partial file)")
      ->type_name("FILE");
  app.add_option("--frames", opt.frames,
                 "Frames to render before the screenshot / before quitting (default 4 headless)")
      ->check(CLI::Range(1, 100000));
  app.add_flag("--presentation", opt.presentation,
               "Presentation mode: larger font, high-contrast theme, fullscreen (F11 toggles)");
  app.add_option("--view", opt.view,
                 "With --headless: render only this view (e.g. warp-access-map, bank-conflict-heatmap, "
                 "divergence-timeline, block-layout, memory-heatmap, source-view, reduction-lab, playback); "
                 "--size is the view's size (default 1000x640), --scale multiplies the pixels (2 for slides)")
      ->type_name("NAME");
  app.add_option("--kernel", opt.kernel, "With --view: catalog kernel to run (default reduce)")->type_name("K");
  app.add_option("--variant", opt.launch.variant, "With --view: variant id (default 1)")->type_name("V");
  app.add_option("--n", opt.launch.n, "With --view: problem size, 1 to 4294967295 (default 4096)")->type_name("N");
  app.add_option("--block", opt.launch.block, "With --view: block shape X[,Y[,Z]], each >= 1 (default 256)")
      ->type_name("B");
  app.add_option("--dtype", opt.launch.dtype, "With --view: element type (int, float)")->type_name("T");
  app.add_option("--seed", opt.launch.seed, "With --view: seed of the random input")->type_name("S");
  app.add_option("--backend", opt.backend, "With --view: emu (default) or gpu-trace (needs a CUDA device)")
      ->check(CLI::IsMember({"emu", "gpu-trace"}))
      ->type_name("B");
  app.add_option("--param", opt.launch.params, "With --view: kernel parameter NAME=VALUE, repeatable (e.g. stride=8)")
      ->type_name("NAME=VALUE");
  app.add_option("--color", opt.color,
                 "With --view memory-heatmap: color elements by accesses (default), conflicts (bank conflicts "
                 "they met), first-touch (when they were first touched) or hazards (racing pairs met)")
      ->type_name("C");
  app.add_option("--timeline-x", opt.timeline_x,
                 "With --view divergence-timeline: x axis steps (aligned at barriers, default), clock (the block's "
                 "issue clock) or time (ns, gpu-trace only)")
      ->type_name("X");
  app.add_flag("--compare", opt.compare,
               "With --view divergence-timeline: draw the same launch on the other backend below (emulator above, "
               "gpu-trace below; needs a CUDA device for the GPU half)");
  app.add_option("--view-option", opt.view_options, view_options_help())->type_name("KEY=VALUE");
  app.add_option("--lesson", opt.lesson, "Open a lesson (TOML, docs/lessons.md) in lesson mode; with --headless, "
                                        "render its --step to --screenshot")
      ->type_name("FILE");
  app.add_option("--step", opt.step, "With --lesson --headless: the step to render (from 1)")->type_name("N");
  app.add_option("--exercise", opt.exercise,
                 "Open an exercise (a lesson step with goals, docs/lessons.md): its starting file is copied to --work "
                 "(never over a file there), opened, and graded each time you save it")
      ->type_name("FILE");
  app.add_option("--work", opt.work_dir, "With --exercise: your folder, where your copy of the starting file lives "
                                         "(default: the current folder)")
      ->type_name("DIR");
  app.add_flag("--trust", opt.trust,
               "With --lesson: build and run the lesson's kernel files (its steps' file = ...). Without it a lesson "
               "that names kernel files is refused headless, and the window asks first");
  app.add_flag("--trust-outside", opt.trust_outside,
               "With --lesson: allow kernel files outside the lesson's folder (an absolute path, ../)");
  app.add_option("--mouse", opt.mouse,
                 "With --headless: the mouse rests at pixel X,Y of the picture, so it shows the hover highlight "
                 "and the tooltip there (e.g. --mouse 400,300)")
      ->type_name("X,Y");
  app.add_flag("--in-process", opt.in_process,
               "Run GPU work inside the viewer's own process (for debugging warpscope). By default it runs in a "
               "separate process, so that a GPU fault or a kernel that never ends costs that run, not the viewer "
               "(WARPSCOPE_RUN_TIMEOUT: its limit in seconds, default 60). A kernel file's code runs there always");
  app.add_option("--select", opt.select,
                 "With --view: what is selected, e.g. block=0,warp=1,event=12 (keys: launch, block, warp, "
                 "event = index in the trace, step = the warp's issue step, site, lane, alloc, element, "
                 "cursor = playback position)")
      ->type_name("K=V,...");
  app.footer(
      "Keys in the viewer: F1 help, F11 presentation mode, F12 screenshot, Ctrl +/- UI scale, "
      "Ctrl+Q quit.\n"
      "Settings and window layout: $XDG_CONFIG_HOME/warpscope/ (default ~/.config/warpscope/).\n"
      "Example without a display: warpscope --headless --size 1600x900 --scale 2 --screenshot out.png");

  register_commands(app);
  CLI::App* open_cmd = app.add_subcommand(
      "open", "Open a kernel file (.cu with a /* warpscope ... */ launch description, docs/writing-kernels.md) in the "
              "viewer: it is built, run, and built and run again each time you save it");
  open_cmd->add_option("file", opt.kernel_file, "The kernel file")->required()->type_name("FILE.cu");
  open_cmd->fallthrough();  // the viewer's options (--headless, --screenshot, --view...) after it
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
  // The viewer: what could take it down runs in warpscope's run process (ws/isolation).
  // (--in-process keeps GPU work here; a kernel file's code runs there whatever the option.)
  isolation::IsolationOptions iso;
  iso.gpu = !opt.in_process;
  isolation::enable(Catalog::instance(), iso);
  opt.scale_given = scale_opt->count() > 0;

  if (!size_text.empty()) {
    std::string err;
    Size s = *parse_size(size_text, err);  // validated above
    opt.width = s.width;
    opt.height = s.height;
    opt.size_given = true;
  }
  if (!opt.kernel_file.empty() && !open_kernel_file(opt)) return 1;
  if (!opt.exercise.empty() && !open_exercise(opt)) return 2;
  if (!opt.view.empty()) return run_view_cli(opt);
  if (opt.headless) return run_headless_cli(opt);
  if (!opt.lesson.empty()) {
    // A lesson that does not load is said before a window opens. (Untrusted, it is read without
    // building anything; the window asks before its kernel files run.)
    if (const LessonLoad l = load_lesson(opt.lesson, {false, opt.trust_outside}); !l.ok()) {
      std::cerr << "warpscope: " << l.error << "\n";
      return 2;
    }
  }
  return run_window(opt);
}

}  // namespace

int run_cli(int argc, char** argv) {
  const int rc = run_command_line(argc, argv);
  // No thread of ours may still run while statics are destroyed after main() returns.
  stop_kernel_file_watch();
  stop_timing_thread();
  stop_session_thread();
  return rc;
}

}  // namespace ws::app
