#include "ws/grading/goal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "ws/analysis/verdict.h"

namespace ws::grading {

// [SECTION] the metric table
// [SECTION] scope: which rows a goal is about
// [SECTION] one function per metric
// [SECTION] grade

// --- the metric table ------------------------------------------------------------------------

namespace {

constexpr MetricInfo kMetrics[] = {
    {Metric::BankConflicts, "bank_conflicts", "bank conflicts", false, true},
    {Metric::BankWays, "bank_ways", "the worst n-way bank conflict", false, true},
    {Metric::SectorsPerRequest, "sectors_per_request", "sectors per request", false, true},
    {Metric::SimdEfficiency, "simd_efficiency", "SIMD efficiency", true, true},
    {Metric::Races, "races", "racing access pairs", false, true},
    {Metric::LockstepRaces, "lockstep_races", "lockstep-only access pairs", false, true},
    {Metric::BarrierDivergence, "barrier_divergence", "barriers some threads skipped", false, false},
    {Metric::GlobalAtomics, "global_atomics", "atomic lane accesses to global memory", false, true},
    {Metric::Result, "result", "the result", false, false},
    {Metric::GpuTime, "gpu_time", "the time on a GPU", false, false, true},
};

std::string number(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

}  // namespace

std::span<const MetricInfo> metrics() { return kMetrics; }

const MetricInfo& info(Metric m) {
  for (const MetricInfo& i : kMetrics)
    if (i.metric == m) return i;
  return kMetrics[0];
}

std::optional<Metric> metric_named(const std::string& name) {
  for (const MetricInfo& i : kMetrics)
    if (name == i.name) return i.metric;
  return std::nullopt;
}

std::string metric_names() {
  std::string s;
  for (const MetricInfo& i : kMetrics) s += (s.empty() ? "" : ", ") + std::string(i.name);
  return s;
}

std::string bound_text(const Goal& g) {
  const std::string unit = info(g.metric).percent ? "%" : "";
  if (g.metric == Metric::Result) return "passes";
  std::string s;
  if (g.min) s += ">= " + number(*g.min) + unit;
  if (g.max) s += std::string(s.empty() ? "" : " and ") + "<= " + number(*g.max) + unit;
  if (g.metric == Metric::GpuTime) s += "x the " + g.of;
  return s;
}

// --- scope: which rows a goal is about -------------------------------------------------------

namespace {

const char* access_name(AccessKind k) {
  return k == AccessKind::Load ? "load" : k == AccessKind::Store ? "store" : "atomic";
}

struct Where {
  std::string file, text;
  uint32_t line = 0;
};

Where where(const analysis::Report& r, uint32_t site) {
  if (site >= r.site_table.size()) return {};
  const Site& s = r.site_table[site];
  return {s.file, s.text, s.line};
}

bool site_in_scope(const analysis::Report& r, uint32_t site, const Scope& sc) {
  if (sc.line_text.empty() && sc.line_number == 0) return true;
  if (site >= r.site_table.size()) return false;
  const Site& s = r.site_table[site];
  if (sc.line_number && s.line != sc.line_number) return false;
  return sc.line_text.empty() || s.text.find(sc.line_text) != std::string::npos;
}

bool alloc_in_scope(const analysis::Report& r, uint32_t alloc, const Scope& sc) {
  if (sc.array.empty()) return true;
  return alloc < r.allocations.size() && r.allocations[alloc].name == sc.array;
}

bool row_in_scope(const analysis::Report& r, const analysis::SiteMetrics& m, const Scope& sc) {
  return (sc.access.empty() || sc.access == access_name(m.kind)) && alloc_in_scope(r, m.alloc, sc) &&
         site_in_scope(r, m.site, sc);
}

// What a scope names, for "nothing in scope ran": " to sdata on lines with 'x' (loads)".
std::string scope_text(const Scope& sc) {
  std::string s;
  if (!sc.array.empty()) s += " of " + sc.array;
  if (sc.line_number) s += " on line " + std::to_string(sc.line_number);
  if (!sc.line_text.empty()) s += " on a line with '" + sc.line_text + "'";
  if (!sc.access.empty()) s += " (" + sc.access + "s)";
  return s;
}

// Sums per line over every launch, to name the worst one.
struct LineSum {
  Where at;
  double value = 0, weight = 0;
  uint32_t ways = 0;
};
using Lines = std::map<std::pair<std::string, uint32_t>, LineSum>;

LineSum& line_of(Lines& lines, const analysis::Report& r, uint32_t site) {
  const Where w = where(r, site);
  LineSum& l = lines[{w.file, w.line}];
  l.at = w;
  return l;
}

void point_at(GoalResult& g, const Where& w, const std::string& what) {
  g.line = w.line;
  g.file = w.file;
  std::string text = w.text;
  const size_t first = text.find_first_not_of(" \t");
  text = first == std::string::npos ? "" : text.substr(first);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  g.detail = "line " + std::to_string(w.line) + ": " + what + (text.empty() ? "" : " (" + text + ")");
}

// --- one function per metric -----------------------------------------------------------------

void bank_conflicts(const Goal& goal, std::span<const analysis::Report> reports, GoalResult& g) {
  Lines lines;
  uint32_t worst_ways = 0;
  for (const analysis::Report& r : reports)
    for (const analysis::SiteMetrics& m : r.sites) {
      if (m.space != MemSpace::Shared || !row_in_scope(r, m, goal.scope)) continue;
      g.measured = true;
      LineSum& l = line_of(lines, r, m.site);
      l.value += double(m.conflicts);
      l.ways = std::max(l.ways, m.max_ways);
      worst_ways = std::max(worst_ways, m.max_ways);
    }
  const LineSum* worst = nullptr;
  for (const auto& [key, l] : lines) {
    g.value += goal.metric == Metric::BankWays ? 0 : l.value;
    if (!worst || (goal.metric == Metric::BankWays ? l.ways > worst->ways : l.value > worst->value)) worst = &l;
  }
  if (goal.metric == Metric::BankWays) g.value = std::max<uint32_t>(worst_ways, g.measured ? 1 : 0);
  g.value_text = goal.metric == Metric::BankWays ? number(g.value) + "-way" : number(g.value);
  if (worst && (worst->value > 0 || goal.metric == Metric::BankWays))
    point_at(g, worst->at, worst->ways > 1 ? std::to_string(worst->ways) + "-way bank conflicts"
                                           : std::string("no bank conflict"));
}

// Per access (a site's loads of one array: `out[i * 32] = in[i]` is two), not per line: every
// global access must be coalesced on its own.
void sectors_per_request(const Goal& goal, std::span<const analysis::Report> reports, GoalResult& g) {
  std::map<std::tuple<std::string, uint32_t, uint32_t, std::string, AccessKind>, LineSum> accesses;
  for (const analysis::Report& r : reports)
    for (const analysis::SiteMetrics& m : r.sites) {
      if (m.space != MemSpace::Global || m.instructions == 0 || !row_in_scope(r, m, goal.scope)) continue;
      if (goal.scope.access.empty() && m.kind == AccessKind::Atomic) continue;  // (atomics count apart)
      g.measured = true;
      const Where w = where(r, m.site);
      const std::string array = m.alloc < r.allocations.size() ? r.allocations[m.alloc].name : std::string();
      const uint32_t column = m.site < r.site_table.size() ? r.site_table[m.site].column : 0;
      LineSum& a = accesses[{w.file, w.line, column, array, m.kind}];
      a.at = w;
      a.value += double(m.sectors);
      a.weight += double(m.instructions);
    }
  const LineSum* worst = nullptr;
  std::string worst_array;
  for (const auto& [key, a] : accesses)
    if (!worst || a.value / a.weight > worst->value / worst->weight) worst = &a, worst_array = std::get<3>(key);
  if (!worst) return;
  g.value = worst->value / worst->weight;
  g.value_text = number(g.value);
  point_at(g, worst->at, number(g.value) + " sectors per request" + (worst_array.empty() ? "" : " on " + worst_array));
}

void simd_efficiency(const Goal& goal, std::span<const analysis::Report> reports, GoalResult& g) {
  Lines lines;
  double active = 0, slots = 0;
  const bool rows = !goal.scope.array.empty() || !goal.scope.access.empty();
  for (const analysis::Report& r : reports) {
    auto add = [&](uint32_t site, uint64_t instructions, uint64_t lanes) {
      if (instructions == 0) return;
      g.measured = true;
      LineSum& l = line_of(lines, r, site);
      l.value += double(lanes);
      l.weight += 32.0 * double(instructions);
      active += double(lanes);
      slots += 32.0 * double(instructions);
    };
    if (rows) {  // memory instructions of that array or kind
      for (const analysis::SiteMetrics& m : r.sites)
        if (row_in_scope(r, m, goal.scope)) add(m.site, m.instructions, m.lane_accesses);
    } else {  // every recorded instruction of the lines
      for (const analysis::SiteDivergence& d : r.divergence)
        if (site_in_scope(r, d.site, goal.scope)) add(d.site, d.instructions, d.active_lanes);
    }
  }
  if (!g.measured) return;
  g.value = 100.0 * active / slots;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", g.value);
  g.value_text = buf;
  const LineSum* worst = nullptr;  // the line that leaves the most lanes idle
  for (const auto& [key, l] : lines)
    if (!worst || l.weight - l.value > worst->weight - worst->value) worst = &l;
  std::snprintf(buf, sizeof buf, "%.0f%% of lanes active", 100.0 * worst->value / worst->weight);
  point_at(g, worst->at, buf);
}

void hazards(const Goal& goal, std::span<const analysis::Report> reports, GoalResult& g) {
  const bool lockstep = goal.metric == Metric::LockstepRaces;
  g.measured = true;
  const analysis::Hazard* first = nullptr;
  const analysis::Report* first_report = nullptr;
  for (const analysis::Report& r : reports)
    for (const analysis::Hazard& h : r.hazards) {
      if ((h.scope == analysis::HazardScope::IntraWarpLockstep) != lockstep) continue;
      if (!alloc_in_scope(r, h.alloc, goal.scope)) continue;
      if (!site_in_scope(r, h.first_site, goal.scope) && !site_in_scope(r, h.second_site, goal.scope)) continue;
      g.value += double(h.count);
      if (!first) first = &h, first_report = &r;
    }
  g.value_text = number(g.value);
  if (!first) return;
  const Where w = where(*first_report, first->second_site);
  g.line = w.line;
  g.file = w.file;
  g.detail = "line " + std::to_string(w.line) + ": " + analysis::hazard_sentence(*first_report, *first);
}

void barrier_divergence(const RunResult& run, std::span<const analysis::Report> reports, GoalResult& g) {
  g.measured = true;
  auto count = [&](const std::vector<Diagnostic>& ds, const analysis::Report* r) {
    for (const Diagnostic& d : ds) {
      if (d.code != "barrier-divergence") continue;
      g.value += 1;
      if (g.detail.empty()) {
        const Where w = r ? where(*r, d.site) : Where{};
        g.line = w.line;
        g.file = w.file;
        g.detail = (w.line ? "line " + std::to_string(w.line) + ": " : std::string()) + d.message;
      }
    }
  };
  for (const analysis::Report& r : reports) count(r.diagnostics, &r);
  if (reports.empty()) count(run.errors, nullptr);
  g.value_text = number(g.value);
}

void global_atomics(const Goal& goal, std::span<const analysis::Report> reports, GoalResult& g) {
  Lines lines;
  g.measured = true;
  for (const analysis::Report& r : reports)
    for (const analysis::SiteMetrics& m : r.sites) {
      if (m.space != MemSpace::Global || m.kind != AccessKind::Atomic || !row_in_scope(r, m, goal.scope)) continue;
      LineSum& l = line_of(lines, r, m.site);
      l.value += double(m.lane_accesses);
      g.value += double(m.lane_accesses);
    }
  g.value_text = number(g.value);
  const LineSum* worst = nullptr;
  for (const auto& [key, l] : lines)
    if (!worst || l.value > worst->value) worst = &l;
  if (worst) point_at(g, worst->at, number(worst->value) + " atomic lane accesses to global memory");
}

void result(const RunResult& run, GoalResult& g) {
  g.measured = true;
  g.held = run.completed && run.passed;
  g.value = g.held ? 1 : 0;
  if (!run.completed) {
    g.value_text = "did not finish";
    g.detail = run.errors.empty() ? "the run stopped before its end" : run.errors.front().message;
  } else {
    g.value_text = run.passed ? "PASS" : "FAIL";
    if (!run.passed) g.detail = "result: " + run.result + "; expected: " + run.expected;
  }
}

// "1.83x the copy": the kernel's median over the time its bytes take at the ceiling's rate.
// No measurement (no GPU here): skipped, counted neither way. A GPU that could not time it (a
// fault, a refusal): not held, and why.
void gpu_time(const Goal& goal, const GpuTime* t, GoalResult& g) {
  if (!t) {
    g.skipped = true;
    g.value_text = "not graded here";
    g.detail = "timed on a CUDA GPU only, and there is none here";
    return;
  }
  if (!t->ok || t->ceiling_ms <= 0) {
    g.value_text = "not timed";
    g.detail = "the GPU could not time it: " + (t->why_not.empty() ? std::string("no time came back") : t->why_not);
    return;
  }
  g.measured = true;
  g.value = t->ms / t->ceiling_ms;
  char text[160];
  std::snprintf(text, sizeof text, "%.2fx the %s", g.value, goal.of.c_str());
  g.value_text = text;
  std::snprintf(text, sizeof text, "%.3f ms; a %s of the same %.1f MB takes %.3f ms", t->ms, goal.of.c_str(),
                double(t->bytes) / 1e6, t->ceiling_ms);
  g.detail = text;
}

}  // namespace

// --- grade -----------------------------------------------------------------------------------

std::vector<GoalResult> grade(std::span<const Goal> goals, const RunResult& run,
                              std::span<const analysis::Report> reports, std::span<const GpuTime> gpu) {
  std::vector<GoalResult> out;
  size_t gpu_goals = 0;
  for (const Goal& goal : goals) {
    GoalResult g;
    g.bound_text = bound_text(goal);
    switch (goal.metric) {
      case Metric::BankConflicts:
      case Metric::BankWays: bank_conflicts(goal, reports, g); break;
      case Metric::SectorsPerRequest: sectors_per_request(goal, reports, g); break;
      case Metric::SimdEfficiency: simd_efficiency(goal, reports, g); break;
      case Metric::Races:
      case Metric::LockstepRaces: hazards(goal, reports, g); break;
      case Metric::BarrierDivergence: barrier_divergence(run, reports, g); break;
      case Metric::GlobalAtomics: global_atomics(goal, reports, g); break;
      case Metric::Result: result(run, g); break;
      case Metric::GpuTime: {
        const size_t k = gpu_goals++;
        gpu_time(goal, k < gpu.size() ? &gpu[k] : nullptr, g);
        break;
      }
    }
    if (g.skipped) {
      out.push_back(std::move(g));
      continue;
    }
    if (goal.metric != Metric::Result) {
      g.held = g.measured && (!goal.max || g.value <= *goal.max + 1e-9) && (!goal.min || g.value >= *goal.min - 1e-9);
      if (!g.measured && goal.metric != Metric::GpuTime) {
        g.value_text = "not measured";
        g.detail = "no instruction" + scope_text(goal.scope) + " ran, so " + info(goal.metric).what +
                   " could not be measured" + (run.completed ? "" : " (the run stopped early)");
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace ws::grading
