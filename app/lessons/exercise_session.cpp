#include "lessons/exercise_session.h"

#include "model/kernel_file_watch.h"
#include "lessons/exercise.h"
#include "model/session.h"

#include "ws/isolation/isolated_runs.h"
#include "ws/util/atomic_file.h"

namespace ws::app {

namespace fs = std::filesystem;

std::string ExerciseSession::open(const fs::path& file, size_t step, const fs::path& work_dir, KernelFileWatch& watch) {
  std::string text, error;
  if (!read_file(file, text, error)) return error;
  // Read without building: the one file built is the student's copy, by the watch.
  LessonLoad l = parse_lesson(text, file.string(), {});
  if (!l.ok()) return l.error;
  const LessonStep* s = exercise_step(l.lesson, step, error);
  if (!s) return file.string() + ": " + error;
  const size_t index = size_t(s - l.lesson.steps.data());
  std::string start;
  if (!read_file(s->launch.file, start, error, 4u << 20)) return "the exercise's starting file: " + error;
  std::error_code ec;
  const fs::path copy = fs::absolute(work_dir / s->launch.file.filename(), ec);
  if (!fs::is_directory(work_dir, ec) && !fs::create_directories(work_dir, ec))
    return "cannot make the folder for your copy, " + work_dir.string() + ": " + ec.message();
  bool copied = false;
  if (!fs::exists(copy, ec)) {  // the student's work is never overwritten
    if (std::string err = write_file_atomic(copy, start); !err.empty()) return err;
    copied = true;
  }
  close();
  lesson_ = std::move(l.lesson);
  step_ = &lesson_.steps[index];
  copy_ = copy;
  copied_ = copied;
  watch.open(copy_.string(), start);
  status_ = "building your copy…";
  return {};
}

void ExerciseSession::close() {
  lesson_ = {};
  step_ = nullptr;
  copy_.clear();
  results_.clear();
  status_.clear();
  hints_shown = 0;
  build_seen_ = graded_generation_ = 0;
  waiting_ = false;
}

bool ExerciseSession::done() const {
  size_t skipped = 0;
  for (const grading::GoalResult& r : results_) skipped += r.skipped;
  return graded() && held() + skipped == results_.size();
}

size_t ExerciseSession::held() const {
  size_t n = 0;
  for (const grading::GoalResult& r : results_) n += r.held;
  return n;
}

std::string ExerciseSession::restore() {
  if (!is_open()) return "no exercise is open";
  std::string start, error;
  if (!read_file(step_->launch.file, start, error, 4u << 20)) return "the exercise's starting file: " + error;
  return write_file_atomic(copy_, start);
}

void ExerciseSession::poll(Session& s, KernelFileWatch& watch) {
  if (!is_open() || watch.path() != copy_.string()) return;
  if (watch.building()) {
    status_ = "building your copy…";
    return;
  }
  if (watch.failed()) {
    results_.clear();
    status_ = "your copy does not build: the Kernel file panel shows where";
    return;
  }
  if (watch.builds() != build_seen_ && !watch.kernel().empty()) {
    build_seen_ = watch.builds();
    RunRequest r;
    r.kernel = watch.kernel();
    r.backend = BackendKind::Emu;  // (goals are graded on the emulator, as `check` grades them)
    if (std::string err = graded_config(*step_, "", r.config); !err.empty()) {
      status_ = "not graded: " + err;
      return;
    }
    s.request(r);
    waiting_ = true;
    status_ = "running your copy…";
    return;
  }
  const std::shared_ptr<const SessionData> d = s.data();
  if (!waiting_ || !d || d->generation == graded_generation_ || d->request.kernel != watch.kernel() || s.busy()) return;
  graded_generation_ = d->generation;
  waiting_ = false;
  results_.clear();
  if (!d->error.empty()) {
    status_ = "not graded: " + d->error;
    return;
  }
  for (const Diagnostic& e : d->result.errors)
    if (isolation::is_run_process_failure(e)) {
      status_ = "not graded: " + e.message;
      return;
    }
  results_ = grading::grade(step_->goals, d->result, d->reports);
  size_t skipped = 0;
  for (grading::GoalResult& r : results_)
    if (r.skipped) {  // (the viewer grades on the emulator; the GPU's time is `check`'s)
      r.detail = "graded by `warpscope check` on a CUDA GPU";
      ++skipped;
    }
  status_ = std::to_string(held()) + " of " + std::to_string(results_.size() - skipped) + " goals hold" +
            (done() ? ": done" : "");
}

ExerciseSession& exercise_session() {
  static ExerciseSession x;
  return x;
}

}  // namespace ws::app
