#include "ws/kernel_file/remote.h"

#include <filesystem>

#include "ws/isolation/isolated_runs.h"
#include "ws/isolation/server.h"
#include "ws/isolation/wire.h"

namespace ws::kernel_file {

namespace {

using isolation::Reader;
using isolation::Writer;

void write_options(Writer& w, const std::string& path, const std::string& text, const BuildOptions& o) {
  w.str(path);
  w.str(text);
  w.boolean(o.emu);
  w.boolean(o.gpu);
  w.boolean(o.gpu_check);
  w.str(o.device);
  w.f64(o.timeout_seconds);
}

void write_build(Writer& w, const Build& b) {
  w.str(b.name);
  w.boolean(b.name_given);
  w.boolean(b.ok);
  w.boolean(b.cancelled);
  w.u64(b.diagnostics.size());
  for (const BuildDiagnostic& d : b.diagnostics) {
    w.u8(uint8_t(d.severity));
    w.str(d.file);
    w.u32(d.line);
    w.u32(d.column);
    w.str(d.message);
  }
  w.f64(b.seconds);
  w.boolean(b.from_cache);
  w.str(b.summary);
  w.boolean(b.gpu_check_failed);
  isolation::write_spec(w, b.entry.spec);
  w.u64(b.entry.runners.size());
  for (const auto& [kind, runner] : b.entry.runners) w.u8(uint8_t(kind));
}

// A runner of an entry whose code is in the run process: the Catalog's run hook sends its runs
// there, so this one answers only when that process is no longer in use.
std::function<RunResult(const RunConfig&)> elsewhere(BackendKind kind) {
  return [kind](const RunConfig&) {
    RunResult r;
    r.refused = std::string("this kernel file was built in warpscope's run process, which is not in use now: open the file "
                            "again to run it on ") + to_string(kind);
    return r;
  };
}

void read_build(Reader& r, Build& b) {
  b.name = r.str();
  b.name_given = r.boolean();
  b.ok = r.boolean();
  b.cancelled = r.boolean();
  for (size_t i = 0, n = r.count(25); i < n; ++i) {
    BuildDiagnostic d;
    const uint8_t severity = r.u8();
    if (severity > uint8_t(BuildDiagnostic::Severity::Note)) throw isolation::WireError("a build diagnostic has no severity");
    d.severity = BuildDiagnostic::Severity(severity);
    d.file = r.str();
    d.line = r.u32();
    d.column = r.u32();
    d.message = r.str();
    b.diagnostics.push_back(std::move(d));
  }
  b.seconds = r.f64();
  b.from_cache = r.boolean();
  b.summary = r.str();
  b.gpu_check_failed = r.boolean();
  b.entry.spec = isolation::read_spec(r);
  // The run process checks a run's memory against the arrays it sizes itself (the spec's
  // elements() is code of the file): this side estimates nothing.
  b.entry.spec.elements = [](const RunConfig&) { return uint64_t(0); };
  for (size_t i = 0, n = r.count(1); i < n; ++i) {
    const uint8_t kind = r.u8();
    if (kind > uint8_t(BackendKind::GpuTrace)) throw isolation::WireError("a build names no backend");
    b.entry.runners[BackendKind(kind)] = elsewhere(BackendKind(kind));
  }
}

}  // namespace

Build build_in_run_process(const std::string& path, const std::string& text, const BuildOptions& options) {
  Build b;
  b.path = path;
  b.text = text;
  Writer w;
  write_options(w, path, text, options);
  const std::string name = std::filesystem::path(path).filename().string();
  // Compiling may take the build's own limit; loading it (its static initialisers), a run's, from
  // the moment the run process says it starts; the GPU builds after it, the build's limit again.
  const isolation::Answer a = isolation::call(
      isolation::Kind::BuildFile, w.bytes(),
      {.timeout_seconds = options.timeout_seconds + isolation::timeout_seconds(),
       .phases = {{"load", isolation::timeout_seconds(), "loading " + name + " (its static initialisers run then)"},
                  {"compile", options.timeout_seconds + isolation::timeout_seconds(), "the GPU builds of " + name}},
       .cancel = options.cancel,
       .what = "the build of " + name});
  auto failed = [&](const std::string& why) {
    b.ok = false;
    b.run_process_failure = a.timed_out ? "time-limit" : a.out_of_memory ? "out-of-memory" : a.process_lost ? "run-process-ended" : "run-process";
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, "", 0, 0, why});
    b.summary = why;
    return b;
  };
  if (!a.ok) {
    b.cancelled = a.cancelled;
    if (a.cancelled) {
      b.summary = "build stopped: the file changed again";
      return b;
    }
    if (a.timed_out) return failed(a.error);
    if (a.process_lost) return failed("the kernel file's code ended the run process as it was loaded (its static initialisers run then): " + a.error);
    return failed("the kernel file could not be built in warpscope's run process: " + a.error);
  }
  try {
    Reader r(a.payload);
    read_build(r, b);
  } catch (const isolation::WireError& e) {
    return failed(std::string("the run process's answer about the build does not read: ") + e.what());
  }
  return b;
}

std::string answer_build(const std::string& payload, Catalog& catalog, const std::atomic<bool>* cancel) {
  Reader r(payload);
  const std::string path = r.str();
  const std::string text = r.str();
  BuildOptions o;
  o.emu = r.boolean();
  o.gpu = r.boolean();
  o.gpu_check = r.boolean();
  o.device = r.str();
  o.timeout_seconds = r.f64();
  o.text = &text;
  o.on_phase = [](const char* stage) { isolation::Server::enter_phase(stage); };
  o.cancel = cancel;
  Build b = build(path, o);
  if (b.ok) {
    Build installed_copy = b;  // (install() may rename it; the asking side installs and names its own)
    install(installed_copy, catalog);
  }
  Writer w;
  write_build(w, b);
  return w.take();
}

}  // namespace ws::kernel_file
