// Lessons: the file format (defaults, every key, every error with its place and what is allowed),
// saving a step back into a file, and the player (a step's selection is the instruction its line
// names; its expectations hold).
#include "lessons/lesson.h"
#include "lessons/lesson_player.h"

#include "model/session.h"
#include "shell/settings.h"
#include "shell/shell.h"
#include "views/bank_heatmap.h"
#include "views/divergence_timeline.h"
#include "views/timing.h"
#include "views/view.h"

#include "ws/analysis/instruction.h"
#include "ws/util/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace ws::app;

namespace {

LessonLoad parse(const std::string& text) { return parse_lesson(text, "test.toml"); }

}  // namespace

// A step that names only a title and a variant: everything else comes from the defaults.
TEST(LessonFile, AThreeLineStepWorks) {
  const LessonLoad l = parse("[[step]]\ntitle = \"Sequential addressing\"\nvariant = \"3\"\n");
  ASSERT_TRUE(l.ok()) << l.error;
  EXPECT_EQ(l.lesson.title, "test");  // the file's name
  ASSERT_EQ(l.lesson.steps.size(), 1u);
  const LessonStep& s = l.lesson.steps[0];
  EXPECT_EQ(s.launch.kernel, "reduce");
  EXPECT_EQ(s.launch.text.variant, "3");
  ASSERT_EQ(s.views.size(), 1u);
  EXPECT_EQ(s.views[0].id, "warp-access-map");
  EXPECT_EQ(s.layout, LessonLayout::Row);
  EXPECT_FALSE(s.compare);
  EXPECT_EQ(s.place.line, 1u);
}

// Every key, [defaults] inherited and overridden, a comparison starting from its step.
TEST(LessonFile, EveryKeyReachesTheStep) {
  const LessonLoad l = parse(R"(
title = "Banks"
description = "seed 001"
[defaults]
kernel = "bank"
variant = "stride"
n = 32
block = 32
params = { stride = 2 }
views = ["access-map"]

[[step]]
title = "two"
caption = "which lanes share bank 0?"
params = { stride = 8 }
seed = 3
select = { warp = 0, lane = 5, line = "shared[baseIndex + s * threadIdx.x]", occurrence = "first" }
views = ["access-map", { id = "bank-heatmap", scope = "block", controls = "on" }]
layout = "column"
expect = { wavefronts = 8, conflicts = 7, verdict = "PASS" }
compare = { params = { stride = 33 }, caption = "one pass", first_caption = "eight", layout = "column", expect = { conflicts = 0 } }
)");
  ASSERT_TRUE(l.ok()) << l.error;
  EXPECT_EQ(l.lesson.title, "Banks");
  EXPECT_EQ(l.lesson.description, "seed 001");
  const LessonStep& s = l.lesson.steps.at(0);
  EXPECT_EQ(s.launch.kernel, "bank");
  EXPECT_EQ(s.launch.text.n, "32");
  EXPECT_EQ(s.launch.text.seed, "3");
  EXPECT_EQ(s.launch.text.params, std::vector<std::string>{"stride=8"});  // the step's replaces the default's
  EXPECT_EQ(s.select.lane, 5);
  EXPECT_EQ(s.select.occurrence, LessonSelect::Occurrence::First);
  EXPECT_EQ(s.select.line_text, "shared[baseIndex + s * threadIdx.x]");
  ASSERT_EQ(s.views.size(), 2u);
  EXPECT_EQ(s.views[1].id, "bank-heatmap");
  EXPECT_EQ(s.views[1].options, (std::vector<std::string>{"controls=on", "scope=block"}));  // (in key order)
  EXPECT_EQ(s.layout, LessonLayout::Column);
  EXPECT_EQ(s.expect.wavefronts, 8u);
  EXPECT_EQ(s.expect.verdict, "PASS");
  ASSERT_TRUE(s.compare);
  EXPECT_EQ(s.compare->launch.text.params, std::vector<std::string>{"stride=33"});
  EXPECT_EQ(s.compare->launch.text.n, "32");  // the step's, where the comparison says nothing
  EXPECT_EQ(s.compare->select.line_text, s.select.line_text);
  EXPECT_EQ(s.compare->caption, "one pass");
  EXPECT_EQ(s.compare->expect.conflicts, 0u);
}

