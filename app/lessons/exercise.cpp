#include "lessons/exercise.h"

#include <chrono>

#include "ws/analysis/analysis.h"
#include "ws/isolation/isolated_runs.h"
#include "ws/kernel_file/build.h"
#include "ws/kernel_file/description.h"
#include "ws/run/catalog.h"
#include "ws/timing/timing.h"
#include "ws/util/atomic_file.h"

namespace ws::app {

namespace {

namespace fs = std::filesystem;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// How the run process ended a build or a run, from its error code (isolated_runs.h): the
// student's endless loop, crash and runaway allocation are verdicts on the submission, not
// failures of the grader.
GradeStatus status_of(const std::string& code) {
  if (code == "time-limit") return GradeStatus::TimedOut;
  if (code == "run-process-ended" || code == "out-of-memory") return GradeStatus::Crashed;
  return GradeStatus::Error;
}

// What a grader's one line says: "did not finish in 3 s", "by signal 11 (Segmentation fault) as
// its code was loaded", the first build error.
std::string reason_of(GradeStatus s, const std::string& code, const std::string& message) {
  std::string first = message.substr(0, message.find('\n'));
  if (code == "out-of-memory") return "ran out of the memory it was given (std::bad_alloc)";
  if (s == GradeStatus::TimedOut) {
    const size_t at = message.find("did not finish in ");
    if (at != std::string::npos) return message.substr(at, message.find_first_of(",;", at) - at);
  }
  if (s == GradeStatus::Crashed) {
    const size_t at = message.find("by signal ");
    const size_t end = at == std::string::npos ? at : message.find(')', at);
    if (end != std::string::npos)
      return message.substr(at, end + 1 - at) +
             (message.find("as it was loaded") != std::string::npos ? " as its code was loaded" : " during the run");
  }
  return first.size() > 200 ? first.substr(0, 197) + "..." : first;
}

Graded not_graded(GradeStatus s, std::string message, const std::string& code = "") {
  Graded g;
  g.status = s;
  g.reason = reason_of(s, code, message);
  g.message = std::move(message);
  return g;
}

// The student's text under the starting file's launch description, or why not.
std::string graded_text_of(const LessonStep& step, const fs::path& file, std::string& error) {
  std::string start;
  if (!read_file(step.launch.file, start, error, 4u << 20)) return error = "the exercise's starting file: " + error, "";
  return kernel_file::read_with_description_of(file.empty() ? step.launch.file : file, start, error);
}

// The build's errors, one per line (the first 20).
std::string build_errors(const kernel_file::Build& b) {
  std::string s;
  int n = 0;
  for (const kernel_file::BuildDiagnostic& d : b.diagnostics)
    if (d.severity == kernel_file::BuildDiagnostic::Severity::Error && n++ < 20) s += (s.empty() ? "" : "\n") + to_text(d);
  return s.empty() ? b.summary : s;
}

// The GPU goals' times, one per gpu_time goal: the graded launch at the goal's size on gpu-fast,
// against the same bytes copied (or read) at this device's rate. None where there is no GPU (the
// goals are then skipped).
std::vector<grading::GpuTime> time_on_gpu(const LessonStep& step, const std::string& kernel, const RunConfig& graded) {
  std::vector<grading::GpuTime> out;
  if (!timing::device().present) return out;
  for (const grading::Goal& goal : step.goals) {
    if (!grading::info(goal.metric).gpu) continue;
    grading::GpuTime& t = out.emplace_back();
    RunConfig cfg = graded;
    if (goal.n) cfg.n = goal.n;
    const timing::Measurement m = timing::measure(Catalog::instance(), kernel, cfg);
    if (!m.ok) {
      t.why_not = m.error;
      continue;
    }
    if (!m.passed) {
      t.why_not = "its result on the GPU is wrong (" + m.check + ")";
      continue;
    }
    const bool copy = goal.of == "copy";
    const timing::Ceilings c = timing::measure_ceilings(copy ? m.bytes / 2 : m.bytes, 15);
    const double gbps = copy ? c.copy_gbps : c.read_gbps;
    if (!c.ok || gbps <= 0) {
      t.why_not = "the " + goal.of + " ceiling could not be measured: " + c.error;
      continue;
    }
    t.ok = true;
    t.ms = m.stats.median;
    t.bytes = m.bytes;
    t.ceiling_ms = double(m.bytes) / (gbps * 1e9) * 1e3;
  }
  return out;
}

}  // namespace

bool has_gpu_goal(const LessonStep& step) {
  for (const grading::Goal& g : step.goals)
    if (grading::info(g.metric).gpu) return true;
  return false;
}

const LessonStep* exercise_step(const Lesson& lesson, size_t step_number, std::string& error) {
  std::vector<size_t> found;
  for (size_t i = 0; i < lesson.steps.size(); ++i)
    if (lesson.steps[i].is_exercise()) found.push_back(i);
  if (step_number > 0) {
    if (step_number > lesson.steps.size() || !lesson.steps[step_number - 1].is_exercise())
      return error = "step " + std::to_string(step_number) + " is not an exercise step (it has no [[step.goal]])", nullptr;
    return &lesson.steps[step_number - 1];
  }
  if (found.empty()) return error = "the file has no exercise step: a step with goals ([[step.goal]])", nullptr;
  if (found.size() > 1) {
    error = "the file has " + std::to_string(found.size()) + " exercise steps (";
    for (size_t i : found) error += (i == found.front() ? "" : ", ") + std::to_string(i + 1);
    return error += "): say which with --step N", nullptr;
  }
  return &lesson.steps[found.front()];
}

const char* to_string(GradeStatus s) {
  switch (s) {
    case GradeStatus::Graded: return "graded";
    case GradeStatus::DoesNotBuild: return "does-not-build";
    case GradeStatus::TimedOut: return "timed-out";
    case GradeStatus::Crashed: return "crashed";
    case GradeStatus::Error: return "error";
  }
  return "error";
}

size_t Graded::held() const {
  size_t n = 0;
  for (const grading::GoalResult& r : goals) n += r.held;
  return n;
}

size_t Graded::skipped() const {
  size_t n = 0;
  for (const grading::GoalResult& r : goals) n += r.skipped;
  return n;
}

bool Graded::all_held() const { return status == GradeStatus::Graded && held() + skipped() == goals.size(); }

std::string graded_config(const LessonStep& step, const std::string& workers, RunConfig& cfg) {
  cfg = RunConfig{};
  cfg.record.blocks.clear();
  LaunchText launch = step.launch.text;
  if (!workers.empty()) launch.workers = workers;
  return apply_launch_text(launch, cfg);
}

Graded grade_submission(const LessonStep& step, const Submission& s) {
  std::string error;
  const fs::path file = s.file.empty() ? step.launch.file : s.file;
  const std::string text = graded_text_of(step, s.file, error);
  if (text.empty()) return not_graded(GradeStatus::Error, error);
  // Built as the student's file (its diagnostics name the student's lines), with the exercise's
  // description appended after its last line.
  const auto t0 = std::chrono::steady_clock::now();
  kernel_file::BuildOptions bo;
  bo.text = &text;
  bo.gpu = has_gpu_goal(step) && timing::device().present;  // (nvcc too: tens of seconds)
  bo.timeout_seconds = s.build_timeout_seconds;
  kernel_file::Build b = kernel_file::build(fs::absolute(file).string(), bo);
  const double build_seconds = seconds_since(t0);
  if (!b.ok) {
    const std::string errors = build_errors(b);
    const GradeStatus st = b.run_process_failure.empty() ? GradeStatus::DoesNotBuild : status_of(b.run_process_failure);
    Graded g = not_graded(st, errors, b.run_process_failure);
    g.build_seconds = build_seconds;
    return g;
  }
  if (std::string err = kernel_file::install(b, Catalog::instance()); !err.empty()) return not_graded(GradeStatus::Error, err);
  RunConfig cfg;
  if (std::string err = graded_config(step, s.workers, cfg); !err.empty()) return not_graded(GradeStatus::Error, err);
  const auto t1 = std::chrono::steady_clock::now();
  const RunResult run = Catalog::instance().run(b.name, cfg, BackendKind::Emu);
  Graded g;
  g.build_seconds = build_seconds;
  g.run_seconds = seconds_since(t1);
  if (!run.refused.empty()) return not_graded(GradeStatus::Error, "the launch was refused: " + run.refused);
  for (const Diagnostic& d : run.errors)
    if (isolation::is_run_process_failure(d)) {
      Graded lost = not_graded(status_of(d.code), d.message, d.code);
      lost.build_seconds = g.build_seconds;
      lost.run_seconds = g.run_seconds;
      return lost;
    }
  std::vector<analysis::Report> reports;
  analysis::Options ao;
  ao.per_event = false;
  ao.heat_bins = 0;
  for (const Trace& t : run.launches) reports.push_back(analysis::analyze(t, ao));
  g.status = GradeStatus::Graded;
  const std::vector<grading::GpuTime> gpu = bo.gpu ? time_on_gpu(step, b.name, cfg) : std::vector<grading::GpuTime>{};
  g.goals = grading::grade(step.goals, run, reports, gpu);
  return g;
}

}  // namespace ws::app
