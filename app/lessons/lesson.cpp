// [SECTION] Reading values: strings, whole numbers, block shapes, with their place in the file
// [SECTION] A launch (kernel, variant, n, block ... compare's keys too)
// [SECTION] A step: select, views, layout, compare
// [SECTION] The file: title, defaults, steps; checking what it names
// [SECTION] Writing a step back (Ctrl+S), the shipped lessons
#include "lessons/lesson.h"

#include "model/session.h"
#include "model/selection.h"
#include "views/view.h"

#include "ws/analysis/verdict.h"
#include "ws/kernel_file/build.h"
#include "ws/run/catalog.h"
#include "ws/util/atomic_file.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <sstream>

namespace ws::app {

namespace {

// =================================================================================================
// [SECTION] Reading values: strings, whole numbers, block shapes, with their place in the file
// =================================================================================================

// An error at a node's place: "FILE:LINE:COL: step 3: what".
struct Failure {
  std::string message;
};

struct Reader {
  std::string file;
  std::string context;  // "step 3: " while a step is read
  LessonTrust trust = {};
  std::vector<std::filesystem::path>* untrusted = nullptr;  // kernel files not built (untrusted)

  [[noreturn]] void fail(const toml::node& at, const std::string& what) const { fail(at.source(), what); }
  [[noreturn]] void fail(const toml::source_region& where, const std::string& what) const {
    throw Failure{file + ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column) + ": " +
                  context + what};
  }

