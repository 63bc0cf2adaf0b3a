#include "check.h"

#include "lessons/exercise.h"
#include "lessons/graded_record.h"
#include "lessons/lesson.h"
#include "cli/scale_check.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>

#include "ws/isolation/isolated_runs.h"
#include "ws/util/atomic_file.h"
#include "ws/util/program.h"

namespace ws::app {

namespace {

namespace fs = std::filesystem;

struct CheckOptions {
  CLI::App* cmd = nullptr;
  std::string exercise;
  std::vector<std::string> files;
  size_t step = 0;
  bool json = false;
  unsigned jobs = 0;           // submissions graded at once (0: one per core)
  double timeout = 20;         // a run's limit, seconds
  double build_timeout = 120;  // a build's limit, seconds
  uint64_t memory_mib = 8192;  // the run process's address space
  std::string workers;         // the emulator's worker threads per submission
  std::string record;          // (a batch's child) also write the JSON record here
};

CheckOptions& options() {
  static CheckOptions o;
  return o;
}

// The files to grade: each --file, a folder's *.cu (sorted); none: the starting file ("").
bool expand_files(const CheckOptions& o, std::vector<fs::path>& out, bool& batch) {
  batch = false;
  for (const std::string& f : o.files) {
    std::error_code ec;
    if (fs::is_directory(f, ec)) {
      batch = true;
      std::vector<fs::path> found;
      for (const fs::directory_entry& e : fs::directory_iterator(f, ec))
        if (e.path().extension() == ".cu" && e.is_regular_file(ec)) found.push_back(e.path());
      std::sort(found.begin(), found.end());
      if (found.empty()) return std::fprintf(stderr, "warpscope: --file %s: the folder holds no .cu file\n", f.c_str()), false;
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(f, ec)) {
      out.push_back(f);
    } else {
      std::fprintf(stderr, "warpscope: --file %s: %s\n", f.c_str(),
                   fs::exists(f, ec) ? "not a regular file (give a .cu file or a folder of them)" : "no such file");
      return false;
    }
  }
  if (out.size() > 1) batch = true;
  if (out.empty()) out.push_back({});
  return true;
}

// --- one file, here (its code in the confined run process) -----------------------------------

int check_one(const CheckOptions& o, const LessonStep& step, size_t step_number, const fs::path& file) {
  isolation::IsolationOptions io;
  io.timeout_seconds = o.timeout;
  io.gpu = has_gpu_goal(step);  // (timed there too, where a GPU is)
  io.kernel_files = true;
  io.run_process_args = {"--confine", std::to_string(o.memory_mib)};
  if (io.gpu) io.run_process_args.push_back("--confine-gpu");
  isolation::enable(Catalog::instance(), io);
  const auto t0 = std::chrono::steady_clock::now();
  GradedFile g;
  g.exercise = o.exercise;
  g.file = file.empty() ? step.launch.file : file;
  g.starting_file = file.empty();
  g.step = step_number;
  g.graded = grade_submission(step, {.file = file, .workers = o.workers, .build_timeout_seconds = o.build_timeout});
  g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  isolation::disable();
  const std::string json = graded_json(g, step);
  if (!o.record.empty())
    if (std::string err = write_file_atomic(o.record, json); !err.empty()) std::fprintf(stderr, "warpscope: %s\n", err.c_str());
  std::fputs(o.json ? (json + "\n").c_str() : graded_text(g, step).c_str(), stdout);
  if (g.graded.status == GradeStatus::Error) return 2;
  return g.graded.all_held() ? 0 : 1;
}

// --- a batch: one child process per file, `jobs` at once -------------------------------------

struct BatchResult {
  GradedFile record;
  bool bad = false;  // no record came back: the grader, not the submission, failed
};

BatchResult grade_in_child(const CheckOptions& o, size_t step_number, const fs::path& file, const fs::path& record,
                           const std::string& workers) {
  std::error_code ec;
  const std::string exe = fs::read_symlink("/proc/self/exe", ec).string();
  std::vector<std::string> argv = {exe, "check", o.exercise, "--file", file.string(), "--step", std::to_string(step_number),
                                   "--timeout", std::to_string(o.timeout), "--build-timeout", std::to_string(o.build_timeout),
                                   "--memory", std::to_string(o.memory_mib), "--workers", workers,
                                   "--record", record.string()};
  // (Its own limits stop the student's code; this one stops a grader that hangs.)
  const ProgramRun p = run_program(argv, {.timeout_seconds = o.build_timeout + 2 * o.timeout + 60, .cancel = nullptr,
                                          .tmpdir = {}, .what = "the check of " + file.filename().string(), .max_output = 64 << 10});
  BatchResult b;
  std::string text, err;
  if (read_file(record, text, err, 16u << 20) && graded_from_json(text, b.record, err)) {
    b.record.seconds = p.seconds;
    return b;
  }
  std::string tail = p.output.size() > 400 ? p.output.substr(p.output.size() - 400) : p.output;
  b.bad = true;
  b.record.exercise = o.exercise;
  b.record.file = file;
  b.record.step = step_number;
  b.record.seconds = p.seconds;
  b.record.graded.message = (p.failure.empty() ? "it wrote no record (" + err + ")" : p.failure) + (tail.empty() ? "" : ": " + tail);
  return b;
}

int check_batch(const CheckOptions& o, const LessonStep& step, size_t step_number, const std::vector<fs::path>& files) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs = std::clamp<unsigned>(o.jobs ? o.jobs : cores, 1, unsigned(files.size()));
  const std::string workers = o.workers.empty() ? std::to_string(std::max(1u, cores / jobs)) : o.workers;
  std::error_code ec;
  const fs::path dir = fs::temp_directory_path(ec) / ("warpscope-check-" + std::to_string(::getpid()));
  fs::create_directories(dir, ec);
  std::vector<BatchResult> results(files.size());
  std::atomic<size_t> next{0};
  std::mutex print;
  const auto t0 = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (size_t i; (i = next++) < files.size();) {
      results[i] = grade_in_child(o, step_number, files[i], dir / (std::to_string(i) + ".json"), workers);
      if (o.json) continue;
      std::lock_guard lock(print);
      std::printf("%s\n", graded_line(results[i].record, step).c_str());
      std::fflush(stdout);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  fs::remove_all(dir, ec);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  size_t passed = 0, bad = 0;
  std::vector<double> each;
  std::vector<GradedFile> all;
  for (const BatchResult& r : results) {
    passed += r.record.graded.all_held();
    bad += r.bad;
    each.push_back(r.record.seconds);
    all.push_back(r.record);
  }
  std::sort(each.begin(), each.end());
  if (o.json) std::printf("%s\n", graded_json(all, step).c_str());
  else
    std::printf("graded %zu files in %.1f s (%u at once): %zu pass, %zu do not%s; per file: median %.1f s, longest %.1f s\n",
                files.size(), wall, jobs, passed, files.size() - passed,
                bad ? (", " + std::to_string(bad) + " could not be graded").c_str() : "", each[each.size() / 2], each.back());
  return bad ? 2 : passed == files.size() ? 0 : 1;
}

int cmd_check(const CheckOptions& o) {
  // Read, not trusted: none of its kernel files is built here (only the graded one, where it runs).
  std::string text, error;
  if (!read_file(o.exercise, text, error)) return std::fprintf(stderr, "warpscope: %s\n", error.c_str()), 2;
  const LessonLoad l = parse_lesson(text, o.exercise, {});
  if (!l.ok()) return std::fprintf(stderr, "warpscope: %s\n", l.error.c_str()), 2;
  const LessonStep* step = exercise_step(l.lesson, o.step, error);
  if (!step) return std::fprintf(stderr, "warpscope: %s: %s\n", o.exercise.c_str(), error.c_str()), 2;
  const size_t step_number = size_t(step - l.lesson.steps.data()) + 1;
  std::vector<fs::path> files;
  bool batch = false;
  if (!expand_files(o, files, batch)) return 2;
  return batch ? check_batch(o, *step, step_number, files) : check_one(o, *step, step_number, files.front());
}

}  // namespace

void register_check_command(CLI::App& app) {
  CheckOptions& o = options();
  o.cmd = app.add_subcommand("check",
                             "Grade an exercise (a lesson step with goals): a student's kernel file, a folder of "
                             "submissions, or without --file the exercise's starting file. Exit 0: every goal holds; "
                             "1: some do not; 2: bad input");
  o.cmd->add_option("exercise", o.exercise, "The exercise (TOML; docs/lessons.md, Exercises)")->required()->type_name("FILE");
  o.cmd->add_option("--file", o.files, "A student's .cu, or a folder of them (repeatable): graded in parallel")
      ->type_name("FILE|DIR");
  o.cmd->add_option("--step", o.step, "The exercise step (1-based) when the file has several")->check(CLI::Range(1, 1000));
  o.cmd->add_flag("--json", o.json, "One JSON record per file (an array for several): for an autograder");
  o.cmd->add_option("--jobs,-j", o.jobs, "Files graded at once (default: one per core)")->check(CLI::Range(1, 256));
  o.cmd->add_option("--timeout", o.timeout, "A submission's run is stopped after SECONDS (default 20)")
      ->check(seconds_check())
      ->type_name("SECONDS");
  o.cmd->add_option("--build-timeout", o.build_timeout, "A submission's build is stopped after SECONDS (default 120)")
      ->check(seconds_check())
      ->type_name("SECONDS");
  o.cmd->add_option("--memory", o.memory_mib, "Address space of a submission's run process, MiB (default 8192)")
      ->check(CLI::Range(uint64_t(256), uint64_t(1) << 22));
  o.cmd->add_option("--workers", o.workers, "Emulator worker threads per submission (default: the cores shared out)");
  o.cmd->add_option("--record", o.record, "Also write the JSON record to FILE")->group("");
}

int run_check_if_selected() {
  const CheckOptions& o = options();
  if (o.cmd && o.cmd->parsed()) return cmd_check(o);
  return -1;
}

}  // namespace ws::app
