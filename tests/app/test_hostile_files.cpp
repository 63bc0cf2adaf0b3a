// Every hostile kernel file in tests/isolation/hostile (code that crashes, exits, hangs, forks,
// recurses past its stack, divides by zero or asks for 4 GiB of shared memory or 4 TiB of arrays, in host code, in
// static initialisers or in the kernel) costs only its run, on each entry point that runs a
// file: `warpscope run --file` and a trusted lesson's check. warpscope itself ends normally, in
// bounded time, and says what happened: each file's `// expect:` line gives the words (one of
// several, split by " | ").
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_binary.h"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> hostile_files() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(WS_HOSTILE_FILES))
    if (e.path().extension() == ".cu") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The file's `// expect: a | b` words.
std::vector<std::string> expected_words(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  const std::string key = "// expect: ";
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) {
      std::vector<std::string> words;
      std::string rest = line.substr(key.size());
      for (size_t at; (at = rest.find(" | ")) != std::string::npos; rest.erase(0, at + 3)) words.push_back(rest.substr(0, at));
      words.push_back(rest);
      return words;
    }
  return {};
}

bool says_one_of(const std::string& out, const std::vector<std::string>& words) {
  for (const std::string& w : words)
    if (out.find(w) != std::string::npos) return true;
  return false;
}

class HostileFile : public ::testing::TestWithParam<std::string> {
 protected:
  fs::path file() const { return fs::path(WS_HOSTILE_FILES) / GetParam(); }
};

double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST_P(HostileFile, CostsOnlyItsRunOnTheCommandLine) {
  const std::vector<std::string> words = expected_words(file());
  ASSERT_FALSE(words.empty()) << GetParam() << " has no `// expect:` line";
  RunResult r;
  const double took = seconds_of([&] { r = run_warpscope("run --file '" + file().string() + "' --timeout 5"); });
  // 1: a FAULT or a failed build, 2: refused before it ran; never a crash of warpscope (-1) nor a pass.
  EXPECT_TRUE(r.exit_code == 1 || r.exit_code == 2) << r.exit_code << "\n" << r.out;
  EXPECT_TRUE(says_one_of(r.out, words)) << "expected \"" << words[0] << "\" in:\n" << r.out;
  EXPECT_LT(took, 90.0);  // a build, then at most the 5 s limit of a stage (loading, the run)
}

TEST_P(HostileFile, CostsOnlyItsStepInATrustedLesson) {
  const std::vector<std::string> words = expected_words(file());
  const fs::path dir = fs::path(::testing::TempDir()) / ("hostile_lesson_" + fs::path(GetParam()).stem().string());
  fs::create_directories(dir);
  fs::copy_file(file(), dir / GetParam(), fs::copy_options::overwrite_existing);
  std::ofstream(dir / "lesson.toml") << "title = \"Hostile files\"\n\n[[step]]\ntitle = \"A hostile file\"\n"
                                        "caption = \"Its code misbehaves; the lesson's check goes on.\"\nfile = \""
                                     << GetParam() << "\"\nviews = [\"source\"]\nexpect = { verdict = \"PASS\" }\n";
  RunResult r;
  const double took = seconds_of([&] {
    r = run_warpscope("lesson '" + (dir / "lesson.toml").string() + "' --trust", "WARPSCOPE_RUN_TIMEOUT=5");
  });
  // The step fails its check (1: the verdict, 2: the run could not be made); warpscope ends by itself.
  EXPECT_TRUE(r.exit_code == 1 || r.exit_code == 2) << r.exit_code << "\n" << r.out;
  EXPECT_NE(r.out.find("step 1: "), std::string::npos) << r.out;
  EXPECT_TRUE(says_one_of(r.out, words)) << "expected \"" << words[0] << "\" in:\n" << r.out;
  EXPECT_LT(took, 90.0);
}

INSTANTIATE_TEST_SUITE_P(Folder, HostileFile, ::testing::ValuesIn(hostile_files()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return fs::path(p.param).stem().string();
                         });

}  // namespace