// A damaged lesson says where (file:line:column) and what is allowed.
TEST(LessonFile, EveryErrorSaysWhereAndWhatIsAllowed) {
  const std::pair<std::string, std::string> cases[] = {
      {"[[step]]\nvairant = \"3\"\n", "test.toml:2:11: step 1: unknown key 'vairant' (keys here: title, caption, gpu_caption, kernel, file, variant"},
      {"[[step]]\nkernel = \"reduse\"\n", "test.toml:1:1: step 1: no kernel named 'reduse' (kernels: reduce,"},
      {"[[step]]\nvariant = \"42\"\n", "test.toml:1:1: step 1: kernel 'reduce' has no variant '42' (variants: 1, 2,"},
      {"[[step]]\nn = -5\n", "test.toml:1:1: step 1: n = -5: n is a whole number from 1 to 4294967295"},
      {"[[step]]\nblock = [0, 4]\n", "test.toml:1:1: step 1: block '0,4' is not a shape"},
      {"[[step]]\nviews = [\"acces-map\"]\n", "test.toml:2:10: step 1: no view named 'acces-map' (views: "},
      {"[[step]]\nviews = [{ id = \"memory\", color = \"hue\" }]\n",
       "test.toml:2:10: step 1: the Memory heatmap's color is accesses, conflicts, first-touch, hazards or contention (not 'hue')"},
      {"[[step]]\nlayout = \"diagonal\"\n", "test.toml:2:10: step 1: layout is row (side by side), column"},
      {"[[step]]\nselect = { warp = 40 }\n", "test.toml:2:19: step 1: warp is from 0 to 31"},
      {"[[step]]\nselect = { occurrence = \"last\" }\n", "test.toml:2:25: step 1: occurrence is worst, first, or a number"},
      {"[[step]]\nexpect = { verdict = \"OK\" }\n", "test.toml:2:22: step 1: verdict is PASS, RACE, LOCKSTEP ONLY, FAIL or FAULT"},
      {"[[step]]\ntitle = \"x\"\n[[step]]\nvariant = \"9\"\nn = \"many\"\n", "test.toml:3:1: step 2: n = many: n is a whole"},
      {"title = \"no steps\"\n", "the lesson has no steps: add [[step]] tables"},
      {"[[step]]\ntitle = \"unclosed\n", "test.toml:2:"},
      {"titel = \"x\"\n[[step]]\n", "test.toml:1:9: unknown key 'titel' (keys here: title, description, defaults, step)"},
  };
  for (const auto& [text, message] : cases) {
    const LessonLoad l = parse(text);
    EXPECT_FALSE(l.ok()) << text;
    EXPECT_NE(l.error.find(message), std::string::npos) << text << "\n" << l.error;
    EXPECT_TRUE(l.lesson.steps.empty());
  }
  const LessonLoad missing = load_lesson("/nonexistent/lesson.toml");
  EXPECT_NE(missing.error.find("/nonexistent/lesson.toml"), std::string::npos) << missing.error;
}