  std::string string(const toml::node& v, const char* key) const {
    if (const auto* s = v.as_string()) return s->get();
    fail(v, std::string(key) + " must be text in quotes");
  }
  int64_t integer(const toml::node& v, const char* key) const {
    if (const auto* i = v.as_integer()) return i->get();
    fail(v, std::string(key) + " must be a whole number");
  }
  // A launch value given as a number or as text ("65536", 65536): its text, for LaunchText.
  std::string number_text(const toml::node& v, const char* key) const {
    if (const auto* i = v.as_integer()) return std::to_string(i->get());
    if (const auto* s = v.as_string()) return s->get();
    fail(v, std::string(key) + " must be a whole number");
  }
  // A block or grid shape: 256, "16,16" or [16, 16].
  std::string shape_text(const toml::node& v, const char* key) const {
    if (const auto* a = v.as_array()) {
      std::string out;
      for (const toml::node& x : *a) out += (out.empty() ? "" : ",") + number_text(x, key);
      if (a->empty() || a->size() > 3) fail(v, std::string(key) + " has one to three numbers: [x], [x, y] or [x, y, z]");
      return out;
    }
    return number_text(v, key);
  }
};

std::vector<std::string> launch_keys();

// `launch`: a launch's keys are allowed there too (launch_keys(), listed after `allowed`, before `after`).
[[noreturn]] void unknown_key(const Reader& r, const toml::node& at, const std::string& key,
                              std::initializer_list<const char*> allowed, bool launch = false,
                              std::initializer_list<const char*> after = {}) {
  std::string list;
  for (const char* k : allowed) list += (list.empty() ? "" : ", ") + std::string(k);
  if (launch)
    for (const std::string& k : launch_keys()) list += (list.empty() ? "" : ", ") + k;
  for (const char* k : after) list += (list.empty() ? "" : ", ") + std::string(k);
  r.fail(at, "unknown key '" + key + "' (keys here: " + list + ")");
}

// =================================================================================================
// [SECTION] A launch (kernel, variant, n, block ... compare's keys too)
// =================================================================================================

// Applies one launch key to `l`; false when `key` is no launch key.
// file = "kernel.cu": a kernel file (docs/writing-kernels.md), found beside the lesson, built when
// the lesson is read (the build cache makes a second reading quick) and run as its kernel.
std::string kernel_from_file(const Reader& r, const toml::node& v, LessonLaunch& l) {
  namespace fs = std::filesystem;
  const std::string given = r.string(v, "file");
  if (given.empty()) r.fail(v, "file is the path of a kernel file (.cu) beside the lesson");
  const fs::path folder = fs::path(r.file).parent_path();
  fs::path path(given);
  if (path.is_relative()) path = folder / path;
  std::error_code ec;
  path = fs::weakly_canonical(path, ec);
  // Its files live in its folder or below: a lesson mailed to you cannot reach ~/.ssh or /etc.
  const fs::path base = fs::weakly_canonical(folder.empty() ? fs::path(".") : folder, ec);
  const auto [end, at] = std::mismatch(base.begin(), base.end(), path.begin(), path.end());
  if (end != base.end() && !r.trust.outside_ok)
    r.fail(v, "file = \"" + given + "\" is outside the lesson's folder (" + base.string() +
                  "): a lesson's kernel files live in its folder or below (--trust-outside allows others)");
  l.file = path;
  if (!r.trust.run_files) {
    // Not trusted: nothing is built or loaded; the step says so, and trusting the lesson builds it.
    if (r.untrusted && std::find(r.untrusted->begin(), r.untrusted->end(), path) == r.untrusted->end())
      r.untrusted->push_back(path);
    return {};
  }
  std::string error;
  const std::string name = kernel_file::load(path.string(), Catalog::instance(), {}, error);
  if (name.empty()) r.fail(v, "kernel file " + given + " does not build: " + error.substr(0, error.find('\n')));
  return name;
}

// A launch table names its kernel one way.
void kernel_or_file(const Reader& r, const toml::table& t) {
  if (t.contains("kernel") && t.contains("file"))
    r.fail(*t.get("file"), "give either kernel (a catalog kernel) or file (a kernel file), not both");
}

// params = { stride = 8, alpha = 2.5, input = "sorted" }: each NAME=VALUE; one given again
// replaces the inherited one.
void read_params(const Reader& r, const toml::node& v, std::vector<std::string>& params) {
  const toml::table* t = v.as_table();
  if (!t) r.fail(v, "params is a table of numbers or choice names, e.g. params = { stride = 8, alpha = 2.5, input = \"sorted\" }");
  for (auto&& [name, value] : *t) {
    // A number (whole, or real for a real parameter: alpha = 2.5), or the name of one of the
    // parameter's choices (input = "sorted").
    const std::string text = std::string(name.str()) + "=" +
                             (value.is_string()            ? r.string(value, "a parameter")
                              : value.is_floating_point() ? param_text(*value.value<double>())
                                                           : r.number_text(value, "a parameter"));
    std::erase_if(params, [&](const std::string& p) { return p.rfind(std::string(name.str()) + "=", 0) == 0; });
    params.push_back(text);
  }
}

// One launch value, read as its form says (LaunchText's field list, ws/run/launch_text.h).
void read_launch_value(const Reader& r, const toml::node& v, const char* name, std::string& field, LaunchForm form) {
  switch (form) {
    case LaunchForm::Text: field = r.string(v, name); break;
    case LaunchForm::Shape: field = r.shape_text(v, name); break;
    default: field = r.number_text(v, name); break;  // (a word: 3 or "3"; a number: 65536 or "65536")
  }
}

bool read_launch_key(const Reader& r, const std::string& key, const toml::node& v, LessonLaunch& l) {
  if (key == "kernel") l.kernel = r.string(v, "kernel"), l.file.clear();
  else if (key == "file") l.kernel = kernel_from_file(r, v, l);
  else if (key == "backend") {
    const std::string b = r.string(v, "backend");
    if (b == "emu") l.backend = BackendKind::Emu;
    else if (b == "gpu-trace") l.backend = BackendKind::GpuTrace;
    else if (b == "gpu-fast") l.backend = BackendKind::GpuFast;
    else r.fail(v, "backend is emu, gpu-trace or gpu-fast (not '" + b + "')");
  } else {
    bool found = false;
    visit_fields(l.text, [&](const char* name, auto& field, LaunchForm form) {
      if (found || key != name) return;
      found = true;
      if constexpr (std::is_same_v<std::decay_t<decltype(field)>, std::string>) read_launch_value(r, v, name, field, form);
      else read_params(r, v, field);
    });
    return found;
  }
  return true;
}

// The keys of a launch: kernel or file, LaunchText's list, backend.
std::vector<std::string> launch_keys() {
  std::vector<std::string> keys = {"kernel", "file"};
  const LaunchText none;
  visit_fields(none, [&](const char* name, const auto&, LaunchForm) { keys.push_back(name); });
  keys.push_back("backend");
  return keys;
}

// =================================================================================================
// [SECTION] A step: select, views, layout, compare
// =================================================================================================

void read_select(const Reader& r, const toml::node& v, LessonSelect& s) {
  const toml::table* t = v.as_table();
  if (!t) r.fail(v, "select is a table, e.g. select = { warp = 0, line = \"sdata[tid] += sdata[tid + s]\" }");
  for (auto&& [k, x] : *t) {
    const std::string key(k.str());
    auto whole = [&](const char* what, int64_t lo, int64_t hi) {
      const int64_t n = r.integer(x, what);
      if (n < lo || n > hi) r.fail(x, std::string(what) + " is from " + std::to_string(lo) + " to " + std::to_string(hi));
      return n;
    };
    if (key == "launch") s.launch = uint32_t(whole("launch", 0, 1 << 20));
    else if (key == "block") s.block = uint32_t(whole("block", 0, 0xffffffffll));
    else if (key == "warp") s.warp = uint32_t(whole("warp", 0, 31));
    else if (key == "lane") s.lane = int(whole("lane", 0, 31));
    else if (key == "hazard") s.hazard = whole("hazard", 0, 1 << 20);
    else if (key == "cursor") s.cursor = whole("cursor", 0, int64_t(1) << 40);
    else if (key == "nth") s.nth = int(whole("nth", 0, 63));
    else if (key == "line") {
      if (const auto* n = x.as_integer()) {
        if (n->get() < 1) r.fail(x, "line is a line number from 1, or text the line contains");
        s.line_number = uint32_t(n->get());
      } else {
        s.line_text = r.string(x, "line");
        if (s.line_text.empty()) r.fail(x, "line is a line number from 1, or text the line contains (not empty)");
      }
    } else if (key == "occurrence") {
      if (const auto* n = x.as_integer()) {
        if (n->get() < 0) r.fail(x, "occurrence is worst, first, or a number from 0");
        s.occurrence = LessonSelect::Occurrence::Index;
        s.index = uint32_t(n->get());
      } else {
        const std::string o = r.string(x, "occurrence");
        if (o == "worst") s.occurrence = LessonSelect::Occurrence::Worst;
        else if (o == "first") s.occurrence = LessonSelect::Occurrence::First;
        else r.fail(x, "occurrence is worst, first, or a number from 0 (not '" + o + "')");
      }
    } else if (key == "access") {
      s.access = r.string(x, "access");
      if (s.access != "load" && s.access != "store" && s.access != "atomic")
        r.fail(x, "access is load, store or atomic (not '" + s.access + "')");
    } else if (key == "array") {
      s.array = r.string(x, "array");
      if (s.array.empty()) r.fail(x, "array is the name of one of the kernel's arrays (not empty)");
    } else {
      unknown_key(r, x, key,
                  {"launch", "block", "warp", "lane", "line", "access", "array", "nth", "occurrence", "hazard", "cursor"});
    }
  }
}

LessonView read_view(const Reader& r, const toml::node& v) {
  LessonView view;
  if (const auto* s = v.as_string()) {
    view.id = s->get();
  } else if (const toml::table* t = v.as_table()) {
    for (auto&& [k, x] : *t) {
      const std::string key(k.str());
      if (key == "id") view.id = r.string(x, "id");
      else if (const auto* b = x.as_boolean()) view.options.push_back(key + "=" + (b->get() ? "on" : "off"));
      else view.options.push_back(key + "=" + r.string(x, key.c_str()));
    }
    if (view.id.empty()) r.fail(v, "a view table needs its id, e.g. { id = \"timeline\", x = \"clock\" }");
  } else {
    r.fail(v, "a view is its name (\"access-map\") or a table with its options ({ id = \"timeline\", x = \"clock\" })");
  }
  // The name and its options must exist: the same check as --view and --view-option.
  std::string err;
  if (!make_view(view.id, view.options, err).view) r.fail(v, err);
  return view;
}

void read_expect(const Reader& r, const toml::node& v, LessonExpect& e) {
  const toml::table* t = v.as_table();
  if (!t) r.fail(v, "expect is a table, e.g. expect = { wavefronts = 4, conflicts = 3 }");
  for (auto&& [k, x] : *t) {
    const std::string key(k.str());
    auto count = [&]() {
      const int64_t n = r.integer(x, key.c_str());
      if (n < 0) r.fail(x, key + " is a count (0 or more)");
      return uint64_t(n);
    };
    if (key == "wavefronts") e.wavefronts = count();
    else if (key == "conflicts") e.conflicts = count();
    else if (key == "sectors") e.sectors = count();
    else if (key == "lines") e.lines = count();
    else if (key == "active_lanes") e.active_lanes = count();
    else if (key == "same_address") e.same_address = count();
    else if (key == "races") e.races = count();
    else if (key == "lockstep") e.lockstep = count();
    else if (key == "end_to_end_ms") {
      const auto* f = x.as_floating_point();
      const auto* i = x.as_integer();
      if (!f && !i) r.fail(x, "end_to_end_ms is a number of milliseconds, e.g. 21.9");
      e.end_to_end_ms = f ? f->get() : double(i->get());
    } else if (key == "verdict") {
      e.verdict = r.string(x, "verdict");
      static const char* const kWords[] = {"PASS", "RACE", "LOCKSTEP ONLY", "FAIL", "FAULT"};
      if (std::find(std::begin(kWords), std::end(kWords), e.verdict) == std::end(kWords))
        r.fail(x, "verdict is PASS, RACE, LOCKSTEP ONLY, FAIL or FAULT (not '" + e.verdict + "')");
    } else {
      unknown_key(r, x, key,
                  {"wavefronts", "conflicts", "sectors", "lines", "active_lanes", "same_address", "races", "lockstep", "verdict",
                   "end_to_end_ms"});
    }
  }
}

// One [[step.goal]]: metric = "bank_conflicts", array = "sdata", max = 0, says = "...".
grading::Goal read_goal(const Reader& r, const toml::table& t) {
  grading::Goal g;
  const toml::node* metric = t.get("metric");
  if (!metric) r.fail(t.source(), "a goal names its metric (metric = \"bank_conflicts\"; metrics: " + grading::metric_names() + ")");
  const std::string name = r.string(*metric, "metric");
  const std::optional<grading::Metric> m = grading::metric_named(name);
  if (!m) r.fail(*metric, "no metric named '" + name + "' (metrics: " + grading::metric_names() + ")");
  g.metric = *m;
  const grading::MetricInfo& info = grading::info(g.metric);
  for (auto&& [k, x] : t) {
    const std::string key(k.str());
    auto bound = [&]() {
      const auto* f = x.as_floating_point();
      const auto* i = x.as_integer();
      if (!f && !i) r.fail(x, key + " is a number");
      const double v = f ? f->get() : double(i->get());
      if (v < 0 || (info.percent && v > 100)) r.fail(x, key + " of " + name + (info.percent ? " is a percentage, 0 to 100" : " is 0 or more"));
      return v;
    };
    const bool scope_key = key == "array" || key == "line" || key == "access";
    if (scope_key && !info.scoped) r.fail(x, name + " is about the whole run: array, line and access do not apply");
    if ((key == "of" || key == "n") && !info.gpu) r.fail(x, key + " applies to gpu_time goals only");
    if (key == "min" && info.gpu) r.fail(x, "a gpu_time goal is a most: max = K (times the ceiling's time)");
    if ((key == "max" || key == "min") && g.metric == grading::Metric::Result)
      r.fail(x, "the result goal has no bound: it holds when the run's check passes");
    if (key == "metric") continue;
    if (key == "max") g.max = bound();
    else if (key == "min") g.min = bound();
    else if (key == "says") g.says = r.string(x, "says");
    else if (key == "of") {
      g.of = r.string(x, "of");
      if (g.of != "copy" && g.of != "read") r.fail(x, "of is copy or read (the ceiling the time is held against; not '" + g.of + "')");
    } else if (key == "n") {
      const auto* i = x.as_integer();
      if (!i || i->get() <= 0) r.fail(x, "n is the size timed on the GPU, a whole number above 0");
      g.n = uint64_t(i->get());
    }
    else if (key == "array") g.scope.array = r.string(x, "array");
    else if (key == "line") {
      if (const auto* i = x.as_integer(); i && i->get() > 0) g.scope.line_number = uint32_t(i->get());
      else g.scope.line_text = r.string(x, "line (text on the line, or its number)");
      if (g.scope.line_number == 0 && g.scope.line_text.empty()) r.fail(x, "line is text on the line or its number");
    } else if (key == "access") {
      g.scope.access = r.string(x, "access");
      if (g.scope.access != "load" && g.scope.access != "store" && g.scope.access != "atomic")
        r.fail(x, "access is load, store or atomic (not '" + g.scope.access + "')");
    } else {
      unknown_key(r, x, key, {"metric", "max", "min", "array", "line", "access", "says", "of", "n"});
    }
  }
  if (g.metric != grading::Metric::Result && !g.max && !g.min)
    r.fail(t.source(), "the goal on " + name + " needs a bound: max = N or min = N");
  if (info.gpu && g.max && *g.max <= 0) r.fail(t.source(), "a gpu_time goal's max is above 0 (times the ceiling's time)");
  if (g.says.empty()) g.says = std::string(info.what) + " " + grading::bound_text(g);
  return g;
}

void read_goals(const Reader& r, const toml::node& v, LessonStep& step) {
  const toml::array* a = v.as_array();
  if (!a || !a->is_array_of_tables()) r.fail(v, "goals are [[step.goal]] tables (metric = ..., max = ...)");
  for (const toml::node& x : *a) step.goals.push_back(read_goal(r, *x.as_table()));
}

void read_hints(const Reader& r, const toml::node& v, LessonStep& step) {
  const toml::array* a = v.as_array();
  if (!a) r.fail(v, "hints is a list of text, shown one at a time: hints = [\"first\", \"second\"]");
  for (const toml::node& x : *a) step.hints.push_back(r.string(x, "a hint"));
}

LessonLayout read_layout(const Reader& r, const toml::node& v) {
  const std::string l = r.string(v, "layout");
  if (l == "row") return LessonLayout::Row;
  if (l == "column") return LessonLayout::Column;
  if (l == "grid") return LessonLayout::Grid;
  r.fail(v, "layout is row (side by side), column (one under another) or grid (2 x 2), not '" + l + "'");
}

void read_compare(const Reader& r, const toml::node& v, LessonStep& step) {
  const toml::table* t = v.as_table();
  if (!t) r.fail(v, "compare is a table: the keys of the second launch that differ, and its caption");
  LessonCompare c;
  // The step's launch, changed by the keys given here; the step's selection unless the comparison
  // gives its own (whole: its launch may have other launches, warps and lines).
  c.launch = step.launch;
  c.select = step.select;
  kernel_or_file(r, *t);
  for (auto&& [k, x] : *t) {
    const std::string key(k.str());
    if (read_launch_key(r, key, x, c.launch)) continue;
    if (key == "caption") c.caption = r.string(x, "caption");
    else if (key == "select") c.select = LessonSelect{}, read_select(r, x, c.select);
    else if (key == "expect") read_expect(r, x, c.expect);
    else if (key == "first_caption") c.first_caption = r.string(x, "first_caption");
    else if (key == "layout") c.layout = read_layout(r, x);
    else unknown_key(r, x, key, {}, true, {"select", "expect", "caption", "first_caption", "layout"});
  }
  step.compare = std::move(c);
}

// Reads a step table over `step` (which holds the defaults). The compare table is read last, so
// that it starts from the step's own launch.
void read_step(const Reader& r, const toml::table& t, LessonStep& step) {
  const toml::node* compare = nullptr;
  bool views_given = false;
  kernel_or_file(r, t);
  for (auto&& [k, x] : t) {
    const std::string key(k.str());
    if (read_launch_key(r, key, x, step.launch)) continue;
    if (key == "title") step.title = r.string(x, "title");
    else if (key == "caption") step.caption = r.string(x, "caption");
    else if (key == "gpu_caption") step.gpu_caption = r.string(x, "gpu_caption");
    else if (key == "select") read_select(r, x, step.select);
    else if (key == "expect") read_expect(r, x, step.expect);
    else if (key == "layout") step.layout = read_layout(r, x);
    else if (key == "compare") compare = &x;
    else if (key == "goal") read_goals(r, x, step);
    else if (key == "hints") read_hints(r, x, step);
    else if (key == "views") {
      const toml::array* a = x.as_array();
      if (!a) r.fail(x, "views is a list: views = [\"access-map\", { id = \"timeline\", x = \"clock\" }]");
      if (a->empty() || a->size() > 4) r.fail(x, "a step shows one to four views");
      step.views.clear();
      for (const toml::node& v : *a) step.views.push_back(read_view(r, v));
      views_given = true;
    } else {
      unknown_key(r, x, key,
                  {"title", "caption", "gpu_caption"}, true, {"select", "views", "layout", "compare", "expect", "goal", "hints"});
    }
  }
  (void)views_given;
  if (compare) read_compare(r, *compare, step);
}

// The step's launches must be ones the catalog runs (kernel, variant, values within its rules).
void check_launch(const Reader& r, const toml::source_region& at, const LessonLaunch& l, const char* which) {
  if (l.kernel.empty() && !l.file.empty()) return;  // a kernel file not built (untrusted): checked once trusted
  RunRequest req;
  req.kernel = l.kernel;
  if (std::string err = apply_launch_text(l.text, req.config); !err.empty()) r.fail(at, std::string(which) + err);
  const Catalog& cat = Catalog::instance();
  const CatalogEntry* e = cat.find(l.kernel);
  if (!e) r.fail(at, std::string(which) + cat.run(l.kernel, req.config, l.backend).refused);
  if (std::string err = cat.resolve(*e, req.config); !err.empty()) r.fail(at, std::string(which) + err);
}

// =================================================================================================
// [SECTION] The file: title, defaults, steps; checking what it names
// =================================================================================================

Lesson read_lesson(const toml::table& root, const std::string& name, LessonTrust trust,
                   std::vector<std::filesystem::path>& untrusted) {
  Reader r{name, ""};
  r.trust = trust;
  r.untrusted = &untrusted;
  Lesson lesson;
  LessonStep defaults;
  defaults.views = {LessonView{"warp-access-map", {}}};
  const toml::node* steps = nullptr;
  for (auto&& [k, x] : root) {
    const std::string key(k.str());
    if (key == "title") lesson.title = r.string(x, "title");
    else if (key == "description") lesson.description = r.string(x, "description");
    else if (key == "defaults") {
      const toml::table* t = x.as_table();
      if (!t) r.fail(x, "[defaults] is a table of step keys that every step starts from");
      r.context = "[defaults]: ";
      read_step(r, *t, defaults);
      if (defaults.compare) r.fail(x, "compare belongs to a step, not to [defaults]");
      if (defaults.is_exercise() || !defaults.hints.empty()) r.fail(x, "goals and hints belong to a step, not to [defaults]");
      r.context.clear();
    } else if (key == "step") {
      steps = &x;
    } else {
      unknown_key(r, x, key, {"title", "description", "defaults", "step"});
    }
  }
  if (!steps) r.fail(root.source(), "the lesson has no steps: add [[step]] tables");
  const toml::array* a = steps->as_array();
  if (!a || !a->is_array_of_tables()) r.fail(*steps, "steps are written as [[step]] tables");
  if (a->empty()) r.fail(*steps, "the lesson has no steps");
  for (size_t i = 0; i < a->size(); ++i) {
    const toml::table& t = *a->at(i).as_table();
    r.context = "step " + std::to_string(i + 1) + ": ";
    LessonStep step = defaults;
    step.title.clear();
    step.caption.clear();
    step.expect = {};
    step.place = {uint32_t(t.source().begin.line), uint32_t(t.source().begin.column)};
    step.goals.clear();
    step.hints.clear();
    read_step(r, t, step);
    if (step.title.empty()) step.title = "Step " + std::to_string(i + 1);
    if (!step.hints.empty() && step.goals.empty())
      r.fail(t.source(), "hints belong to an exercise step: give it goals ([[step.goal]])");
    if (step.is_exercise() && step.launch.file.empty())
      r.fail(t.source(), "an exercise step names the kernel file the student edits (file = \"start.cu\")");
    check_launch(r, t.source(), step.launch, "");
    if (step.compare) check_launch(r, t.source(), step.compare->launch, "compare: ");
    lesson.steps.push_back(std::move(step));
  }
  return lesson;
}

}  // namespace

