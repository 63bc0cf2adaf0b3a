#include "lessons/graded_record.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <type_traits>

namespace ws::app {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The fields of a record, each once, as JSON pointers: graded_json writes them, graded_from_json
// reads them back. What is computed from them (passed, totals) and the step's words are only written.
template <class File, class Field>
void record_fields(File& f, Field&& field) {
  field("/exercise", f.exercise);
  field("/step", f.step);
  field("/file", f.file);
  field("/starting_file", f.starting_file);
  field("/message", f.graded.message);
  field("/reason", f.graded.reason);
  field("/seconds/build", f.graded.build_seconds);
  field("/seconds/run", f.graded.run_seconds);
  field("/seconds/total", f.seconds);
}

template <class Goal, class Field>
void goal_fields(Goal& r, Field&& field) {
  field("/bound", r.bound_text);
  field("/held", r.held);
  field("/measured", r.measured);
  field("/value", r.value);
  field("/value_text", r.value_text);
  field("/line", r.line);
  field("/source", r.file);
  field("/detail", r.detail);
  field("/skipped", r.skipped);
}

auto writer(json& j) {
  return [&j](const char* pointer, const auto& v) {
    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, fs::path>) j[json::json_pointer(pointer)] = v.string();
    else j[json::json_pointer(pointer)] = v;
  };
}

// (A field that is not there keeps its default: a record of a run that never graded has no goals.)
auto reader(const json& j) {
  return [&j](const char* pointer, auto& v) {
    const json::json_pointer p(pointer);
    if (!j.contains(p)) return;
    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, fs::path>) v = j.at(p).get<std::string>();
    else j.at(p).get_to(v);
  };
}

GradeStatus status_named(const std::string& name) {
  for (GradeStatus s : {GradeStatus::Graded, GradeStatus::DoesNotBuild, GradeStatus::TimedOut, GradeStatus::Crashed})
    if (name == to_string(s)) return s;
  return GradeStatus::Error;
}

// How a file that was not graded ended, in the words both reports use.
const char* not_graded_words(GradeStatus s) {
  return s == GradeStatus::DoesNotBuild ? "does not build" : s == GradeStatus::TimedOut ? "did not finish"
         : s == GradeStatus::Crashed                       ? "crashed"
                                                           : "could not be graded";
}

json record(const GradedFile& f, const LessonStep& step) {
  json out = json::object();
  record_fields(f, writer(out));
  const Graded& g = f.graded;
  out["title"] = step.title;
  out["status"] = to_string(g.status);
  out["passed"] = g.all_held();
  out["goals_held"] = g.held();
  out["goals_total"] = step.goals.size();
  out["goals"] = json::array();
  for (size_t i = 0; i < g.goals.size() && i < step.goals.size(); ++i) {
    json goal = {{"metric", grading::info(step.goals[i].metric).name}, {"says", step.goals[i].says}};
    goal_fields(g.goals[i], writer(goal));
    out["goals"].push_back(std::move(goal));
  }
  return out;
}

std::string dumped(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string graded_json(const GradedFile& f, const LessonStep& step) { return dumped(record(f, step)); }

std::string graded_json(std::span<const GradedFile> files, const LessonStep& step) {
  json all = json::array();
  for (const GradedFile& f : files) all.push_back(record(f, step));
  return dumped(all);
}

bool graded_from_json(const std::string& text, GradedFile& out, std::string& error) {
  try {
    const json j = json::parse(text);
    if (!j.is_object() || !j.contains("status")) return error = "not a graded file's record (no status)", false;
    out = GradedFile{};
    record_fields(out, reader(j));
    out.graded.status = status_named(j.at("status").get<std::string>());
    if (j.contains("goals"))
      for (const json& goal : j.at("goals")) goal_fields(out.graded.goals.emplace_back(), reader(goal));
    return true;
  } catch (const json::exception& e) {
    return error = std::string("the record does not read: ") + e.what(), false;
  }
}

std::string graded_text(const GradedFile& f, const LessonStep& step) {
  const Graded& g = f.graded;
  std::string s = step.title + " — " + f.file.string() + (f.starting_file ? " (the exercise's starting file)" : "") + "\n";
  if (g.status != GradeStatus::Graded)
    return s + "  " + not_graded_words(g.status) + ": " + g.message + "\n";  // (the whole story: one student reads it)
  for (size_t i = 0; i < g.goals.size() && i < step.goals.size(); ++i) {
    const grading::GoalResult& r = g.goals[i];
    s += std::string("  ") + (r.skipped ? "– " : r.held ? "✓ " : "✗ ") + step.goals[i].says + " (" +
         grading::info(step.goals[i].metric).name + " " + r.bound_text + "): " + r.value_text + "\n";
    if ((!r.held || step.goals[i].metric == grading::Metric::GpuTime) && !r.detail.empty()) s += "      " + r.detail + "\n";
  }
  char tail[200];
  std::snprintf(tail, sizeof tail, "  %zu of %zu goals hold%s%s (built in %.1f s, ran in %.2f s)\n", g.held(), g.goals.size() - g.skipped(),
                g.skipped() ? (", " + std::to_string(g.skipped()) + " not graded here").c_str() : "",
                g.all_held() ? ": done" : "", g.build_seconds, g.run_seconds);
  return s + tail;
}

std::string graded_line(const GradedFile& f, const LessonStep& step) {
  const Graded& g = f.graded;
  std::string what;
  if (g.status == GradeStatus::Graded) {
    what = std::to_string(g.held()) + "/" + std::to_string(step.goals.size() - g.skipped()) + " goals";
    if (g.skipped()) what += " (" + std::to_string(g.skipped()) + " not graded here: no GPU)";
    if (g.all_held()) what += "  PASS";
    for (size_t i = 0; i < g.goals.size() && i < step.goals.size(); ++i) {
      const grading::GoalResult& r = g.goals[i];
      if (r.held) continue;
      what += std::string("  ✗ ") + grading::info(step.goals[i].metric).name + " " + r.bound_text + ": " + r.value_text;
      if (r.line > 0) what += " (line " + std::to_string(r.line) + ")";
    }
  } else {
    what = std::string(not_graded_words(g.status)) + ": " + (g.reason.empty() ? g.message : g.reason);
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f s", f.seconds);
  return f.file.filename().string() + "  " + what + "  " + secs;
}

}  // namespace ws::app
