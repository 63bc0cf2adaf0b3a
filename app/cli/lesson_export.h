// A lesson as slides: every step rendered headless, as the window shows it in lesson mode, to
// DIR/NN-step-title.png with its layout report DIR/NN-step-title.layout.json (slide_report.h:
// the type sizes, how much of each box the pictures fill, what was left out or cut off), and
// DIR/index.md with the titles, captions and pictures in order.
//
//   warpscope lesson lessons/reduction.toml --export slides/ --size 1920x1080 --scale 2
#pragma once

#include "lessons/lesson.h"
#include "ws/viz/image.h"

#include <filesystem>
#include <memory>
#include <string>

namespace ws::app {

class LessonPlayer;
struct SlideReport;

struct LessonExport {
  std::filesystem::path file, dir;
  int width = 1920, height = 1080;  // the picture at scale 1
  float scale = 1.0f;               // 2: the same picture at twice the resolution
  LessonTrust trust;                // build and run its kernel files (else refused when it names any)
};

// Returns the exit code: 0 written, 1 a failure to render or write (said on stderr), 2 a lesson
// that does not load or a step that cannot show what it names (FILE:LINE:COL: ...).
int export_lesson(const LessonExport& e);

// Runs every step of `file` (as lesson mode shows it) and checks that it shows what it names and
// what its `expect` says, and (where OpenGL can render headless) that its slide at `width` x
// `height` holds for the back row (slide_report.h: back_row_rules). Prints one line per step;
// returns 0 when all hold, 1 when an expectation or the slide does not hold, 2 when the lesson does
// not load or a step cannot show what it names.
int check_lesson(const std::filesystem::path& file, int width = 1280, int height = 720, LessonTrust trust = {});

// Renders step `index` of `p` headless at `width` x `height` (layout pixels, times `factor`) and
// measures it. Returns "" or why it could not be rendered.
std::string render_step(const std::shared_ptr<LessonPlayer>& p, size_t index, int width, int height, float factor,
                        ws::viz::Image& img, SlideReport& report);

// "03-interleaved-addressing-bank-conflicts": the step's number and a file-name form of its title.
std::string step_file_stem(size_t index, const std::string& title);

}  // namespace ws::app
