#include "cli/lesson_export.h"

#include "cli/headless.h"
#include "lessons/lesson.h"
#include "lessons/lesson_player.h"
#include "lessons/slide_report.h"

#include "ws/util/atomic_file.h"
#include "ws/viz/png.h"

#include <cmath>
#include <cstdio>
#include <iostream>

namespace ws::app {

std::string step_file_stem(size_t index, const std::string& title) {
  char num[16];
  std::snprintf(num, sizeof num, "%02zu", index + 1);
  std::string slug;
  for (const unsigned char c : title) {
    if (std::isalnum(c)) slug += char(std::tolower(c));
    else if (!slug.empty() && slug.back() != '-') slug += '-';
    if (slug.size() >= 48) break;
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return std::string(num) + (slug.empty() ? "" : "-" + slug);
}

std::string render_step(const std::shared_ptr<LessonPlayer>& p, size_t index, int width, int height, float factor,
                        ws::viz::Image& img, SlideReport& report) {
  HeadlessRun run;
  run.width = width;
  run.height = height;
  run.factor = factor;  // the same picture, at `factor` times the resolution
  run.presentation = true;
  run.lesson = p;
  run.step = index;
  run.slide_report = &report;
  std::string renderer, err;
  if (!render_headless(run, img, renderer, err)) return err;
  return {};
}

namespace {

std::string where_is(const std::filesystem::path& file, const LessonStep& step, size_t i) {
  return file.string() + ":" + std::to_string(step.place.line) + ":" + std::to_string(step.place.column) + ": step " +
         std::to_string(i + 1) + ": ";
}

// The step's expectations against its runs: "" or what differs.
std::string expectations_differ(LessonPlayer& player, const LessonStep& step) {
  std::string differs = check_expect(step.expect, *player.session().data(), player.session().sel);
  if (step.compare && player.compare_session() && player.compare_session()->data())
    if (std::string d2 = check_expect(step.compare->expect, *player.compare_session()->data(), player.compare_session()->sel);
        !d2.empty())
      differs += (differs.empty() ? "" : "; ") + std::string("compare: ") + d2;
  return differs;
}

}  // namespace

int check_lesson(const std::filesystem::path& file, int width, int height, LessonTrust trust) {
  LessonLoad l = load_lesson(file, trust);
  if (!l.ok()) {
    std::cerr << "warpscope: " << l.error << "\n";
    return 2;
  }
  if (std::string m = untrusted_message(l, file); !m.empty()) {
    std::cerr << "warpscope: " << m << "\n";
    return 2;
  }
  const Lesson lesson = l.lesson;
  auto player = std::make_shared<LessonPlayer>(std::move(l.lesson));
  const SlideRules rules = back_row_rules(float(height));
  std::string no_pictures;  // why slides cannot be rendered here (said once)
  int rc = 0;
  for (size_t i = 0; i < lesson.steps.size(); ++i) {
    const LessonStep& step = lesson.steps[i];
    const std::string where = where_is(file, step, i);
    player->go(i, true);
    if (!player->wait_ready()) {
      std::cerr << "warpscope: " << where << "its runs did not finish within two minutes\n";
      return 1;
    }
    if (!player->error().empty()) {
      std::cerr << "warpscope: " << where << player->error() << "\n";
      return 2;
    }
    std::vector<std::string> problems;
    if (std::string d = expectations_differ(*player, step); !d.empty()) problems.push_back(d);
    if (no_pictures.empty()) {
      ws::viz::Image img;
      SlideReport report;
      if (std::string err = render_step(player, i, width, height, 1.0f, img, report); !err.empty()) {
        no_pictures = err;
        std::cerr << "warpscope: the slides are not checked for the back row here: " << err << "\n";
      } else {
        for (std::string& p : slide_problems(report, step, rules))
          problems.push_back("at " + std::to_string(width) + "x" + std::to_string(height) + ": " + std::move(p));
        if (std::string d = views_expect(step.expect, player->views()); !d.empty()) problems.push_back(d);
      }
    }
    for (const std::string& p : problems) std::cerr << "warpscope: " << where << p << "\n";
    if (!problems.empty())
      rc = 1;
    else
      std::cout << "step " << i + 1 << " (" << step.title << "): ok\n";
  }
  return rc;
}

int export_lesson(const LessonExport& e) {
  LessonLoad l = load_lesson(e.file, e.trust);
  if (!l.ok()) {
    std::cerr << "warpscope: " << l.error << "\n";
    return 2;
  }
  if (std::string m = untrusted_message(l, e.file); !m.empty()) {
    std::cerr << "warpscope: " << m << "\n";
    return 2;
  }
  std::error_code ec;
  std::filesystem::create_directories(e.dir, ec);
  if (ec) {
    std::cerr << "warpscope: cannot make " << e.dir.string() << ": " << ec.message() << "\n";
    return 1;
  }
  const Lesson lesson = l.lesson;
  auto player = std::make_shared<LessonPlayer>(std::move(l.lesson));
  std::string index = "# " + lesson.title + "\n\n";
  if (!lesson.description.empty()) index += lesson.description + "\n\n";
  for (size_t i = 0; i < lesson.steps.size(); ++i) {
    const LessonStep& step = lesson.steps[i];
    ws::viz::Image img;
    SlideReport report;
    if (std::string err = render_step(player, i, e.width, e.height, e.scale, img, report); !err.empty()) {
      std::cerr << "warpscope: step " << i + 1 << ": " << err << "\n";
      return 1;
    }
    if (!player->error().empty()) {
      std::cerr << "warpscope: " << where_is(e.file, step, i) << player->error() << "\n";
      return 2;
    }
    const std::string stem = step_file_stem(i, step.title);
    if (std::string werr = ws::viz::save_png(e.dir / (stem + ".png"), img); !werr.empty()) {
      std::cerr << "warpscope: " << werr << "\n";
      return 1;
    }
    if (std::string werr = write_file_atomic(e.dir / (stem + ".layout.json"), slide_report_json(report, e.scale));
        !werr.empty()) {
      std::cerr << "warpscope: " << werr << "\n";
      return 1;
    }
    std::cout << "warpscope: wrote " << (e.dir / (stem + ".png")).string() << " (" << img.width << "x" << img.height
              << ") and its .layout.json\n";
    index += "## " + std::to_string(i + 1) + ". " + step.title + "\n\n";
    if (!step.caption.empty()) index += step.caption + "\n\n";
    index += "![" + step.title + "](" + stem + ".png)\n\n";
  }
  if (std::string werr = write_file_atomic(e.dir / "index.md", index); !werr.empty()) {
    std::cerr << "warpscope: " << werr << "\n";
    return 1;
  }
  std::cout << "warpscope: wrote " << (e.dir / "index.md").string() << " (" << lesson.steps.size() << " steps)\n";
  return 0;
}

}  // namespace ws::app
