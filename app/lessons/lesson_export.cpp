#include "lessons/lesson_export.h"

#include "headless.h"
#include "lessons/lesson.h"
#include "lessons/lesson_player.h"

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

int check_lesson(const std::filesystem::path& file) {
  LessonLoad l = load_lesson(file);
  if (!l.ok()) {
    std::cerr << "warpscope: " << l.error << "\n";
    return 2;
  }
  const Lesson lesson = l.lesson;
  LessonPlayer player(std::move(l.lesson));
  int rc = 0;
  for (size_t i = 0; i < lesson.steps.size(); ++i) {
    const LessonStep& step = lesson.steps[i];
    const std::string where = file.string() + ":" + std::to_string(step.place.line) + ":" +
                              std::to_string(step.place.column) + ": step " + std::to_string(i + 1) + ": ";
    player.go(i, true);
    if (!player.wait_ready()) {
      std::cerr << "warpscope: " << where << "its runs did not finish within two minutes\n";
      return 1;
    }
    if (!player.error().empty()) {
      std::cerr << "warpscope: " << where << player.error() << "\n";
      return 2;
    }
    std::string differs = check_expect(step.expect, *player.session().data(), player.session().sel);
    if (step.compare && player.compare_session() && player.compare_session()->data())
      if (std::string d2 = check_expect(step.compare->expect, *player.compare_session()->data(),
                                        player.compare_session()->sel);
          !d2.empty())
        differs += (differs.empty() ? "" : "; ") + std::string("compare: ") + d2;
    if (!differs.empty()) {
      std::cerr << "warpscope: " << where << differs << "\n";
      rc = 1;
    } else {
      std::cout << "step " << i + 1 << " (" << step.title << "): ok\n";
    }
  }
  return rc;
}

int export_lesson(const LessonExport& e) {
  LessonLoad l = load_lesson(e.file);
  if (!l.ok()) {
    std::cerr << "warpscope: " << l.error << "\n";
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
    HeadlessRun run;
    run.width = e.width;
    run.height = e.height;
    run.factor = e.scale;  // the same picture, at `scale` times the resolution
    run.presentation = true;
    run.lesson = player;
    run.step = i;
    ws::viz::Image img;
    std::string renderer, err;
    if (!render_headless(run, img, renderer, err)) {
      std::cerr << "warpscope: step " << i + 1 << ": " << err << "\n";
      return 1;
    }
    if (!player->error().empty()) {
      std::cerr << "warpscope: " << e.file.string() << ":" << step.place.line << ":" << step.place.column << ": step "
                << i + 1 << ": " << player->error() << "\n";
      return 2;
    }
    const std::string name = step_file_stem(i, step.title) + ".png";
    if (std::string werr = ws::viz::save_png(e.dir / name, img); !werr.empty()) {
      std::cerr << "warpscope: " << werr << "\n";
      return 1;
    }
    std::cout << "warpscope: wrote " << (e.dir / name).string() << " (" << img.width << "x" << img.height << ")\n";
    index += "## " + std::to_string(i + 1) + ". " + step.title + "\n\n";
    if (!step.caption.empty()) index += step.caption + "\n\n";
    index += "![" + step.title + "](" + name + ")\n\n";
  }
  if (std::string werr = write_file_atomic(e.dir / "index.md", index); !werr.empty()) {
    std::cerr << "warpscope: " << werr << "\n";
    return 1;
  }
  std::cout << "warpscope: wrote " << (e.dir / "index.md").string() << " (" << lesson.steps.size() << " steps)\n";
  return 0;
}

}  // namespace ws::app
