// An exercise graded: a student's copy of an exercise step's kernel file, built and run on the
// emulator under the exercise's own launch description, its goals measured (ws/grading/goal.h).
// `warpscope check` grades with it, one file or a folder of submissions; so does the viewer.
//
//   LessonLoad l = load_lesson("exercises/reduce-conflicts.toml");
//   const LessonStep* step = exercise_step(l.lesson, 0, error);      // its only exercise step
//   Graded g = grade_submission(*step, {.file = "alice.cu"});
//   // g.status == GradeStatus::Graded; g.goals[0].held == false,
//   // g.goals[0].detail == "line 27: 8-way bank conflicts (sdata[index] += sdata[index + s])"
//
// The copy's own launch description is replaced by the starting file's (kernel_file/
// description.h: with_description_of), so a student changes the code, not the launch, the
// arrays or the expected result. Its code runs where kernel files run: in warpscope's run process
// when isolation is on (the command line turns it on, with a time limit and the run process
// confined), so an endless loop or a crash costs only that submission.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lessons/lesson.h"
#include "ws/grading/goal.h"

namespace ws::app {

// The exercise step `step_number` (1-based) of `lesson`, or its only one when 0; null with
// `error` when there is none or (step_number 0) there are several.
const LessonStep* exercise_step(const Lesson& lesson, size_t step_number, std::string& error);

struct Submission {
  std::filesystem::path file;   // the student's copy; "": the step's starting file
  std::string workers;          // the emulator's worker threads ("": the launch's, else one per core)
  double build_timeout_seconds = 120;
};

enum class GradeStatus { Graded, DoesNotBuild, TimedOut, Crashed, Error };
const char* to_string(GradeStatus s);  // "graded", "does-not-build", "timed-out", "crashed", "error"

struct Graded {
  GradeStatus status = GradeStatus::Error;
  std::string message;  // not graded: what happened (the build's errors, how the run ended)
  std::string reason;   // the same in a few words: "by signal 11 (Segmentation fault) as its code was loaded"
  std::vector<grading::GoalResult> goals;  // parallel to the step's goals (when graded)
  double build_seconds = 0, run_seconds = 0;
  bool all_held() const;  // graded, and every goal graded here holds
  size_t held() const;
  size_t skipped() const;  // goals not graded on this machine (a GPU goal without a GPU)
};

Graded grade_submission(const LessonStep& step, const Submission& s);

// Whether a goal of `step` is timed on a GPU (gpu_time).
bool has_gpu_goal(const LessonStep& step);

// The run an exercise's goals are measured on, in `check` and in the viewer alike: the step's
// launch with every block recorded (a goal counts the whole grid, not the blocks a picture shows),
// `workers` ("": the launch's) emulator threads. "" or why the launch does not apply.
std::string graded_config(const LessonStep& step, const std::string& workers, RunConfig& cfg);

}  // namespace ws::app
