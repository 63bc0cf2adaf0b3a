// The record of one graded file: what `warpscope check --json` prints and an autograder stores,
// read back by a batch from each child that graded one file, and said as text (a student's full
// report, or a grader's one line per file). One field list serves the writing and the reading.
//
//   GradedFile f{.exercise = "ex.toml", .file = "alice.cu", .step = 1, .graded = grade_submission(step, {...})};
//   std::string json = graded_json(f, step);       // {"status": "graded", "passed": false, "goals": [...]}
//   GradedFile back;  graded_from_json(json, back, error);   // the same fields again
//   graded_line(back, step);  // "alice.cu  1/2 goals  ✗ bank_conflicts <= 0: 1536 (line 27)  2.4 s"
#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "lessons/exercise.h"

namespace ws::app {

struct GradedFile {
  std::filesystem::path exercise, file;
  size_t step = 0;          // 1-based
  bool starting_file = false;
  Graded graded;
  double seconds = 0;       // wall time for this file, build and run included
};

// The record (pretty-printed), with the step's words for each goal (metric, says) and the totals
// (passed, goals_held, goals_total) beside the fields; several: a JSON array of them.
std::string graded_json(const GradedFile& g, const LessonStep& step);
std::string graded_json(std::span<const GradedFile> files, const LessonStep& step);

// The fields of a record graded_json wrote; false with `error` when it is not one.
bool graded_from_json(const std::string& json, GradedFile& out, std::string& error);

// For the student: one goal per line with its measured value, and why a failed one failed.
std::string graded_text(const GradedFile& g, const LessonStep& step);

// For the grader of a folder: "alice.cu  3/4 goals  ✗ bank_conflicts <= 0: 1536 (line 27)  2.4 s",
// "bob.cu  does not build: bob.cu:37:41: error: ...  0.3 s".
std::string graded_line(const GradedFile& g, const LessonStep& step);

}  // namespace ws::app