LessonLoad parse_lesson(const std::string& text, const std::string& name, LessonTrust trust) {
  LessonLoad out;
  try {
    const toml::table root = toml::parse(text, name);
    out.lesson = read_lesson(root, name, trust, out.untrusted_files);
    std::sort(out.untrusted_files.begin(), out.untrusted_files.end());
    if (out.lesson.title.empty()) {
      const std::filesystem::path p(name);
      out.lesson.title = p.stem().string();
    }
  } catch (const toml::parse_error& e) {
    out.error = name + ":" + std::to_string(e.source().begin.line) + ":" + std::to_string(e.source().begin.column) +
                ": " + std::string(e.description());
  } catch (const Failure& f) {
    out.error = f.message;
  }
  if (!out.ok()) out.lesson = Lesson{};
  return out;
}

LessonLoad load_lesson(const std::filesystem::path& file, LessonTrust trust) {
  std::string text, err;
  if (!read_file(file, text, err)) return LessonLoad{{}, err, {}};
  if (is_shipped_lesson(file)) trust = {true, true};  // installed with warpscope: trusted
  LessonLoad l = parse_lesson(text, file.string(), trust);
  l.lesson.file = file;
  return l;
}

std::string untrusted_message(const LessonLoad& l, const std::filesystem::path& file) {
  if (l.untrusted_files.empty()) return {};
  std::string list;
  for (const auto& f : l.untrusted_files) list += (list.empty() ? "" : ", ") + f.string();
  return file.string() + " builds and runs code: its steps' kernel files " + list +
         ". Read them; then pass --trust to build and run them (warpscope runs a lesson's code only when asked)";
}

