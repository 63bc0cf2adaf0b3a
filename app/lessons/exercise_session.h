// The exercise the viewer has open (`warpscope --exercise EXERCISE.toml`, File > Open exercise):
// the student's copy of its starting file, open in the kernel file watch, graded after every save.
//
// Opening copies the starting file into the student's folder (never over a file that is there:
// the work is the student's), opens the copy, and from then on every good build of it runs with
// the exercise's launch and is graded against the step's goals, as `warpscope check` grades it
// (the copy is built under the starting file's launch description). Hints unlock one at a time;
// restore() puts the starting file back after the panel asked.
//
//   ExerciseSession& x = exercise_session();
//   if (std::string err = x.open("exercises/reduce-conflicts.toml", 0, "."); !err.empty()) ...
//   ... each frame, after the watch: x.poll(session(), kernel_file_watch());
//   for (const auto& r : x.results()) ...   // ✓/✗, value, the line that shows why
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lessons/lesson.h"
#include "ws/grading/goal.h"

namespace ws::app {

class KernelFileWatch;
class Session;

class ExerciseSession {
 public:
  // Opens exercise step `step` (1-based; 0: the file's only exercise step) of `file`; the student's
  // copy is `work_dir`/<the starting file's name>. Returns "" or why not.
  std::string open(const std::filesystem::path& file, size_t step, const std::filesystem::path& work_dir,
                   KernelFileWatch& watch);
  void close();
  bool is_open() const { return step_ != nullptr; }

  const Lesson& lesson() const { return lesson_; }
  const LessonStep& step() const { return *step_; }
  const std::filesystem::path& copy() const { return copy_; }
  bool copied() const { return copied_; }  // the copy was made now (else it was there: kept)

  // UI thread, once per frame after the watch's poll: a new good build is run with the
  // exercise's launch; that run, once finished, is graded.
  void poll(Session& s, KernelFileWatch& watch);
  // Whether goals were measured on the current build ("" status: not yet).
  const std::vector<grading::GoalResult>& results() const { return results_; }
  const std::string& status() const { return status_; }
  bool graded() const { return !results_.empty(); }
  size_t held() const;
  bool done() const;  // graded, and every goal graded here holds (a GPU's time is `check`'s)

  size_t hints_shown = 0;  // hints unlocked so far
  bool ask_restore = false;  // R was pressed: the panel asks before restore()
  // The copy becomes the starting file again (the watch sees the save and rebuilds).
  std::string restore();

 private:
  Lesson lesson_;
  const LessonStep* step_ = nullptr;
  std::filesystem::path copy_;
  bool copied_ = false;
  uint64_t build_seen_ = 0, graded_generation_ = 0;
  bool waiting_ = false;  // the exercise's run was asked for and is not graded yet
  std::vector<grading::GoalResult> results_;
  std::string status_;
};

ExerciseSession& exercise_session();

}  // namespace ws::app
