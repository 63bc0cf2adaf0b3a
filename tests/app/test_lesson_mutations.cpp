// Damaged lesson files: every shipped lesson, mutated thousands of ways (bytes flipped, ranges cut
// or repeated, lines swapped, the file cut short, values replaced by extremes), is parsed; each
// gives a lesson or one error naming the file and a position, never a crash, a hang or an
// exception, and a lesson that parses gives launch requests without throwing. A deterministic
// mutation run (the same inputs every build), beside the trace fuzzer of tests/fuzz.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "lessons/lesson.h"
#include "model/session.h"

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string mutate(const std::string& text, std::mt19937_64& rng) {
  std::string t = text;
  if (t.empty()) return t;
  auto pos = [&] { return size_t(rng() % t.size()); };
  static const char* const kValues[] = {"-1", "0", "4294967296", "99999999999999999999999", "nan", "inf", "\"\"",
                                        "[]", "{}", "[[[[[[[[", "\"\\u0000\"", "1e308", "true", "\"\xff\xfe\""};
  const int edits = 1 + int(rng() % 3);
  for (int e = 0; e < edits && !t.empty(); ++e) {
    switch (rng() % 7) {
      case 0: t[pos()] = char(rng() & 0xff); break;                       // flip a byte
      case 1: { const size_t a = pos(); t.erase(a, 1 + rng() % 64); break; }  // cut a range
      case 2: { const size_t a = pos(); t.insert(a, t.substr(a, 1 + rng() % 64)); break; }  // repeat one
      case 3: t.resize(pos()); break;                                     // cut the file short
      case 4: {  // a value replaced by an extreme
        const size_t eq = t.find('=', pos());
        if (eq == std::string::npos) break;
        const size_t end = t.find('\n', eq);
        t.replace(eq + 1, (end == std::string::npos ? t.size() : end) - eq - 1,
                  std::string(" ") + kValues[rng() % std::size(kValues)]);
        break;
      }
      case 5: {  // two lines swapped
        const size_t a = t.find('\n', pos()), b = t.find('\n', pos());
        if (a == std::string::npos || b == std::string::npos || a == b) break;
        const size_t lo = std::min(a, b) + 1, hi = std::max(a, b) + 1;
        const size_t lo_end = t.find('\n', lo), hi_end = t.find('\n', hi);
        if (lo_end == std::string::npos || hi_end == std::string::npos || lo_end >= hi) break;
        const std::string l1 = t.substr(lo, lo_end - lo), l2 = t.substr(hi, hi_end - hi);
        t.replace(hi, l2.size(), l1);
        t.replace(lo, l1.size(), l2);
        break;
      }
      default: t.insert(pos(), "\n[[step]]\n"); break;  // a step out of nowhere
    }
  }
  return t;
}

TEST(LessonMutations, EveryDamagedLessonParsesOrSaysWhereItIsWrong) {
  std::mt19937_64 rng(20261125);
  size_t parsed = 0, refused = 0;
  for (const std::filesystem::path& p : ws::app::shipped_lessons()) {
    const std::string text = read(p);
    ASSERT_FALSE(text.empty()) << p;
    for (int i = 0; i < 400; ++i) {
      const std::string damaged = mutate(text, rng);
      ws::app::LessonLoad l;
      ASSERT_NO_THROW(l = ws::app::parse_lesson(damaged, p.filename().string())) << p << " mutation " << i;
      if (!l.ok()) {
        ++refused;
        // "NAME:LINE:COL: ..." or "NAME: ...": the file is named.
        EXPECT_EQ(l.error.rfind(p.filename().string(), 0), 0u) << l.error;
        continue;
      }
      ++parsed;
      for (const ws::app::LessonStep& s : l.lesson.steps) ASSERT_NO_THROW((void)ws::app::lesson_request(s.launch));
    }
  }
  // Both kinds happen: the mutations reach past the parser into the lesson's rules.
  EXPECT_GT(parsed, 100u);
  EXPECT_GT(refused, 1000u);
  std::printf("lesson mutations: %zu parsed, %zu refused with an error\n", parsed, refused);
}

}  // namespace
