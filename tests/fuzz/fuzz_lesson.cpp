// Fuzz target: a lesson or exercise file (TOML, mailed between people: untrusted) through its
// reader and checks, each step written back as Ctrl+S writes it and read again, and the settings
// file's reader on the same bytes. Nothing may crash, hang or take unbounded memory: a bad file
// is one clear error; a step the reader accepted and the writer wrote must read again.
//
// Built with clang's libFuzzer by scripts/fuzz.sh; with the project's compiler, replay.cpp runs the
// corpus (the shipped lessons and exercises, tests/fuzz/corpus/lessons) as a test.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lessons/lesson.h"
#include "shell/settings.h"
#include "ws/run/catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Untrusted: kernel files are read, never built.
  const ws::app::LessonLoad l = ws::app::parse_lesson(text, "/nonexistent-fuzz-folder/lesson.toml");
  if (l.ok()) {
    for (const ws::app::LessonStep& step : l.lesson.steps) {
      if (!ws::Catalog::instance().find(step.launch.kernel)) continue;  // (a file's step has no kernel here)
      const ws::app::LessonLoad again = ws::app::parse_lesson(ws::app::step_toml(step), "/nonexistent-fuzz-folder/s.toml");
      if (!again.ok()) __builtin_trap();  // what Ctrl+S writes, the reader must take
    }
  }
  const ws::app::Settings s = ws::app::parse_settings(text);
  const std::string written = ws::app::format_settings(s);
  if (ws::app::format_settings(ws::app::parse_settings(written)) != written) __builtin_trap();  // stable once written
  return 0;
}