// An exercise step: its goals and hints are read with the step, each goal's mistakes said at
// its place with what is allowed.
TEST(LessonFile, ExerciseGoalsAndHintsAreReadAndCheckedWhereTheyAre) {
  const std::string head = "[[step]]\nfile = \"start.cu\"\n";
  const LessonLoad ok = parse_lesson(head + "hints = [\"one\", \"two\"]\n[[step.goal]]\nmetric = \"bank_conflicts\"\n"
                                            "array = \"sdata\"\nmax = 0\nsays = \"no conflicts\"\n[[step.goal]]\n"
                                            "metric = \"simd_efficiency\"\nline = \"sdata[tid]\"\nmin = 90\n"
                                            "[[step.goal]]\nmetric = \"result\"\n",
                                     "/tmp/exercise.toml");
  ASSERT_TRUE(ok.ok()) << ok.error;
  const LessonStep& step = ok.lesson.steps.at(0);
  ASSERT_TRUE(step.is_exercise());
  ASSERT_EQ(step.goals.size(), 3u);
  EXPECT_EQ(step.goals[0].metric, ws::grading::Metric::BankConflicts);
  EXPECT_EQ(step.goals[0].scope.array, "sdata");
  EXPECT_EQ(step.goals[0].max, 0.0);
  EXPECT_EQ(step.goals[0].says, "no conflicts");
  EXPECT_EQ(step.goals[1].scope.line_text, "sdata[tid]");
  EXPECT_EQ(step.goals[1].min, 90.0);
  EXPECT_EQ(step.goals[2].says, "the result passes");
  EXPECT_EQ(step.hints, (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(ok.untrusted_files.size(), 1u);  // (read, not built)

  const std::pair<std::string, std::string> cases[] = {
      {head + "[[step.goal]]\nmetric = \"conflicts\"\nmax = 0\n", ":4:10: step 1: no metric named 'conflicts' (metrics: bank_conflicts, bank_ways,"},
      {head + "[[step.goal]]\nmax = 0\n", ":3:1: step 1: a goal names its metric"},
      {head + "[[step.goal]]\nmetric = \"races\"\n", "the goal on races needs a bound: max = N or min = N"},
      {head + "[[step.goal]]\nmetric = \"simd_efficiency\"\nmin = 140\n", ":5:7: step 1: min of simd_efficiency is a percentage, 0 to 100"},
      {head + "[[step.goal]]\nmetric = \"result\"\nmax = 1\n", "the result goal has no bound"},
      {head + "[[step.goal]]\nmetric = \"result\"\narray = \"x\"\n", "result is about the whole run: array, line and access do not apply"},
      {head + "[[step.goal]]\nmetric = \"bank_conflicts\"\nmax = 0\naccess = \"read\"\n", "access is load, store or atomic (not 'read')"},
      {head + "[[step.goal]]\nmetric = \"bank_conflicts\"\nmax = 0\nwhy = \"x\"\n", "unknown key 'why' (keys here: metric, max, min, array, line, access, says, of, n)"},
      {head + "[[step.goal]]\nmetric = \"gpu_time\"\nmax = 1.5\nof = \"cublas\"\n", ":6:6: step 1: of is copy or read (the ceiling the time is held against; not 'cublas')"},
      {head + "[[step.goal]]\nmetric = \"gpu_time\"\nmin = 1\n", "a gpu_time goal is a most: max = K"},
      {head + "[[step.goal]]\nmetric = \"gpu_time\"\nmax = 0\n", "a gpu_time goal's max is above 0"},
      {head + "[[step.goal]]\nmetric = \"gpu_time\"\nmax = 2\nn = -5\n", "n is the size timed on the GPU, a whole number above 0"},
      {head + "[[step.goal]]\nmetric = \"races\"\nmax = 0\nof = \"copy\"\n", "of applies to gpu_time goals only"},
      {head + "hints = [\"a\"]\n", "hints belong to an exercise step: give it goals"},
      {"[[step]]\n[[step.goal]]\nmetric = \"result\"\n", "an exercise step names the kernel file the student edits"},
      {"[defaults]\nhints = [\"a\"]\n[[step]]\n", "goals and hints belong to a step, not to [defaults]"},
  };
  for (const auto& [text, message] : cases) {
    const LessonLoad l = parse_lesson(text, "/tmp/exercise.toml");
    EXPECT_FALSE(l.ok()) << text;
    EXPECT_NE(l.error.find(message), std::string::npos) << text << "\n" << l.error;
  }
}

// Ctrl+S: the state as a new step after the current one; the file still loads, nothing else moved.
TEST(LessonFile, ASavedStepGoesAfterTheCurrentOneAndTheFileStillLoads) {
  const fs::path f = fs::temp_directory_path() / ("ws_lesson_" + std::to_string(::getpid()) + ".toml");
  const std::string text = "title = \"t\"\n[[step]]\ntitle = \"one\"\nvariant = \"1\"\n\n[[step]]\ntitle = \"two\"\nvariant = \"2\"\n";
  ASSERT_EQ(ws::write_file_atomic(f, text), "");
  LessonLoad l = load_lesson(f);
  ASSERT_TRUE(l.ok()) << l.error;
  LessonStep saved = l.lesson.steps[0];
  saved.title = "one, block 128 \"quoted\"";
  saved.launch.text.block = "128,1,1";
  saved.select.warp = 3;
  saved.select.line_number = 31;
  saved.select.occurrence = LessonSelect::Occurrence::Index;
  saved.select.index = 2;
  saved.views = {LessonView{"bank-conflict-heatmap", {"scope=block"}}};
  ASSERT_EQ(insert_step(f, 0, saved), "");
  const LessonLoad again = load_lesson(f);
  ASSERT_TRUE(again.ok()) << again.error;
  ASSERT_EQ(again.lesson.steps.size(), 3u);
  EXPECT_EQ(again.lesson.steps[0].title, "one");
  EXPECT_EQ(again.lesson.steps[1].title, "one, block 128 \"quoted\"");
  EXPECT_EQ(again.lesson.steps[2].title, "two");
  const LessonStep& s = again.lesson.steps[1];
  EXPECT_EQ(s.launch.text.block, "128,1,1");
  EXPECT_EQ(s.select.warp, 3u);
  EXPECT_EQ(s.select.line_number, 31u);
  EXPECT_EQ(s.select.index, 2u);
  EXPECT_EQ(s.views.at(0).options, std::vector<std::string>{"scope=block"});
  // After the last step: at the end.
  ASSERT_EQ(insert_step(f, 2, saved), "");
  EXPECT_EQ(load_lesson(f).lesson.steps.size(), 4u);
  // A step that would break the file is not written, and the file is as it was.
  std::string before, err;
  ASSERT_TRUE(ws::read_file(f, before, err));
  LessonStep bad = saved;
  bad.launch.kernel = "no-such-kernel";
  EXPECT_NE(insert_step(f, 0, bad).find("the step was not saved"), std::string::npos);
  std::string after;
  ASSERT_TRUE(ws::read_file(f, after, err));
  EXPECT_EQ(after, before);
  fs::remove(f);
}

// Ctrl+S saves what is on screen: an option changed by a view's picker during the step is written
// with the step, and the saved step shows each view that way again.
TEST(LessonPlayer, SavingAStepKeepsTheOptionsTheViewsShow) {
  LessonLoad l = parse(R"(
[[step]]
title = "banks"
variant = "2"
n = 1024
block = 256
views = ["bank-heatmap", { id = "timeline", lanes = "0-31" }, "timing-live"]
)");
  ASSERT_TRUE(l.ok()) << l.error;
  LessonPlayer p(l.lesson);
  p.go(0, true);
  ASSERT_TRUE(p.wait_ready());
  ASSERT_EQ(p.views().size(), 3u);
  // What the pickers set: the heatmap's scope, the timeline's zoom, the timing's tab.
  static_cast<BankHeatmapView&>(*p.views()[0]).scope = BankScope::Launch;
  ASSERT_EQ(apply_option(*find_view_type("timeline"), *p.views()[1], "zoom", "4"), "");
  static_cast<TimingView&>(*p.views()[2]).picture_tab = 0;
  const LessonStep saved = p.current_as_step();
  ASSERT_EQ(saved.views.size(), 3u);
  EXPECT_EQ(saved.views[0].options, std::vector<std::string>{"scope=launch"});
  EXPECT_EQ(saved.views[1].options, (std::vector<std::string>{"zoom=4", "lanes=0-31"}));
  EXPECT_EQ(saved.views[2].options, std::vector<std::string>{"tab=variants"});  // the alias's own tab=live undone
  // Written as a lesson and read back, each view shows what was on screen.
  const LessonLoad again = parse(step_toml(saved));
  ASSERT_TRUE(again.ok()) << again.error;
  LessonPlayer q(again.lesson);
  q.go(0, true);
  ASSERT_TRUE(q.wait_ready());
  ASSERT_EQ(q.views().size(), 3u);
  EXPECT_EQ(option_value(*find_view_type("bank-heatmap"), *q.views()[0], "scope"), "launch");
  EXPECT_EQ(option_value(*find_view_type("timeline"), *q.views()[1], "zoom"), "4");
  EXPECT_EQ(option_value(*find_view_type("timeline"), *q.views()[1], "lanes"), "0-31");
  EXPECT_EQ(option_value(*find_view_type("timing-live"), *q.views()[2], "tab"), "variants");
}

// Every value of a launch (LaunchText's field list) that a saved step holds is written by Ctrl+S
// and read back as it was: a field the list gains is saved with no other edit.
TEST(LessonFile, EveryLaunchValueOfTheListIsSavedAndReadBack) {
  LessonStep step;
  step.title = "all of it";
  step.launch.kernel = "reduce";
  LessonView source;
  source.id = "source";
  step.views.push_back(source);
  std::vector<std::string> given;
  visit_fields(step.launch.text, [&](const char* name, auto& field, ws::LaunchForm form) {
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, std::string>) {
      // (values every field of its form accepts: a new field needs no edit here)
      field = form == ws::LaunchForm::Shape ? "64" : form == ws::LaunchForm::Text ? "float" : form == ws::LaunchForm::Word ? "9" : "1000";
      given.push_back(std::string(name) + "=" + field);
    } else {
      field = {"max_blocks=32", "per_thread=8"};
      given.push_back(std::string(name) + "=max_blocks=32;per_thread=8");
    }
  });
  const std::string text = step_toml(step);
  const LessonLoad back = parse(text);
  ASSERT_TRUE(back.ok()) << back.error << "\n" << text;
  std::vector<std::string> read;
  visit_fields(back.lesson.steps.at(0).launch.text, [&](const char* name, const auto& field, ws::LaunchForm) {
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, std::string>) read.push_back(std::string(name) + "=" + field);
    else {
      std::vector<std::string> sorted = field;  // (a TOML table keeps no order)
      std::sort(sorted.begin(), sorted.end());
      read.push_back(std::string(name) + "=" + sorted.at(0) + ";" + sorted.at(1));
    }
  });
  EXPECT_EQ(read, given) << text;
}