bool is_shipped_lesson(const std::filesystem::path& file) {
  std::error_code ec;
  const auto me = std::filesystem::weakly_canonical(file, ec);
  for (const auto& p : shipped_lessons())
    if (std::filesystem::weakly_canonical(p, ec) == me) return true;
  return false;
}

std::string check_expect(const LessonExpect& e, const SessionData& d, const Selection& sel) {
  std::string out;
  auto differ = [&](const char* what, const std::optional<uint64_t>& want, uint64_t got) {
    if (want && *want != got)
      out += std::string(out.empty() ? "" : "; ") + what + " " + std::to_string(got) + ", expected " + std::to_string(*want);
  };
  const analysis::RunVerdict v = analysis::verdict(d.result.completed, d.result.passed, d.reports, d.result.errors);
  if (!e.verdict.empty() && e.verdict != v.word)
    out += std::string(out.empty() ? "" : "; ") + "verdict " + v.word + (v.sentence.empty() ? "" : " (" + v.sentence + ")") +
           ", expected " + e.verdict;
  differ("racing pairs", e.races, v.races);
  differ("lockstep-only pairs", e.lockstep, v.lockstep);
  const bool wants_instruction = e.wavefronts || e.conflicts || e.sectors || e.lines || e.active_lanes || e.same_address;
  if (wants_instruction) {
    const Trace* t = sel.launch < d.result.launches.size() ? &d.result.launches[sel.launch] : nullptr;
    if (!t || sel.event < 0 || size_t(sel.event) >= t->events.size()) {
      out += std::string(out.empty() ? "" : "; ") + "no instruction is selected";
    } else {
      const analysis::InstructionMetrics m = analysis::metrics_of(*t, t->events[size_t(sel.event)]);
      differ("wavefronts", e.wavefronts, m.shared.wavefronts);
      differ("bank conflicts", e.conflicts, m.shared.conflicts);
      differ("sectors", e.sectors, m.global.sectors);
      differ("lines", e.lines, m.global.lines);
      differ("active lanes", e.active_lanes, m.active_lanes);
      differ("lanes on one address", e.same_address, m.kind == AccessKind::Atomic ? m.atomic.max_same_address : 0);
    }
  }
  return out;
}

