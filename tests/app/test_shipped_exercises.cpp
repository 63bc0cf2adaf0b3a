// Every exercise in exercises/ is graded as a course would grade it: its starting file fails the
// exercise's first goal (the one its title names; the lecture's mistake is still in it) and its
// reference solution in tests/exercises/solutions passes every goal. The list is the folder, so a
// new exercise is held to this without editing the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_binary.h"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> shipped_exercises() {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(WS_EXERCISES_DIR))
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

nlohmann::json graded(const std::string& name, const std::string& file_args, int expected_exit) {
  const std::string exercise = std::string(WS_EXERCISES_DIR) + "/" + name + ".toml";
  const RunResult r = run_warpscope("check '" + exercise + "' " + file_args + " --json");
  EXPECT_EQ(r.exit_code, expected_exit) << r.out;
  try {
    return nlohmann::json::parse(r.out);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a JSON record: " << e.what() << "\n" << r.out;
    return nlohmann::json::object();
  }
}

class ShippedExercise : public testing::TestWithParam<std::string> {};

TEST_P(ShippedExercise, StartFailsItsFirstGoalAndTheSolutionPassesAll) {
  const std::string name = GetParam();
  const fs::path solution = fs::path(WS_SOLUTIONS_DIR) / (name + ".cu");
  ASSERT_TRUE(fs::is_regular_file(solution)) << "every exercise has its reference solution: " << solution;

  const nlohmann::json start = graded(name, "", 1);
  ASSERT_EQ(start.value("status", ""), "graded") << start.dump(2);
  ASSERT_FALSE(start["goals"].empty());
  const nlohmann::json& first = start["goals"][0];
  EXPECT_TRUE(first["measured"].get<bool>()) << first.dump(2);
  EXPECT_FALSE(first["held"].get<bool>()) << "the starting file must fail the exercise's point: " << first.dump(2);
  EXPECT_FALSE(first["detail"].get<std::string>().empty()) << "a failed goal says where: " << first.dump(2);

  const nlohmann::json solved = graded(name, "--file '" + solution.string() + "'", 0);
  ASSERT_EQ(solved.value("status", ""), "graded") << solved.dump(2);
  EXPECT_TRUE(solved["passed"].get<bool>()) << solved.dump(2);
  ASSERT_EQ(solved["goals"].size(), start["goals"].size());
  for (const nlohmann::json& g : solved["goals"]) {
    if (g["skipped"].get<bool>()) {  // only a GPU's time, where there is none
      EXPECT_EQ(g["metric"], "gpu_time") << g.dump(2);
      continue;
    }
    EXPECT_TRUE(g["measured"].get<bool>()) << g.dump(2);
    EXPECT_TRUE(g["held"].get<bool>()) << g.dump(2);
  }
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  std::replace_if(s.begin(), s.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return s;
}

INSTANTIATE_TEST_SUITE_P(Exercises, ShippedExercise, testing::ValuesIn(shipped_exercises()), test_name);

// At least one exercise per seed topic ships (the course's eight mistakes).
TEST(ShippedExercises, OnePerSeedTopic) { EXPECT_GE(shipped_exercises().size(), 8u); }

}  // namespace