// A parameter given by the name of its choice (input = "sorted") is written back as a string:
// the saved step reads again with the same choice.
TEST(LessonPlayer, AStepWithAParameterChoiceIsWrittenSoItReadsAgain) {
  LessonLoad l = parse("[[step]]\ntitle = \"q\"\nkernel = \"workqueue\"\nvariant = \"queue\"\nparams = { work = \"skewed\" }\n");
  ASSERT_TRUE(l.ok()) << l.error;
  const std::string text = step_toml(l.lesson.steps.at(0));
  const LessonLoad again = parse(text);
  ASSERT_TRUE(again.ok()) << again.error << "\n" << text;
  EXPECT_EQ(again.lesson.steps.at(0).launch.text.params, l.lesson.steps.at(0).launch.text.params);
}

// A real parameter's value (a kernel file's alpha = -0.75) is written as the number it is, and a
// whole one and a choice's name beside it, so that the step reads again with the same values.
TEST(LessonPlayer, AStepWithARealParameterIsWrittenSoItReadsAgain) {
  // (A kernel file's step: its parameters are the file's, checked when it is built and run.)
  const std::string dir = ::testing::TempDir() + "/real_param_lesson";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/k.cu") << "__global__ void k(float* y, float alpha) { y[threadIdx.x] *= alpha; }\n";
  auto parse_here = [&](const std::string& text) { return parse_lesson(text, dir + "/lesson.toml"); };
  LessonLoad l = parse_here("[[step]]\ntitle = \"q\"\nfile = \"k.cu\"\n"
                            "params = { alpha = -0.75, tiny = 1e-6, stride = 8, work = \"skewed\", mode = \"e\" }\n");
  ASSERT_TRUE(l.ok()) << l.error;
  // (by name; "e" is a choice's name, not a number)
  const std::vector<std::string> want = {"alpha=-0.75", "mode=e", "stride=8", "tiny=1e-06", "work=skewed"};
  EXPECT_EQ(l.lesson.steps.at(0).launch.text.params, want);
  const std::string text = step_toml(l.lesson.steps.at(0), dir);
  EXPECT_NE(text.find("file = \"k.cu\""), std::string::npos) << text;  // (its file, not its kernel's name)
  const LessonLoad again = parse_here(text);
  ASSERT_TRUE(again.ok()) << again.error << "\n" << text;
  EXPECT_EQ(again.lesson.steps.at(0).launch.text.params, want);
}

// Every option of every view reads back what it was set to.
TEST(ViewOptions, EveryOptionReadsBackEveryValue) {
  for (const ViewType& t : view_types())
    for (const ViewOption& o : t.options) {
      std::string values = o.values;
      for (size_t at = 0; at <= values.size();) {
        const size_t bar = std::min(values.find('|', at), values.size());
        const std::string v = values.substr(at, bar - at);
        const std::unique_ptr<View> view = t.make();
        ASSERT_EQ(apply_option(t, *view, o.key, v), "") << t.id << " " << o.key;
        EXPECT_EQ(option_value(t, *view, o.key), v) << t.id << " " << o.key;
        at = bar + 1;
      }
    }
}