RunRequest lesson_request(const LessonLaunch& launch) {
  RunRequest req;
  req.kernel = launch.kernel;
  req.backend = launch.backend;
  // The blocks the pictures look at are recorded in full; every block is still counted.
  req.config.record.blocks = {0, 1, 2, 3};
  (void)apply_launch_text(launch.text, req.config);  // checked when the lesson loaded
  return req;
}

// =================================================================================================
// [SECTION] Writing a step back (Ctrl+S), the shipped lessons
// =================================================================================================

namespace {

std::string quoted(const std::string& s) {
  std::string o = "\"";
  for (const unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += char(c);
        }
    }
  }
  return o + "\"";
}

const char* layout_name(LessonLayout l) {
  return l == LessonLayout::Column ? "column" : l == LessonLayout::Grid ? "grid" : "row";
}

// params = { stride = 8, input = "sorted" }: a number as it is, a choice's name as a string.
void write_params(std::ostringstream& o, const std::vector<std::string>& params) {
  o << "params = { ";
  for (size_t i = 0; i < params.size(); ++i) {
    const size_t eq = params[i].find('=');
    const std::string value = params[i].substr(eq + 1);
    // (a number's characters, and all of it read as one: "e" or "nan" is a choice's name)
    char* end = nullptr;
    const bool number = !value.empty() && value.find_first_not_of("-+0123456789.eE") == std::string::npos &&
                        (std::strtod(value.c_str(), &end), end == value.c_str() + value.size());
    o << (i ? ", " : "") << params[i].substr(0, eq) << " = " << (number ? value : quoted(value));
  }
  o << " }\n";
}

