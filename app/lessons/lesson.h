// A lesson: a lecture as a sequence of prepared pictures, one key press apart. One TOML file
// (docs/lessons.md has the whole format) with a title and its steps; a step names a launch, what
// is selected (the instruction the step is about, by its source line), which views show it and
// how they are laid out, a title and a caption, and optionally a second launch to compare with.
//
//   title = "Parallel reduction"
//   [[step]]
//   title = "Interleaved addressing: bank conflicts"
//   caption = "index = 2*s*tid: which banks does warp 0 hit at s = 2?"
//   variant = "2"
//   select = { line = "sdata[index] += sdata[index + s]" }
//   views = ["access-map", { id = "bank-heatmap", scope = "block" }]
//
//   LessonLoad l = load_lesson("lessons/reduction.toml");
//   if (!l.error.empty()) ... // "lessons/reduction.toml:12:3: step 2: no view named 'acces-map' (views: ...)"
//
// Every key has a default (a step that names only a variant works); everything the file names is
// checked when it loads (keys, kernels, variants, launch values, views, options), so a lesson that
// loads can be played. Only what needs a run (that the selected line has an instruction) is
// checked when the step runs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ws/grading/goal.h"
#include "ws/run/config.h"
#include "ws/run/launch_text.h"

namespace ws::app {

struct RunRequest;

// Where in the file something was written (1-based), for error messages.
struct LessonPlace {
  uint32_t line = 0, column = 0;
};

struct LessonLaunch {
  std::string kernel = "reduce";        // "" for a kernel file the lesson was not trusted to build
  std::filesystem::path file;           // the kernel file it names (`file = ...`), resolved; empty: a catalog kernel
  LaunchText text;                      // variant, n, block, dtype, seed, params...
  BackendKind backend = BackendKind::Emu;
};

// What a step selects. The instruction is named by its source line: text the line contains
// ("sdata[index] += sdata[index + s]") or its number in the kernel's file.
struct LessonSelect {
  uint32_t launch = 0, block = 0, warp = 0;
  int lane = -1;               // a lane to outline (-1: none)
  std::string line_text;       // "" and line_number 0: the views' own choice (the costliest)
  uint32_t line_number = 0;
  // Which of the warp's passes through that line (its instructions there with none of its others
  // between and none of them twice: a tree step's loads and store at one s, one trip of a loop):
  // the n-th (0-based; a tree's s = 2 pass is the second), the first, or "worst", the default: the
  // costliest instruction of all its passes. Inside a pass, its costliest instruction (else its
  // first).
  enum class Occurrence { Worst, First, Index } occurrence = Occurrence::Worst;
  uint32_t index = 0;
  // Of the line's instructions, only these: "load", "store" or "atomic" ("" any), of the array
  // named so ("" any): the store of `tile[ty][tx] = in[...]`, the NsubT read of a line with two.
  std::string access, array;
  // Of those, the n-th in the line's source order (0-based, by column): `cache[tid] += cache[tid +
  // 128]` has two loads of cache; nth = 1 is cache[tid + 128]. -1: any (the costliest).
  int nth = -1;
  int64_t hazard = -1;         // select the n-th hazard pair instead (races first)
  int64_t cursor = -1;         // playback: the block's first `cursor` instructions issued (-1: all)
};

struct LessonView {
  std::string id;                    // a view of the registry (views/registry.cpp), by id or short name
  std::vector<std::string> options;  // its options, "key=value"
};

enum class LessonLayout { Row, Column, Grid };  // views side by side, one under another, 2 x 2

// What the step's author says its picture shows, checked against the run by `warpscope lesson
// FILE --check` and the tests (the selected instruction's numbers, the run's verdict). Unset
// values are not checked.
struct LessonExpect {
  std::optional<uint64_t> wavefronts, conflicts, sectors, lines, active_lanes, races, lockstep;
  std::optional<uint64_t> same_address;  // an atomic's most lanes on one address
  std::string verdict;  // "PASS", "RACE", "LOCKSTEP ONLY", "FAIL", "FAULT"
  // A stream view's scenario: from its first host call to its last operation's completion, in
  // milliseconds as the caption rounds them (within 0.05 ms). Checked on the views (views_expect).
  std::optional<double> end_to_end_ms;
};

struct LessonCompare {
  LessonLaunch launch;         // the second launch: the step's, changed by the keys given
  LessonSelect select;         // the step's, unless the comparison names its own
  LessonExpect expect;         // what its picture shows (checked like the step's)
  std::string caption;         // under the second picture
  std::string first_caption;   // under the first
  LessonLayout layout = LessonLayout::Row;  // Row: side by side; Column: the second below
};

struct LessonStep {
  std::string title, caption;
  std::string gpu_caption;  // instead of the caption where a CUDA GPU is present ("" the caption)
  LessonExpect expect;
  LessonLaunch launch;
  LessonSelect select;
  std::vector<LessonView> views;  // one to four
  LessonLayout layout = LessonLayout::Row;
  std::optional<LessonCompare> compare;
  LessonPlace place;  // where the step starts in its file
  // An exercise step: the student edits a copy of the step's kernel file until these hold
  // (`[[step.goal]]` tables; docs/lessons.md, "Exercises"); its hints unlock one by one.
  std::vector<grading::Goal> goals;
  std::vector<std::string> hints;
  bool is_exercise() const { return !goals.empty(); }
};

struct Lesson {
  std::string title, description;
  std::filesystem::path file;
  std::vector<LessonStep> steps;
};

struct LessonLoad {
  Lesson lesson;
  std::string error;  // "" or "FILE:LINE:COL: what is wrong, and what is allowed"
  bool ok() const { return error.empty(); }
  // The kernel files its steps name that were not built because the lesson is not trusted
  // (LessonTrust::run_files): what a user is shown before trusting it. Sorted, each once.
  std::vector<std::filesystem::path> untrusted_files;
};

// What reading a lesson may do. A lesson is a document people mail each other: its kernel files
// are code, and reading it builds and loads none of them unless it is trusted. Its files must lie
// in its folder (or below) unless `outside_ok`. The lessons that ship with warpscope are trusted.
struct LessonTrust {
  bool run_files = false;   // build and load the kernel files its steps name (their code runs)
  bool outside_ok = false;  // files outside the lesson's folder (an absolute path, ..) are allowed
};

// Reads and checks `file`. Untrusted (the default, unless it is a shipped lesson), its kernel-file
// steps are read but not built: their launches have no kernel, untrusted_files lists them, and
// the player shows those steps as not trusted.
LessonLoad load_lesson(const std::filesystem::path& file, LessonTrust trust = {});
// Whether `file` is one of shipped_lessons() (the lessons installed with warpscope: trusted).
bool is_shipped_lesson(const std::filesystem::path& file);
// What the command line says of a lesson whose kernel files were not built: which files, and how
// to run them ("" when there are none).
std::string untrusted_message(const LessonLoad& l, const std::filesystem::path& file);
// What differs between a step's expectations and what its run shows ("" when all agree); `d` is
// the step's run with its selection applied in `sel`.
struct SessionData;
struct Selection;
std::string check_expect(const LessonExpect& e, const SessionData& d, const Selection& sel);
// The same from text (`name` stands for the file in messages, its folder for kernel files).
LessonLoad parse_lesson(const std::string& text, const std::string& name, LessonTrust trust = {});

// The run a step's launch asks for (and its comparison's).
RunRequest lesson_request(const LessonLaunch& launch);

// A step as TOML text, as "save this state as a step" (Ctrl+S) writes it into a lesson file; a
// kernel file's step names its file relative to `lesson_dir`, the folder of the lesson written to.
std::string step_toml(const LessonStep& step, const std::filesystem::path& lesson_dir = {});
// Writes `step` into `file` after its step `after` (0-based; at the end when there is none
// after it). The file is read, checked to still load with the new step, and written atomically:
// it is never left broken. Returns "" or why not.
std::string insert_step(const std::filesystem::path& file, size_t after, const LessonStep& step);

// The lessons that ship with warpscope, sorted by file name: lessons/*.toml in $WARPSCOPE_LESSONS,
// else in the source tree the binary was built from, else in ./lessons.
std::vector<std::filesystem::path> shipped_lessons();
// The exercises that ship with warpscope (exercises/*.toml; WARPSCOPE_EXERCISES names another folder).
std::vector<std::filesystem::path> shipped_exercises();

}  // namespace ws::app