// The player selects the instruction the step's line names: reduce 2's tree step at s = 2 (its
// second pass through the line) is a 4-way conflict for warp 0 of a 256-thread block: lanes 0-31
// read sdata[4*tid] and sdata[4*tid + 2]... the costliest of the pass is the load of
// sdata[index + s] or sdata[index]: 4 words per used bank, so 4 wavefronts, 3 conflicts.
TEST(LessonPlayer, TheStepSelectsTheInstructionItsLineNames) {
  LessonLoad l = parse(R"(
[[step]]
title = "s = 2"
variant = "2"
n = 4096
block = 256
select = { warp = 0, line = "sdata[index] += sdata[index + s]", occurrence = 1 }
expect = { wavefronts = 4, conflicts = 3, active_lanes = 32 }
[[step]]
title = "hazard"
kernel = "race"
variant = "0"
select = { hazard = 0 }
expect = { verdict = "RACE" }
)");
  ASSERT_TRUE(l.ok()) << l.error;
  LessonPlayer p(l.lesson);
  p.go(0, true);
  ASSERT_TRUE(p.wait_ready());
  EXPECT_EQ(p.error(), "");
  const ws::Trace* t = p.session().trace();
  ASSERT_NE(t, nullptr);
  const ws::Event& e = t->events.at(size_t(p.session().sel.event));
  EXPECT_NE(t->sites.at(e.site).text.find("sdata[index] += sdata[index + s]"), std::string::npos);
  EXPECT_EQ(e.space, ws::MemSpace::Shared);
  const auto m = ws::analysis::metrics_of(*t, e);
  EXPECT_EQ(m.shared.wavefronts, 4u);  // computed above by hand: 4 words in each used bank
  EXPECT_EQ(check_expect(l.lesson.steps[0].expect, *p.session().data(), p.session().sel), "");
  // The second step: a racing pair selected, both of its lines known to the views.
  p.next();
  ASSERT_TRUE(p.wait_ready());
  EXPECT_EQ(p.index(), 1u);
  EXPECT_TRUE(p.session().hazard_pair.valid());
  EXPECT_EQ(check_expect(l.lesson.steps[1].expect, *p.session().data(), p.session().sel), "");
  // An expectation that does not hold says what differs.
  LessonExpect wrong;
  wrong.verdict = "PASS";
  // (with the verdict's own sentence: which threads race where)
  const std::string why = check_expect(wrong, *p.session().data(), p.session().sel);
  EXPECT_EQ(why.rfind("verdict RACE (thread ", 0), 0u) << why;
  EXPECT_NE(why.find("no __syncthreads() between (the result came out right this time)), expected PASS"), std::string::npos)
      << why;
}

// A line that no instruction of the warp is on: the step says so (the viewer goes on).
TEST(LessonPlayer, ALineWithoutAnInstructionIsSaid) {
  LessonLoad l = parse("[[step]]\nvariant = \"3\"\nn = 1024\nselect = { line = \"no such text\" }\n");
  ASSERT_TRUE(l.ok()) << l.error;
  LessonPlayer p(l.lesson);
  p.go(0, true);
  ASSERT_TRUE(p.wait_ready());
  EXPECT_EQ(p.error(), "no instruction of warp 0 in block 0 at a line containing 'no such text'");
}