void write_launch(std::ostringstream& o, const LessonLaunch& l, const std::filesystem::path& lesson_dir) {
  // A kernel file's step names its file, as the lesson's folder sees it: its kernel's name is the
  // build's, which the lesson may not have been trusted to make.
  if (!l.file.empty()) {
    const std::filesystem::path rel = lesson_dir.empty() ? l.file : l.file.lexically_relative(lesson_dir);
    const bool inside = !rel.empty() && rel.is_relative() && *rel.begin() != "..";
    o << "file = " << quoted((inside ? rel : l.file).generic_string()) << "\n";
  } else {
    o << "kernel = " << quoted(l.kernel) << "\n";
  }
  // Each value as its form says (LaunchText's field list): bare numbers, the rest in quotes.
  visit_fields(l.text, [&](const char* name, const auto& field, LaunchForm form) {
    if (field.empty()) return;
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, std::string>)
      o << name << " = " << (form == LaunchForm::Number ? field : quoted(field)) << "\n";
    else write_params(o, field);
  });
  if (l.backend != BackendKind::Emu) o << "backend = " << quoted(to_string(l.backend)) << "\n";
}

}  // namespace

std::string step_toml(const LessonStep& step, const std::filesystem::path& lesson_dir) {
  std::ostringstream o;
  o << "\n[[step]]\n";
  o << "title = " << quoted(step.title) << "\n";
  if (!step.caption.empty()) o << "caption = " << quoted(step.caption) << "\n";
  if (!step.gpu_caption.empty()) o << "gpu_caption = " << quoted(step.gpu_caption) << "\n";
  write_launch(o, step.launch, lesson_dir);
  const LessonSelect& s = step.select;
  o << "select = { launch = " << s.launch << ", block = " << s.block << ", warp = " << s.warp;
  if (s.lane >= 0) o << ", lane = " << s.lane;
  if (s.line_number) o << ", line = " << s.line_number;
  else if (!s.line_text.empty()) o << ", line = " << quoted(s.line_text);
  if (!s.access.empty()) o << ", access = " << quoted(s.access);
  if (!s.array.empty()) o << ", array = " << quoted(s.array);
  if (s.nth >= 0) o << ", nth = " << s.nth;
  if (s.occurrence == LessonSelect::Occurrence::First) o << ", occurrence = \"first\"";
  if (s.occurrence == LessonSelect::Occurrence::Index) o << ", occurrence = " << s.index;
  if (s.hazard >= 0) o << ", hazard = " << s.hazard;
  if (s.cursor >= 0) o << ", cursor = " << s.cursor;
  o << " }\n";
  o << "views = [";
  for (size_t i = 0; i < step.views.size(); ++i) {
    const LessonView& v = step.views[i];
    o << (i ? ", " : "");
    if (v.options.empty()) {
      o << quoted(v.id);
      continue;
    }
    o << "{ id = " << quoted(v.id);
    for (const std::string& kv : v.options) {
      const size_t eq = kv.find('=');
      o << ", " << kv.substr(0, eq) << " = " << quoted(kv.substr(eq + 1));
    }
    o << " }";
  }
  o << "]\n";
  o << "layout = " << quoted(layout_name(step.layout)) << "\n";
  return o.str();
}

