// A graded file's record: what a batch's child writes is what its parent reads back, field by
// field, and the one line a grader prints says what failed and where.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "lessons/graded_record.h"

namespace ws::app {
namespace {

LessonStep two_goal_step() {
  LessonStep step;
  step.title = "Make the tree step conflict-free";
  grading::Goal conflicts;
  conflicts.metric = grading::Metric::BankConflicts;
  conflicts.max = 0;
  conflicts.says = "no bank conflicts";
  grading::Goal result;
  result.says = "the sum is right";
  step.goals = {conflicts, result};
  return step;
}

GradedFile every_field_set() {
  GradedFile f;
  f.exercise = "/course/ex.toml";
  f.file = "/subs/alice.cu";
  f.step = 3;
  f.starting_file = true;
  f.seconds = 4.25;
  f.graded.status = GradeStatus::Graded;
  f.graded.message = "a message";
  f.graded.reason = "a reason";
  f.graded.build_seconds = 1.5;
  f.graded.run_seconds = 0.75;
  grading::GoalResult a{.held = false, .measured = true, .value = 1536, .value_text = "1536", .bound_text = "<= 0",
                        .line = 27, .file = "/subs/alice.cu", .detail = "line 27: 8-way bank conflicts"};
  grading::GoalResult b{.held = true, .measured = true, .value = 1, .value_text = "PASS", .bound_text = "passes",
                        .line = 0, .file = "", .detail = ""};
  f.graded.goals = {a, b};
  return f;
}

TEST(GradedRecord, WhatIsWrittenReadsBackFieldByField) {
  const LessonStep step = two_goal_step();
  const GradedFile f = every_field_set();
  GradedFile back;
  std::string error;
  ASSERT_TRUE(graded_from_json(graded_json(f, step), back, error)) << error;
  EXPECT_EQ(back.exercise, f.exercise);
  EXPECT_EQ(back.file, f.file);
  EXPECT_EQ(back.step, f.step);
  EXPECT_EQ(back.starting_file, f.starting_file);
  EXPECT_EQ(back.seconds, f.seconds);
  EXPECT_EQ(back.graded.status, f.graded.status);
  EXPECT_EQ(back.graded.message, f.graded.message);
  EXPECT_EQ(back.graded.reason, f.graded.reason);
  EXPECT_EQ(back.graded.build_seconds, f.graded.build_seconds);
  EXPECT_EQ(back.graded.run_seconds, f.graded.run_seconds);
  ASSERT_EQ(back.graded.goals.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const grading::GoalResult &x = f.graded.goals[i], &y = back.graded.goals[i];
    EXPECT_EQ(y.held, x.held);
    EXPECT_EQ(y.measured, x.measured);
    EXPECT_EQ(y.value, x.value);
    EXPECT_EQ(y.value_text, x.value_text);
    EXPECT_EQ(y.bound_text, x.bound_text);
    EXPECT_EQ(y.line, x.line);
    EXPECT_EQ(y.file, x.file);
    EXPECT_EQ(y.detail, x.detail);
  }
  // Every status comes back as itself.
  for (GradeStatus s : {GradeStatus::Graded, GradeStatus::DoesNotBuild, GradeStatus::TimedOut, GradeStatus::Crashed,
                        GradeStatus::Error}) {
    GradedFile g = f;
    g.graded.status = s;
    ASSERT_TRUE(graded_from_json(graded_json(g, step), back, error)) << error;
    EXPECT_EQ(back.graded.status, s) << to_string(s);
  }
}

TEST(GradedRecord, TheRecordSaysWhatAnAutograderStores) {
  const nlohmann::json j = nlohmann::json::parse(graded_json(every_field_set(), two_goal_step()));
  EXPECT_EQ(j["status"], "graded");
  EXPECT_EQ(j["passed"], false);
  EXPECT_EQ(j["goals_held"], 1);
  EXPECT_EQ(j["goals_total"], 2);
  EXPECT_EQ(j["goals"][0]["metric"], "bank_conflicts");
  EXPECT_EQ(j["goals"][0]["says"], "no bank conflicts");
  EXPECT_EQ(j["goals"][0]["line"], 27);
  EXPECT_EQ(j["seconds"]["total"], 4.25);
}

TEST(GradedRecord, AGradersLineNamesTheFailedGoalAndItsLine) {
  const LessonStep step = two_goal_step();
  GradedFile f = every_field_set();
  EXPECT_EQ(graded_line(f, step), "alice.cu  1/2 goals  ✗ bank_conflicts <= 0: 1536 (line 27)  4.2 s");
  f.graded.goals[0].held = true;
  EXPECT_EQ(graded_line(f, step), "alice.cu  2/2 goals  PASS  4.2 s");
  f.graded.status = GradeStatus::TimedOut;
  f.graded.reason = "did not finish in 3 s";
  EXPECT_EQ(graded_line(f, step), "alice.cu  did not finish: did not finish in 3 s  4.2 s");
}

TEST(GradedRecord, TextThatIsNoRecordIsSaid) {
  GradedFile out;
  std::string error;
  EXPECT_FALSE(graded_from_json("{\"goals\": []}", out, error));
  EXPECT_NE(error.find("no status"), std::string::npos) << error;
  EXPECT_FALSE(graded_from_json("{\"status\": \"graded\", \"step\": \"three\"}", out, error));
  EXPECT_NE(error.find("does not read"), std::string::npos) << error;
  EXPECT_FALSE(graded_from_json("not json", out, error));
}

}  // namespace
}  // namespace ws::app