// Moving on to a step run ahead is immediate: its data is there before the first poll.
TEST(LessonPlayer, TheNextStepIsRunAhead) {
  LessonLoad l = parse("[[step]]\nvariant = \"1\"\nn = 2048\n[[step]]\nvariant = \"2\"\nn = 2048\n");
  ASSERT_TRUE(l.ok()) << l.error;
  LessonPlayer p(l.lesson);
  p.go(0, true);
  ASSERT_TRUE(p.wait_ready());
  // Give the prefetcher time to run step 2.
  for (int i = 0; i < 500; ++i) {
    p.go(1);
    if (p.session().data() && p.session().data()->resolved.variant == "2") break;
    p.go(0);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(p.session().data());
  EXPECT_EQ(p.session().data()->resolved.variant, "2");  // shown at once, no run to wait for
  EXPECT_EQ(p.session().last_request().config.variant, "2");
}

// A line with several instructions, in a loop: `access` and `array` pick one of them, and each
// trip of the loop is a pass of its own. transpose "rows" runs 32 x 8 threads over a 32 x 32
// tile, so warp 0 (threadIdx.y = 0) copies rows 0, 8, 16, 24: four trips; the padded tile's
// column read, tile[tx * 33 + j], has stride 33 words: 32 lanes on 32 banks, one wavefront.
TEST(LessonPlayer, AccessArrayAndTripsPickOneInstructionOfALine) {
  LessonLoad l = parse(R"(
[[step]]
kernel = "transpose"
variant = "rows"
select = { warp = 0, line = "out[(y + j) * rows + x] = tile[", access = "load", array = "tile", occurrence = 3 }
expect = { wavefronts = 1, active_lanes = 32 }
[[step]]
kernel = "transpose"
variant = "rows"
select = { warp = 0, line = "out[(y + j) * rows + x] = tile[", access = "load", occurrence = 4 }
[[step]]
kernel = "transpose"
variant = "rows"
select = { warp = 0, line = "= in[(y + j) * cols + x]", array = "input" }
)");
  ASSERT_TRUE(l.ok()) << l.error;
  LessonPlayer p(l.lesson);
  p.go(0, true);
  ASSERT_TRUE(p.wait_ready());
  ASSERT_EQ(p.error(), "");
  const ws::Trace& t = *p.session().trace();
  const ws::Event& e = t.events.at(size_t(p.session().sel.event));
  EXPECT_EQ(e.kind, ws::AccessKind::Load);
  EXPECT_EQ(t.allocations.at(e.alloc).name, "tile");
  EXPECT_EQ(check_expect(l.lesson.steps[0].expect, *p.session().data(), p.session().sel), "");
  // The fourth trip is the last one: the four loads of that line are issued in order, and the
  // selected one is the last of them.
  size_t later = 0;
  for (size_t i = size_t(p.session().sel.event) + 1; i < t.events.size(); ++i)
    if (t.events[i].block == 0 && t.events[i].warp == 0 && t.events[i].site == e.site) ++later;
  EXPECT_EQ(later, 0u);
  p.go(1, true);
  ASSERT_TRUE(p.wait_ready());
  EXPECT_EQ(p.error(), "warp 0 passes a line containing 'out[(y + j) * rows + x] = tile[' (load) 4 times: occurrence 4 "
                       "does not exist (0 to 3)");
  p.go(2, true);
  ASSERT_TRUE(p.wait_ready());
  EXPECT_EQ(p.error(), "the kernel has no array 'input' (its arrays: in, out, tile)");
}

// A comparison's own select replaces the step's (its launch may have fewer launches); without
// one, the step's selection is used.
TEST(LessonFile, AComparisonsSelectReplacesTheSteps) {
  const LessonLoad l = parse(R"(
[[step]]
variant = "2"
select = { launch = 1, warp = 3, line = "sdata[index]" }
compare = { variant = "3", select = { warp = 1 } }
[[step]]
variant = "2"
select = { warp = 3, line = "sdata[index]" }
compare = { variant = "3" }
)");
  ASSERT_TRUE(l.ok()) << l.error;
  const LessonSelect& own = l.lesson.steps[0].compare->select;
  EXPECT_EQ(own.launch, 0u);
  EXPECT_EQ(own.warp, 1u);
  EXPECT_EQ(own.line_text, "");
  const LessonSelect& inherited = l.lesson.steps[1].compare->select;
  EXPECT_EQ(inherited.warp, 3u);
  EXPECT_EQ(inherited.line_text, "sdata[index]");
}

// A step starts from its own selection: a lane outlined by an earlier step (a hazard's) is gone.
TEST(LessonPlayer, AStepDoesNotKeepTheLaneOfTheStepBefore) {
  LessonLoad l = parse(R"(
[[step]]
kernel = "race"
variant = "0"
select = { hazard = 0 }
[[step]]
kernel = "race"
variant = "0"
select = { warp = 0 }
)");
  ASSERT_TRUE(l.ok()) << l.error;
  LessonPlayer p(l.lesson);
  p.go(0, true);
  ASSERT_TRUE(p.wait_ready());
  ASSERT_TRUE(p.session().hazard_pair.valid());
  ASSERT_GE(p.session().sel.lane, 0);
  p.next();
  ASSERT_TRUE(p.wait_ready());
  EXPECT_EQ(p.session().sel.lane, -1);
  EXPECT_FALSE(p.session().hazard_pair.valid());
}

// The lesson documentation lists every option of every view the registry has.
TEST(LessonDocs, ListEveryViewOption) {
  std::ifstream in(std::string(WS_DOCS_DIR) + "/lessons.md");
  ASSERT_TRUE(in) << WS_DOCS_DIR "/lessons.md";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const ViewType& t : view_types()) {
    // Its row in the views table: a line "| `id` ..." or "| `other` (...), `id` |".
    std::string line;
    for (size_t at = 0; at < doc.size() && line.empty();) {
      const size_t end = std::min(doc.find('\n', at), doc.size());
      const std::string l = doc.substr(at, end - at);
      const size_t cell = l.find(" | ", 2);
      if (l.rfind("| `", 0) == 0 && cell != std::string::npos && l.substr(0, cell).find("`" + std::string(t.id) + "`") != std::string::npos)
        line = l;
      at = end + 1;
    }
    ASSERT_FALSE(line.empty()) << t.id << " has no row in docs/lessons.md";
    for (const ViewOption& o : t.options)
      EXPECT_NE(line.find("`" + std::string(o.key)), std::string::npos) << t.id << ": option " << o.key << " is not documented";
  }
}

// Opening a damaged lesson in the viewer says where and why, and the lesson open stays.
TEST(LessonFile, ADamagedLessonLeavesTheOpenOneInPlace) {
  const fs::path dir = fs::temp_directory_path() / ("ws-lesson-open-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ASSERT_EQ(ws::write_file_atomic(dir / "good.toml", "title = \"Good\"\n[[step]]\nvariant = \"3\"\nn = 1024\n"), "");
  ASSERT_EQ(ws::write_file_atomic(dir / "bad.toml", "title = \"Bad\"\n[[step]]\nvariant = \"3\"\nflavour = 1\n"), "");
  ShellState s;
  ASSERT_EQ(open_lesson(s, dir / "good.toml"), "");
  ASSERT_TRUE(s.lesson);
  const std::string err = open_lesson(s, dir / "bad.toml");
  EXPECT_NE(err.find("bad.toml:4:1"), std::string::npos) << err;
  EXPECT_NE(err.find("flavour"), std::string::npos) << err;
  ASSERT_TRUE(s.lesson);
  EXPECT_EQ(s.lesson->lesson().title, "Good");
  EXPECT_TRUE(s.lesson_mode);
  fs::remove_all(dir);
}

