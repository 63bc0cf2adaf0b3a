// Building a kernel file into catalog entries: read it, parse its launch description, generate
// one translation unit per backend, compile each into a shared library, load it and take its
// entry. build() touches no shared state and may run on any thread (the viewer builds in the
// background); install() puts the result into the catalog.
//
//   ws::kernel_file::Build b = ws::kernel_file::build("/home/me/saxpy.cu", {});
//   if (b.ok) ws::kernel_file::install(b, ws::Catalog::instance());
//   else for (const auto& d : b.diagnostics) puts(to_text(d).c_str());
//
// A kernel file is C++ that warpscope compiles and runs with the user's rights, like any program
// they build: only files the user opens are ever compiled or loaded. Loaded builds stay loaded
// (their code may still run: a lesson's prefetched step, a timing series); at most
// kMaxLoadedBuilds per process.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "ws/kernel_file/diagnostics.h"
#include "ws/kernel_file/generate.h"
#include "ws/run/catalog.h"

namespace ws::kernel_file {

inline constexpr int kMaxLoadedBuilds = 400;

struct BuildOptions {
  bool emu = true;
  bool gpu = false;  // also gpu-fast and gpu-trace (needs nvcc; slow: tens of seconds)
  // Where nvcc is but no GPU: compile the gpu-fast build (for the build's CUDA architecture),
  // without loading it, so what only nvcc refuses (a __device__ function called from host code)
  // is said as a warning: "GPU build: ...". The emulator's build is used either way.
  bool gpu_check = false;
  const std::atomic<bool>* cancel = nullptr;  // turns true: stop (the file was saved again)
  std::string device;  // the GPU the GPU builds are for (-arch=native): part of the build cache's key
  // Build these contents as the file at `path` instead of reading it: warpscope's run process
  // builds exactly what the viewer built, even when the file was saved again since.
  const std::string* text = nullptr;
  double timeout_seconds = 300;
  // Told as the build enters a stage: "load" before the emulator's build is loaded (the file's
  // static initialisers run then), "compile" before the GPU builds start. The run process passes
  // it on to warpscope, which gives each stage its own time limit (remote.cpp).
  std::function<void(const char* stage)> on_phase;
};

struct Build {
  std::string path;      // absolute
  std::string text;      // the contents that were compiled (the sites' and the source view's text)
  std::string name;      // the kernel's name in the catalog
  bool name_given = false;  // by the description (a built-in's name is then refused, not changed)
  bool ok = false;       // every asked flavour built and loaded
  bool cancelled = false;
  std::vector<BuildDiagnostic> diagnostics;  // errors first; warnings too when ok
  CatalogEntry entry;    // with a runner per flavour built
  double seconds = 0;    // reading to loading
  bool from_cache = true;  // no compiler ran: every library came from the build cache
  std::string summary;   // one line: "built saxpy (emu) in 1.4 s" or the first error
  bool gpu_check_failed = false;  // BuildOptions::gpu_check found errors (they are warnings here)
  // Built in the run process (remote.h) and it could not answer: how, as a run's error code says it
  // (isolation::is_run_process_failure: "time-limit", "run-process-ended", "out-of-memory",
  // "run-process"); "" when it answered.
  std::string run_process_failure;
};

Build build(const std::string& path, const BuildOptions& options);

// Adds or replaces the file's kernel in `catalog` and registers its text for the source view.
// A file named after a built-in kernel (reduce.cu) becomes reduce_file, unless its description
// gives that name, which is refused (returns why). A name another kernel file had is taken over.
std::string install(Build& b, Catalog& catalog);

// The name of the kernel `catalog` already runs from exactly `text` of the file at `path` (a
// canonical path), with the GPU builds when `gpu`; "" when none.
std::string installed(const Catalog& catalog, const std::string& path, const std::string& text, bool gpu);

// A kernel file's static initialiser threw through dlopen in this process: the dynamic loader's
// lock stays held, so the process must end (the run process does, after its answer).
bool loader_lock_lost();

// Removes the build folders (warpscope-build-<pid>-*) in `base` of this user's warpscope processes
// that ended without removing theirs (killed, or crashed); called before a process makes its own.
// Returns how many.
size_t remove_orphaned_build_folders(const std::string& base);

// build() then install(): for the command line. Returns the kernel's name, or "" with `error`
// holding every diagnostic, one per line.
std::string load(const std::string& path, Catalog& catalog, const BuildOptions& options, std::string& error);

}  // namespace ws::kernel_file
