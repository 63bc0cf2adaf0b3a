// The subcommands that work on kernels and traces:
//   warpscope list [--json]
//   warpscope run     --kernel K [--variant V] [launch options]
//   warpscope trace   --kernel K [...] -o FILE [--format wst|json|chrome] [--launch I]
//   warpscope analyze (--trace FILE | --kernel K [...]) [--json] [--launch I]
// Exit codes: 0 success (and, for run, a passing check), 1 a fault or failed check or an I/O
// error, 2 invalid input (bad option values, a launch the kernel refuses).
#include "commands.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "bench.h"
#include "check.h"
#include "lesson.h"
#include "serve_runs.h"
#include "streams.h"
#include "launch_options.h"
#include "ws/analysis/analysis.h"
#include "ws/analysis/crosscheck.h"
#include "ws/analysis/verdict.h"
#include "ws/isolation/isolated_runs.h"
#include "ws/run/catalog.h"
#include "ws/timing/timing.h"
#include "ws/trace/trace_io.h"

namespace ws::app {

namespace {

struct State {
  CLI::App* list = nullptr;
  CLI::App* run = nullptr;
  CLI::App* trace = nullptr;
  CLI::App* analyze = nullptr;
  CLI::App* crosscheck = nullptr;
  bool json = false;
  LaunchOptions launch;
  std::string output, format, trace_file, list_file;
  size_t launch_index = 0;
  CLI::Option* trace_launch = nullptr;  // trace's --launch, to tell "given" from the default
  bool launch_given() const { return trace_launch && trace_launch->count() > 0; }
};

State& state() {
  static State s;
  return s;
}

std::string dims(const Dim3& d) {
  std::string s = std::to_string(d.x);
  if (d.y != 1 || d.z != 1) s += "," + std::to_string(d.y);
  if (d.z != 1) s += "," + std::to_string(d.z);
  return s;
}

// --- list ------------------------------------------------------------------------------------

// Every kernel of the catalog, or only `only` (a kernel file's, with --file).
int cmd_list(bool json, const std::string& only) {
  const Catalog& c = Catalog::instance();
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const CatalogEntry& e : c.entries()) {
      if (!only.empty() && e.spec.name != only) continue;
      nlohmann::json k;
      k["name"] = e.spec.name;
      k["title"] = e.spec.title;
      k["description"] = e.spec.description;
      k["source"] = e.spec.source;
      k["lecture"] = e.spec.lecture;
      k["default_n"] = e.spec.default_n;
      k["default_block"] = e.spec.default_block;
      k["dtypes"] = e.spec.dtypes;
      for (const VariantSpec& v : e.spec.variants)
        k["variants"].push_back({{"id", v.id}, {"name", v.name}, {"summary", v.summary}, {"broken", v.broken},
                                 {"broken_note", v.broken_note}, {"gpu_only", v.gpu_only}});
      k["params"] = nlohmann::json::array();
      for (const ParamSpec& p : e.spec.params) {
        // (whole numbers as whole JSON numbers: 8, not 8.0)
        auto number = [&](double v) { return p.real ? nlohmann::json(v) : nlohmann::json(int64_t(v)); };
        k["params"].push_back({{"name", p.name}, {"description", p.description}, {"min", number(p.min)},
                               {"max", number(p.max)}, {"default", number(p.def)}, {"choices", p.choices},
                               {"real", p.real}});
      }
      std::vector<std::string> backends;
      for (const auto& [kind, fn] : e.runners) backends.push_back(to_string(kind));
      k["backends"] = backends;
      out.push_back(std::move(k));
    }
    std::printf("%s\n", out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    return 0;
  }
  for (const CatalogEntry& e : c.entries()) {
    if (!only.empty() && e.spec.name != only) continue;
    std::printf("%s — %s\n  %s\n  source: %s%s   n = %llu, block = %u, dtypes:", e.spec.name.c_str(),
                e.spec.title.c_str(), e.spec.description.c_str(), e.spec.file.empty() ? "kernels/" : "", e.spec.source.c_str(),
                static_cast<unsigned long long>(e.spec.default_n), e.spec.default_block);
    for (const std::string& d : e.spec.dtypes) std::printf(" %s", d.c_str());
    std::printf("\n  variants:\n");
    for (const VariantSpec& v : e.spec.variants)
      std::printf("    %-3s %s%s — %s\n", v.id.c_str(), v.name.c_str(), v.broken ? " [BROKEN ON PURPOSE]" : "",
                  v.broken ? v.broken_note.c_str() : v.summary.c_str());
    if (!e.spec.params.empty()) std::printf("  parameters:\n");
    for (const ParamSpec& p : e.spec.params) {
      if (!p.choices.empty()) {  // by name: input = uniform   [uniform (0), sorted (1)]
        const std::string def = p.def >= 0 && size_t(p.def) < p.choices.size() ? p.choices[size_t(p.def)] : param_text(p.def);
        std::printf("    %s = %s   [%s]  %s\n", p.name.c_str(), def.c_str(), param_choice_list(p).c_str(), p.description.c_str());
        continue;
      }
      std::printf("    %s = %s   [%s, %s]%s  %s\n", p.name.c_str(), param_text(p.def).c_str(), param_text(p.min).c_str(),
                  param_text(p.max).c_str(), p.real ? " (any number)" : "", p.description.c_str());
    }
    std::printf("\n");
  }
  return 0;
}

// --- run -------------------------------------------------------------------------------------

// The run's verdict (analysis/verdict.h: FAULT, RACE, FAIL, LOCKSTEP ONLY or PASS) from its
// check and the hazards of every recorded launch; exit 0 only for PASS.
int cmd_run(const LaunchOptions& opt, bool json) {
  RunResult r;
  if (int rc = run_kernel(opt, r, json); rc) return rc;
  std::vector<analysis::Report> reports;
  analysis::Options ao;
  ao.per_event = false;
  ao.heat_bins = 0;
  for (const Trace& t : r.launches) reports.push_back(analysis::analyze(t, ao));
  const analysis::RunVerdict v = analysis::verdict(r.completed, r.passed, reports, r.errors);
  const std::string variant = r.launches.empty() ? opt.launch.variant : r.launches.front().launch.variant;
  if (json) {
    nlohmann::json out = {{"kernel", opt.kernel},          {"variant", variant},
                          {"backend", opt.backend},        {"verdict", v.word},
                          {"detail", v.sentence},          {"completed", r.completed},
                          {"passed", r.passed},            {"result", r.result},
                          {"expected", r.expected},        {"check", r.check},
                          {"racing_pairs", v.races},       {"lockstep_pairs", v.lockstep},
                          {"launches", r.launches.size()}, {"notes", r.notes}};
    out["errors"] = nlohmann::json::array();
    for (const Diagnostic& d : r.errors) out["errors"].push_back({{"code", d.code}, {"message", d.message}});
    std::printf("%s\n", out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    return v.ok() ? 0 : 1;
  }
  std::printf("%s %s on %s\n", opt.kernel.c_str(), variant.c_str(),
              r.launches.empty() ? opt.backend.c_str() : r.launches.front().launch.device.c_str());
  for (const Trace& t : r.launches)
    std::printf("  launch %-16s grid %-8s block %-8s %llu warp instructions recorded%s\n", t.launch.entry.c_str(),
                dims(t.launch.grid).c_str(), dims(t.launch.block).c_str(),
                static_cast<unsigned long long>(t.events.size()), t.truncated ? " (truncated)" : "");
  for (const std::string& note : r.notes) std::printf("  note: %s\n", note.c_str());
  if (r.completed)
    std::printf("  result:   %s\n  expected: %s\n  check:    %s\n", r.result.c_str(), r.expected.c_str(),
                r.check.c_str());
  std::printf("  %s%s%s\n", v.word, v.sentence.empty() ? "" : ": ", v.sentence.c_str());
  if (v.races + v.lockstep > 1)
    std::printf("  (%llu racing access pairs, %llu lockstep-only; `warpscope analyze` lists them all)\n",
                static_cast<unsigned long long>(v.races), static_cast<unsigned long long>(v.lockstep));
  return v.ok() ? 0 : 1;
}

// --- trace -----------------------------------------------------------------------------------

int cmd_trace(State& s) {
  RunResult r;
  if (int rc = run_kernel(s.launch, r, false); rc) return rc;
  if (r.launches.empty()) {
    std::fprintf(stderr, "warpscope: the %s backend records no trace (use emu or gpu-trace)\n", s.launch.backend.c_str());
    return 2;
  }
  if (s.launch_index >= r.launches.size()) {
    std::fprintf(stderr, "warpscope: --launch %zu: this run made %zu launch(es), numbered from 0\n", s.launch_index,
                 r.launches.size());
    return 2;
  }
  const Trace& t = r.launches[s.launch_index];
  std::string format = s.format;
  if (format.empty()) {
    const auto ends = [&](const char* ext) {
      const std::string e(ext);
      return s.output.size() >= e.size() && s.output.compare(s.output.size() - e.size(), e.size(), e) == 0;
    };
    format = ends(".json") ? "json" : "wst";
  }
  // A Chrome trace holds every launch of the run unless --launch picks one.
  const bool all_launches = format == "chrome" && !s.launch_given();
  std::string err = format == "json"     ? export_json(t, s.output)
                    : format == "chrome" ? export_chrome_trace(all_launches ? std::span<const Trace>(r.launches)
                                                                            : std::span<const Trace>(&t, 1),
                                                               s.output)
                                         : save_trace(t, s.output);
  if (!err.empty()) {
    std::fprintf(stderr, "warpscope: %s\n", err.c_str());
    return 1;
  }
  if (all_launches) {
    uint64_t events = 0;
    for (const Trace& x : r.launches) events += x.events.size();
    std::printf("wrote %s (chrome): all %zu launch(es), %llu warp instructions\n", s.output.c_str(), r.launches.size(),
                static_cast<unsigned long long>(events));
  } else {
    std::printf("wrote %s (%s): %s launch %zu of %zu, %llu warp instructions, %llu lane accesses%s\n", s.output.c_str(),
                format.c_str(), t.launch.entry.c_str(), s.launch_index, r.launches.size(),
                static_cast<unsigned long long>(t.events.size()),
                static_cast<unsigned long long>(t.lane_offsets.size()), t.truncated ? ", TRUNCATED" : "");
  }
  if (!r.completed)
    std::fprintf(stderr, "warpscope: the run stopped at a fault (above): %s holds what was recorded until then and the "
                         "fault's record\n", s.output.c_str());
  return r.completed ? 0 : 1;
}

// --- analyze ---------------------------------------------------------------------------------

int cmd_analyze(State& s) {
  Trace trace;
  if (!s.trace_file.empty()) {
    if (!s.launch.kernel.empty()) {
      std::fprintf(stderr, "warpscope: give either --trace FILE or --kernel K, not both\n");
      return 2;
    }
    LoadResult lr = load_trace(s.trace_file);
    if (!lr.ok()) {
      std::fprintf(stderr, "warpscope: %s\n", lr.error.c_str());
      return 1;
    }
    trace = std::move(lr.trace);
  } else {
    if (s.launch.kernel.empty()) {
      std::fprintf(stderr, "warpscope: analyze needs --trace FILE or --kernel K\n");
      return 2;
    }
    RunResult r;
    if (int rc = run_kernel(s.launch, r, s.json); rc) return rc;
    if (s.launch_index >= r.launches.size()) {
      std::fprintf(stderr, "warpscope: --launch %zu: this run made %zu launch(es)\n", s.launch_index, r.launches.size());
      return 2;
    }
    trace = std::move(r.launches[s.launch_index]);
  }
  analysis::Options opt;
  opt.per_event = false;
  const analysis::Report report = analysis::analyze(trace, opt);
  std::fputs((s.json ? analysis::to_json(report) : analysis::format_table(report)).c_str(), stdout);
  // A launch that stopped at a fault is analysed as far as it went, and says so in its exit code.
  const bool faulted = std::any_of(trace.diagnostics.begin(), trace.diagnostics.end(),
                                   [](const Diagnostic& d) { return d.severity == Severity::Error; });
  if (faulted) {
    std::fprintf(stderr, "warpscope: the launch stopped at a fault: the analysis covers what it recorded until then\n");
    return 1;
  }
  return 0;
}

// --- crosscheck ------------------------------------------------------------------------------

// Runs kernels on the emulator and on gpu-trace with the same launch and compares the lane
// accesses (must be identical) and the grouping into warp instructions (reported).
int cmd_crosscheck(State& s) {
  const Catalog& cat = Catalog::instance();
  std::vector<const CatalogEntry*> entries;
  if (s.launch.kernel.empty()) {
    for (const CatalogEntry& e : cat.entries()) entries.push_back(&e);
  } else if (const CatalogEntry* e = cat.find(s.launch.kernel)) {
    entries.push_back(e);
  } else {
    std::fprintf(stderr, "warpscope: no kernel named '%s'\n", s.launch.kernel.c_str());
    return 2;
  }
  if (!timing::device().present) {
    std::fprintf(stderr, "warpscope: crosscheck compares the emulator with a GPU: %s\n", timing::device().why_not.c_str());
    return 2;
  }
  int failures = 0, compared = 0;
  std::printf("%-12s %-16s %-7s %12s %12s  %-10s %s\n", "kernel", "variant", "launch", "emu acc.", "gpu acc.",
              "accesses", "grouping differences");
  for (const CatalogEntry* e : entries) {
    if (!e->runners.count(BackendKind::GpuTrace)) {
      std::fprintf(stderr, "warpscope: crosscheck needs the gpu-trace backend (this build has no CUDA)\n");
      return 2;
    }
    for (const VariantSpec& v : e->spec.variants) {
      if (v.gpu_only || (!s.launch.launch.variant.empty() && v.id != s.launch.launch.variant)) continue;
      LaunchOptions opt = s.launch;
      opt.kernel = e->spec.name;
      opt.launch.variant = v.id;
      if (opt.launch.blocks.empty()) opt.launch.blocks = "0,1";
      RunResult emu, gpu;
      opt.backend = "emu";
      if (run_kernel(opt, emu, true) != 0) continue;
      opt.backend = "gpu-trace";
      if (run_kernel(opt, gpu, true) != 0) continue;
      if (!gpu.completed) {
        std::printf("%-12s %-16s gpu-trace fault: %s\n", e->spec.name.c_str(), v.id.c_str(),
                    gpu.errors.empty() ? "?" : gpu.errors[0].message.c_str());
        ++failures;
        continue;
      }
      if (!emu.completed) {
        std::printf("%-12s %-16s the emulator stopped it: %s\n", e->spec.name.c_str(), v.id.c_str(),
                    emu.errors.empty() ? "?" : emu.errors[0].code.c_str());
        continue;
      }
      for (size_t l = 0; l < std::min(emu.launches.size(), gpu.launches.size()); ++l) {
        const analysis::Crosscheck c = analysis::crosscheck(emu.launches[l], gpu.launches[l]);
        ++compared;
        // (Warp-synchronous calls too: the same shuffles and votes by the same lanes.)
        const bool bad = (!c.identical || c.warp_op_differences) && !v.order_dependent;
        failures += bad;
        uint64_t emu_calls = 0, gpu_calls = 0;
        for (const analysis::WarpOpRow& r : c.warp_ops) emu_calls += r.emu_calls, gpu_calls += r.gpu_calls;
        std::printf("%-12s %-16s %-7zu %12llu %12llu  %-10s %llu of %zu lines, warp calls %llu / %llu%s\n", e->spec.name.c_str(),
                    v.id.c_str(), l, static_cast<unsigned long long>(c.emu_accesses),
                    static_cast<unsigned long long>(c.gpu_accesses),
                    c.identical && !c.warp_op_differences ? "identical" : !c.incomplete.empty() ? "incomplete" : (v.order_dependent ? "differ*" : "DIFFERENT"),
                    static_cast<unsigned long long>(c.grouping_differences), c.grouping.size(),
                    static_cast<unsigned long long>(emu_calls), static_cast<unsigned long long>(gpu_calls),
                    v.order_dependent ? "  (*order-dependent variant)" : "");
        if (bad || (s.json && c.grouping_differences)) std::fputs(analysis::format_crosscheck(c).c_str(), stdout);
      }
    }
  }
  std::printf("%d launch(es) compared, %d with different accesses\n", compared, failures);
  return failures ? 1 : 0;
}

}  // namespace

void register_commands(CLI::App& app) {
  State& s = state();
  s.list = app.add_subcommand("list", "List the kernel catalog: kernels, variants, parameters");
  s.list->add_flag("--json", s.json, "Machine-readable output");
  s.list->add_option("--file", s.list_file, "A kernel file: build it and list only its kernel, variants and parameters");

  s.run = app.add_subcommand(
      "run", "Run a kernel, check it against the CPU reference and its hazards: PASS, FAIL, RACE, LOCKSTEP ONLY or FAULT");
  s.launch.add_to(*s.run, true);
  s.run->add_flag("--json", s.json, "The verdict, its first hazard pair and the check as JSON");

  s.trace = app.add_subcommand("trace", "Run a kernel and save its trace (.wst, instruction JSON or Chrome trace)");
  s.launch.add_to(*s.trace, true);
  s.trace->add_option("-o,--output", s.output, "Output file")->required();
  s.trace->add_option("--format", s.format, "wst (binary trace), json (warp instructions), chrome (timeline for Perfetto)")
      ->check(CLI::IsMember({"wst", "json", "chrome"}));
  s.trace_launch = s.trace->add_option("--launch", s.launch_index,
                                       "Which launch of a multi-launch run (0 = first; a Chrome trace holds them all "
                                       "unless this is given)");

  s.analyze = app.add_subcommand("analyze", "Bank conflicts, coalescing, divergence and hazards of a launch");
  s.analyze->add_option("--trace", s.trace_file, "A saved trace (.wst) instead of running a kernel");
  s.launch.add_to(*s.analyze, false);
  s.analyze->add_flag("--json", s.json, "Totals keyed by Nsight Compute metric names, per-site rows, hazards");
  s.analyze->add_option("--launch", s.launch_index, "Which launch of a multi-launch run (0 = first)")->capture_default_str();

  s.crosscheck = app.add_subcommand(
      "crosscheck", "Run kernels on the emulator and on gpu-trace and compare their lane accesses (needs a GPU)");
  s.launch.add_to(*s.crosscheck, false);
  s.crosscheck->add_flag("--details", s.json, "Print the grouping table of every launch whose grouping differs");
  register_bench(app);
  register_lesson_command(app);
  register_check_command(app);
  register_streams_command(app);
  register_serve_runs_command(app);
}

int run_selected_command(CLI::App&) {
  if (int rc = run_serve_runs_if_selected(); rc >= 0) return rc;
  State& s = state();
  // A kernel file's code runs only in the run process (its build, its host code, its runs),
  // stopped past WARPSCOPE_RUN_TIMEOUT (default 60 s); --timeout sends every run of the command
  // there, stopped past its limit.
  isolation::IsolationOptions iso;
  iso.gpu = false;
  if (s.launch.timeout > 0) {
    iso.timeout_seconds = s.launch.timeout;
    iso.everything = true;
  }
  isolation::enable(Catalog::instance(), iso);
  // A kernel file is built before any command runs it (and its errors end the command).
  for (CLI::App* cmd : {s.run, s.trace, s.analyze, s.crosscheck})
    if (cmd && cmd->parsed()) {
      const bool required = cmd == s.run || cmd == s.trace;
      if (std::string err = load_kernel_file(s.launch, required, cmd == s.crosscheck); !err.empty()) {
        std::fprintf(stderr, "%s%s\n", s.launch.file.empty() ? "warpscope: " : "", err.c_str());
        return s.launch.file.empty() ? 2 : 1;
      }
    }
  if (s.crosscheck && s.crosscheck->parsed()) return cmd_crosscheck(s);
  if (s.list && s.list->parsed()) {
    if (s.list_file.empty()) return cmd_list(s.json, "");
    LaunchOptions file;
    file.file = s.list_file;
    if (std::string err = load_kernel_file(file, true, false); !err.empty()) {
      std::fprintf(stderr, "%s\n", err.c_str());
      return 1;
    }
    return cmd_list(s.json, file.kernel);
  }
  if (s.run && s.run->parsed()) return cmd_run(s.launch, s.json);
  if (s.trace && s.trace->parsed()) return cmd_trace(s);
  if (s.analyze && s.analyze->parsed()) return cmd_analyze(s);
  if (int rc = run_lesson_if_selected(); rc >= 0) return rc;
  if (int rc = run_check_if_selected(); rc >= 0) return rc;
  if (int rc = run_streams_if_selected(); rc >= 0) return rc;
  return run_bench_if_selected();
}

}  // namespace ws::app