// Playback from a step: cursor = N leaves the block's first N instructions issued, the Nth selected.
TEST(LessonPlayer, ACursorPlaysTheBlockBackToThatInstruction) {
  LessonLoad l = parse("[[step]]\nvariant = \"3\"\nn = 2048\nselect = { block = 1, cursor = 10 }\n");
  ASSERT_TRUE(l.ok()) << l.error;
  LessonPlayer p(l.lesson);
  p.go(0, true);
  ASSERT_TRUE(p.wait_ready());
  ASSERT_EQ(p.error(), "");
  const Session& s = p.session();
  EXPECT_EQ(s.sel.cursor, 10);
  // The tenth instruction of block 1, counted here in the trace's order.
  const ws::Trace& t = *s.trace();
  int64_t tenth = -1, seen = 0;
  for (size_t i = 0; i < t.events.size() && tenth < 0; ++i)
    if (t.events[i].block == 1 && ++seen == 10) tenth = int64_t(i);
  EXPECT_EQ(s.sel.event, tenth);
  EXPECT_EQ(p.current_as_step().select.cursor, 10);
}

// A step's kernel may be a kernel file (file = "...", beside the lesson): built as the lesson is
// read; one that does not build is the lesson's error, at its line.
TEST(Lessons, AStepsKernelMayBeAKernelFile) {
  const std::string dir = WS_EXAMPLES_DIR;
  const LessonTrust trusted{true, true};
  LessonLoad ok = parse_lesson("[[step]]\nfile = \"" + dir + "/saxpy.cu\"\n[[step]]\nfile = \"" + dir +
                                   "/transpose.cu\"\nvariant = \"padded\"\n",
                               "/tmp/lesson.toml", trusted);
  ASSERT_TRUE(ok.ok()) << ok.error;
  ASSERT_EQ(ok.lesson.steps.size(), 2u);
  EXPECT_EQ(ok.lesson.steps[0].launch.kernel, "saxpy");
  EXPECT_EQ(ws::Catalog::instance().find(ok.lesson.steps[1].launch.kernel)->spec.file, dir + "/transpose.cu");
  LessonLoad bad = parse_lesson("[[step]]\ntitle = \"x\"\nfile = \"nothere.cu\"\n", "/tmp/lesson.toml", trusted);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("/tmp/lesson.toml:3:"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("kernel file nothere.cu does not build"), std::string::npos) << bad.error;
  LessonLoad both = parse_lesson("[[step]]\nkernel = \"reduce\"\nfile = \"x.cu\"\n", "/tmp/lesson.toml");
  EXPECT_NE(both.error.find("either kernel"), std::string::npos) << both.error;
}

namespace {

// A folder with a lesson whose one step is a kernel file that leaves a marker when its code runs
// (a static initialiser: it runs the moment the file is loaded), and another file outside it.
struct MailedLesson {
  // (a folder of its own each time: a file the catalog already built would not run again)
  static inline int made = 0;
  fs::path dir = fs::temp_directory_path() / ("ws_mailed_" + std::to_string(::getpid()) + "_" + std::to_string(made++));
  fs::path lesson = dir / "lesson" / "lesson.toml", marker = dir / "RAN", kernel = dir / "lesson" / "k" / "marker.cu";
  MailedLesson() {
    fs::remove_all(dir);
    fs::create_directories(kernel.parent_path());
    std::ofstream(kernel) << "#include \"ws/kernel.cuh\"\n#include <fstream>\n"
                          << "static const bool ran = [] { std::ofstream(\"" << marker.string()
                          << "\") << 1; return true; }();\n"
                          << "__global__ void noop(ws::global_array<int> out) { out[threadIdx.x] = 1; }\n"
                          << "/* warpscope\nkernel = \"noop\"\nn = 32\nblock = 32\nargs = [\"out\"]\n"
                          << "[arrays.out]\ntype = \"int\"\nsize = \"n\"\nexpect = \"1\"\n*/\n";
    std::ofstream(lesson) << "title = \"Mailed to you\"\n[[step]]\ntitle = \"catalog\"\nkernel = \"reduce\"\n"
                          << "[[step]]\ntitle = \"a file\"\nfile = \"k/marker.cu\"\n"
                          << "select = { warp = 0, line = \"out[threadIdx.x] = 1\" }\n";
  }
  ~MailedLesson() { fs::remove_all(dir); }
};

}  // namespace

