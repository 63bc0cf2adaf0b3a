#include "lesson.h"

#include "lessons/lesson.h"
#include "cli/lesson_export.h"
#include "model/options.h"
#include "cli/scale_check.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace ws::app {

namespace {

struct LessonOptions {
  CLI::App* cmd = nullptr;
  std::string file, dir, size;  // size: 1920x1080 for --export, 1280x720 for the check
  float scale = 1.0f;
  bool list = false;
  bool trust = false, trust_outside = false;
};

LessonOptions& options() {
  static LessonOptions o;
  return o;
}

int cmd_lesson(const LessonOptions& o) {
  if (o.list) {
    for (const auto& p : shipped_lessons()) {
      const LessonLoad l = load_lesson(p);
      std::cout << p.string() << ": " << (l.ok() ? l.lesson.title + " (" + std::to_string(l.lesson.steps.size()) + " steps)"
                                                 : "does not load: " + l.error)
                << "\n";
    }
    return 0;
  }
  if (o.file.empty()) {
    std::cerr << "warpscope: lesson needs a FILE (the shipped ones: warpscope lesson --list)\n";
    return 2;
  }
  std::string err;
  const auto size = parse_size(o.size.empty() ? (o.dir.empty() ? "1280x720" : "1920x1080") : o.size, err);
  if (!size) {
    std::cerr << "warpscope: --size " << err << "\n";
    return 2;
  }
  if (o.dir.empty()) {
    // Checked: it loads, every step shows what it names and what it expects, and its slide holds
    // for the back row at that size.
    const int rc = check_lesson(o.file, size->width, size->height, {o.trust, o.trust_outside});
    if (rc == 0) std::cout << "warpscope: " << o.file << ": every step holds (--export DIR renders them)\n";
    return rc;
  }
  LessonExport e;
  e.file = o.file;
  e.dir = o.dir;
  e.width = size->width;
  e.height = size->height;
  e.scale = o.scale;
  e.trust = {o.trust, o.trust_outside};
  if (float(e.width) * e.scale > float(kMaxImageSide) || float(e.height) * e.scale > float(kMaxImageSide)) {
    std::cerr << "warpscope: --size x --scale is over " << kMaxImageSide << " pixels a side\n";
    return 2;
  }
  return export_lesson(e);
}

}  // namespace

void register_lesson_command(CLI::App& app) {
  LessonOptions& o = options();
  o.cmd = app.add_subcommand("lesson",
                             "A lesson file: checked, or every step rendered as the viewer shows it to "
                             "DIR/NN-step-title.png plus DIR/index.md (slides)");
  o.cmd->add_option("file", o.file, "The lesson (TOML; docs/lessons.md)")->type_name("FILE");
  o.cmd->add_option("--export", o.dir, "Write the steps' pictures and index.md here")->type_name("DIR");
  o.cmd->add_option("--size", o.size, "Picture size at scale 1 (default 1920x1080; the check: 1280x720)")->type_name("WxH");
  o.cmd->add_option("--scale", o.scale, "2: the same pictures at twice the resolution (default 1)")
      ->check(scale_check());
  o.cmd->add_flag("--list", o.list, "The lessons that ship with warpscope");
  o.cmd->add_flag("--trust", o.trust,
                  "Build and run the lesson's kernel files (its steps' file = ...): without it a lesson that names "
                  "kernel files is refused (exit 2). The lessons that ship with warpscope are trusted");
  o.cmd->add_flag("--trust-outside", o.trust_outside, "Allow kernel files outside the lesson's folder (an absolute path, ../)");
}

int run_lesson_if_selected() {
  const LessonOptions& o = options();
  if (o.cmd && o.cmd->parsed()) return cmd_lesson(o);
  return -1;
}

}  // namespace ws::app