std::string insert_step(const std::filesystem::path& file, size_t after, const LessonStep& step) {
  std::string text, err;
  if (!read_file(file, text, err)) return err;
  const LessonLoad before = parse_lesson(text, file.string());
  if (!before.ok()) return "the step was not saved: the lesson does not load: " + before.error;
  // Where the next step's [[step]] line starts, or the end.
  size_t at = text.size();
  if (after + 1 < before.lesson.steps.size()) {
    const uint32_t line = before.lesson.steps[after + 1].place.line;
    at = 0;
    for (uint32_t l = 1; l < line && at != std::string::npos; ++l) {
      at = text.find('\n', at);
      if (at != std::string::npos) ++at;
    }
    if (at == std::string::npos) at = text.size();
  }
  std::string block = step_toml(step, file.parent_path());
  if (at == text.size() && !text.empty() && text.back() != '\n') text += '\n';
  if (at < text.size()) block += "\n";  // a blank line before the next step
  text.insert(at, block);
  const LessonLoad check = parse_lesson(text, file.string());
  if (!check.ok()) return "the step was not saved: " + check.error;
  return write_file_atomic(file, text);
}

namespace {

// The *.toml of the first of these folders that holds any: the one `env` names; else the source
// tree's, as built; else `relative` (a binary carried to another machine, run from a checkout).
std::vector<std::filesystem::path> shipped_tomls(const char* env_name, const char* built, const char* relative) {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv(env_name); env && *env) dirs.push_back(env);
  dirs.push_back(built);
  dirs.push_back(relative);
  for (const std::string& dir : dirs) {
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      if (e.path().extension() == ".toml") out.push_back(e.path());
    if (!out.empty()) {
      std::sort(out.begin(), out.end());
      return out;
    }
  }
  return {};
}

}  // namespace

std::vector<std::filesystem::path> shipped_lessons() { return shipped_tomls("WARPSCOPE_LESSONS", WS_LESSONS_DIR, "lessons"); }

std::vector<std::filesystem::path> shipped_exercises() {
  return shipped_tomls("WARPSCOPE_EXERCISES", WS_EXERCISES_DIR, "exercises");
}

}  // namespace ws::app