// Opening a lesson someone sent runs nothing: its kernel file is listed, not built; the step says
// it is not trusted and the player is ready without running it. Trusted, the file builds and its
// code runs.
TEST(LessonTrust, OpeningAnUntrustedLessonRunsNothing) {
  MailedLesson m;
  LessonLoad l = load_lesson(m.lesson);
  ASSERT_TRUE(l.ok()) << l.error;
  ASSERT_EQ(l.untrusted_files.size(), 1u);
  EXPECT_EQ(l.untrusted_files[0], fs::weakly_canonical(m.kernel));
  EXPECT_EQ(l.lesson.steps[1].launch.kernel, "");
  EXPECT_FALSE(fs::exists(m.marker)) << "reading the lesson ran its kernel file's code";
  EXPECT_NE(untrusted_message(l, m.lesson).find("--trust"), std::string::npos);
  LessonPlayer p(l.lesson);
  p.go(1, true);
  EXPECT_TRUE(p.wait_ready(std::chrono::seconds(5)));
  EXPECT_NE(p.error().find("is not trusted"), std::string::npos) << p.error();
  EXPECT_FALSE(fs::exists(m.marker)) << "showing the step ran its kernel file's code";
  p.go(0, true);  // the catalog step runs as ever
  ASSERT_TRUE(p.wait_ready());
  EXPECT_EQ(p.error(), "");

  LessonLoad trusted = load_lesson(m.lesson, {true, false});
  ASSERT_TRUE(trusted.ok()) << trusted.error;
  EXPECT_TRUE(trusted.untrusted_files.empty());
  EXPECT_EQ(trusted.lesson.steps[1].launch.kernel, "marker");
  EXPECT_TRUE(fs::exists(m.marker));
}

// Ctrl+S on a kernel file's step saves the file (relative to the lesson), not the kernel's name,
// which exists only once the file is built: the saved step loads again, trusted or not.
TEST(LessonTrust, SavingAKernelFilesStepNamesItsFile) {
  MailedLesson m;
  LessonLoad trusted = load_lesson(m.lesson, {true, false});
  ASSERT_TRUE(trusted.ok()) << trusted.error;
  LessonPlayer p(trusted.lesson);
  p.go(1, true);
  ASSERT_TRUE(p.wait_ready());
  ASSERT_EQ(p.error(), "");
  ASSERT_EQ(insert_step(m.lesson, 1, p.current_as_step()), "");
  std::string text, error;
  ASSERT_TRUE(ws::read_file(m.lesson, text, error)) << error;
  EXPECT_NE(text.find("\n[[step]]\ntitle = \"a file\"\nfile = \"k/marker.cu\"\n"), std::string::npos) << text;
  const LessonLoad again = load_lesson(m.lesson);  // (untrusted: the saved step names the same file)
  ASSERT_TRUE(again.ok()) << again.error;
  ASSERT_EQ(again.lesson.steps.size(), 3u);
  EXPECT_EQ(again.lesson.steps[2].launch.file, again.lesson.steps[1].launch.file);
}

// A lesson's files live in its folder: ../ and absolute paths out of it are refused, with where and
// how to allow them.
TEST(LessonTrust, FilesOutsideTheLessonsFolderAreRefused) {
  MailedLesson m;
  const std::string outside = (m.dir / "elsewhere.cu").string();
  std::ofstream(outside) << "// nothing\n";
  for (const std::string& path : {std::string("../elsewhere.cu"), outside, std::string("k/../../elsewhere.cu")}) {
    const LessonLoad l = parse_lesson("[[step]]\nfile = \"" + path + "\"\n", m.lesson.string());
    EXPECT_FALSE(l.ok()) << path;
    EXPECT_NE(l.error.find("is outside the lesson's folder"), std::string::npos) << l.error;
    EXPECT_NE(l.error.find("--trust-outside"), std::string::npos) << l.error;
    const LessonLoad allowed = parse_lesson("[[step]]\nfile = \"" + path + "\"\n", m.lesson.string(), {false, true});
    EXPECT_TRUE(allowed.ok()) << allowed.error;
    EXPECT_EQ(allowed.untrusted_files.size(), 1u);
  }
  EXPECT_FALSE(fs::exists(m.marker));
}

// The viewer asks before a lesson's kernel files run: opening it shows the prompt with the files,
// trusting the folder runs them and remembers the folder; another lesson there is not asked again.
TEST(LessonTrust, TheViewerAsksOncePerFolder) {
  MailedLesson m;
  ShellState s;
  ASSERT_EQ(open_lesson(s, m.lesson), "");
  ASSERT_TRUE(s.trust_prompt);
  EXPECT_EQ(s.trust_prompt->files.size(), 1u);
  EXPECT_FALSE(s.lesson_trusted);
  EXPECT_FALSE(fs::exists(m.marker));
  // The prompt's "Trust": the folder goes into the settings and the lesson opens trusted.
  s.settings.trusted_folders.insert(fs::weakly_canonical(m.lesson).parent_path().string());
  s.trust_prompt.reset();
  ASSERT_EQ(open_lesson(s, m.lesson), "");
  EXPECT_FALSE(s.trust_prompt);
  EXPECT_TRUE(s.lesson_trusted);
  EXPECT_TRUE(fs::exists(m.marker));
  const Settings back = parse_settings(format_settings(s.settings));
  EXPECT_EQ(back.trusted_folders, s.settings.trusted_folders);
}

// The lessons that ship with warpscope are trusted: their kernel files build when they are read.
TEST(LessonTrust, ShippedLessonsAreTrusted) {
  const auto files = shipped_lessons();
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    EXPECT_TRUE(is_shipped_lesson(f)) << f;
    const LessonLoad l = load_lesson(f);
    ASSERT_TRUE(l.ok()) << l.error;
    EXPECT_TRUE(l.untrusted_files.empty()) << f;
  }
  EXPECT_FALSE(is_shipped_lesson("/tmp/lesson.toml"));
}
