#include "ws/kernel_file/build.h"
#include "ws/kernel_file/remote.h"
#include "ws/isolation/isolated_runs.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "ws/kernel_file/compiler.h"
#include "ws/kernel_file/description.h"
#include "ws/plain_cuda/rewrite.h"
#include "kernel_file_config.h"  // WS_KERNEL_FILE_CHECK_ARCH
#include "ws/trace/sources.h"
#include "ws/util/atomic_file.h"

namespace ws::kernel_file {

namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMaxFileBytes = 4u << 20;

std::atomic<int> g_loaded{0};
std::atomic<bool> g_loader_lock_lost{false};  // loader_lock_lost()
std::atomic<int> g_builds{0};

// This process's folder for generated sources and libraries (mode 0700, made once, removed at
// exit; named with the process id, so that the next warpscope removes it when this one was
// killed); each build's files are deleted as soon as they are loaded or have failed.
const std::string& work_dir(std::string& error) {
  static std::string dir;
  static std::string why;
  static std::once_flag once;
  std::call_once(once, [] {
    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec) base = "/tmp";
    remove_orphaned_build_folders(base.string());
    std::string templ = (base / ("warpscope-build-" + std::to_string(getpid()) + "-XXXXXX")).string();
    if (char* made = mkdtemp(templ.data())) {
      dir = made;
      if (std::getenv("WARPSCOPE_KEEP_BUILD")) return;  // kept for reading, with the folder
      std::atexit([] {
        std::error_code e;
        fs::remove_all(dir, e);
      });
    } else {
      why = "cannot make a build folder in " + base.string() + " (" + std::strerror(errno) + ")";
    }
  });
  error = why;
  return dir;
}

// The directive's file name and whether it was quoted, or why it cannot be read before compiling.
struct IncludeName {
  std::string name, problem;
  bool quoted = false;
};
std::optional<IncludeName> include_name(const std::string& text, size_t at, size_t eol) {
  size_t p = at + 8;  // after "#include"
  while (p < eol && (text[p] == ' ' || text[p] == '\t')) ++p;
  if (p >= eol) return std::nullopt;
  const char open = text[p];
  if (open != '"' && open != '<') {
    if (!std::isalpha(static_cast<unsigned char>(open)) && open != '_') return std::nullopt;
    return IncludeName{"", "#include of a macro (" + text.substr(p, std::min<size_t>(eol - p, 40)) +
                               "): warpscope reads a kernel file's headers before it compiles the file, so the "
                               "directive must name its file (#include \"file.h\" or #include <file>)"};
  }
  const size_t end = text.find(open == '"' ? '"' : '>', p + 1);
  if (end == std::string::npos || end > eol) return std::nullopt;
  return IncludeName{text.substr(p + 1, end - p - 1), "", open == '"'};
}

// Adds to `key` the path and text of every header `text` includes with quotes that is found beside
// it (in `dir`), and of the headers those include, at most 64 of them. Returns "" or why a header
// cannot be read: not a regular file (a FIFO would block the compiler and Clang's parser forever,
// /dev/zero fill the memory), over 16 MiB, or named by a macro. A name that is absolute or climbs
// out with ".." could land anywhere, so every place the compilers would look for it is checked.
std::string local_headers(const std::string& text, const fs::path& dir, std::string& key, int depth = 0,
                          std::vector<fs::path>* seen = nullptr) {
  std::vector<fs::path> mine;
  if (!seen) seen = &mine;
  for (size_t at = 0; (at = text.find("#include", at)) != std::string::npos;) {
    const size_t eol = std::min(text.find('\n', at), text.size());
    size_t bol = text.rfind('\n', at);
    bol = bol == std::string::npos ? 0 : bol + 1;
    const bool directive = text.find_first_not_of(" \t", bol) >= at;  // not in a comment or string
    const std::optional<IncludeName> inc = directive ? include_name(text, at, eol) : std::nullopt;
    at = eol;
    if (!inc) continue;
    if (!inc->problem.empty()) return inc->problem;
    const std::string& name = inc->name;
    std::error_code ec;
    const fs::path as_given(name);
    const bool climbs = as_given.is_absolute() || name.find("..") != std::string::npos;
    if (climbs) {
      std::vector<fs::path> places = {dir / as_given, fs::path("/usr/include") / as_given,
                                      fs::path("/usr/local/include") / as_given};
      for (const std::string& d : toolchain().includes) places.push_back(fs::path(d) / as_given);
      for (const fs::path& place : places)
        if (fs::exists(place, ec) && !fs::is_regular_file(place, ec))
          return "#include \"" + name + "\": " + place.lexically_normal().string() +
                 " is not a regular file (a device, a FIFO, a socket or a folder), so it is not read";
    }
    if (!inc->quoted) continue;
    const fs::path header = as_given.is_absolute() ? as_given : dir / as_given;
    if (!fs::exists(header, ec)) continue;  // the project's headers: the program stamp covers them
    const fs::path canon = fs::weakly_canonical(header, ec);
    if (std::find(seen->begin(), seen->end(), canon) != seen->end() || seen->size() >= 64 || depth > 16) continue;
    seen->push_back(canon);
    std::string body, err;
    if (!read_file(canon, body, err, 16u << 20)) return "#include \"" + name + "\": " + err;
    key += "\n" + canon.string() + "\n" + body;
    if (std::string why = local_headers(body, canon.parent_path(), key, depth + 1, seen); !why.empty()) return why;
  }
  return {};
}

bool read_text(const std::string& path, std::string& text, std::string& error) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return error = "no such file", false;
  if (!fs::is_regular_file(st)) return error = "not a regular file", false;
  const uint64_t size = fs::file_size(path, ec);
  if (ec) return error = ec.message(), false;
  if (size > kMaxFileBytes) return error = "the file has " + std::to_string(size) + " bytes; a kernel file may have at most 4 MiB", false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return error = std::string("cannot read it (") + std::strerror(errno) + ")", false;
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  if (text.find('\0') != std::string::npos) return error = "it holds a NUL byte: not a C++ source file", false;
  return true;
}

// ---- The build cache -----------------------------------------------------------------------
// A library is kept under a hash of everything that made it: the generated source (the file and
// its description), the compiler and its arguments, and this program's own file (a rebuilt
// warpscope may lay out its types differently). Opening the same file again, in the viewer or
// in another process, loads it without compiling. At most kCacheEntries libraries are kept.
constexpr size_t kCacheEntries = 64;

uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string cache_dir() {
  std::string base;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) base = x;
  else if (const char* h = std::getenv("HOME"); h && *h) base = std::string(h) + "/.cache";
  else return {};
  const std::string dir = base + "/warpscope/kernel-builds";
  std::error_code ec;
  fs::create_directories(dir, ec);
  return ec ? std::string() : dir;
}

// What a build depends on besides its own text: this program (the headers it was built with),
// and the prelude's headers, which only the generated code includes, read from the source tree
// (edited there, they change no binary).
std::string program_stamp() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  auto stamp = [&](const fs::path& f) {
    return f.string() + ":" + std::to_string(fs::file_size(f, ec)) + ":" +
           std::to_string(fs::last_write_time(f, ec).time_since_epoch().count());
  };
  std::string s = stamp(exe);
  for (const std::string& inc : toolchain().includes)
    for (const char* h : {"ws/kernel_file/prelude.h", "ws/kernel_file/driver_support.h"})
      if (fs::is_regular_file(fs::path(inc) / h, ec)) s += "\n" + stamp(fs::path(inc) / h);
  return s;
}

// Keeps the newest kCacheEntries libraries (and their logs).
void prune_cache(const std::string& dir) {
  std::vector<std::pair<fs::file_time_type, fs::path>> libs;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".so") libs.emplace_back(fs::last_write_time(e.path(), ec), e.path());
  if (libs.size() <= kCacheEntries) return;
  std::sort(libs.begin(), libs.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t k = kCacheEntries; k < libs.size(); ++k) {
    fs::remove(libs[k].second, ec);
    fs::path log = libs[k].second;
    fs::remove(log.replace_extension(".log"), ec);
  }
}

// The prelude precompiled (GCC): a build then parses only the file and its driver (1.5 s instead
// of 2.2 s for a small kernel on a two-core machine). Made once per compiler, flags and program,
// in the cache (about 90 MB; the newest two are kept). Returns the folder to put first on the
// include path, or "" (no cache, not GCC, or it failed: builds then parse the headers).
std::string precompiled_prelude(const Toolchain& tc, const std::vector<std::string>& flags, const std::atomic<bool>* cancel) {
  const std::string cache = cache_dir();
  if (cache.empty() || !tc.gcc) return {};
  std::string key_text = program_stamp() + "\n" + tc.cxx;
  for (const std::string& a : flags) key_text += "\n" + a;
  char key[32];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(fnv1a(key_text)));
  const std::string dir = cache + "/pch-" + key;
  const std::string gch = dir + "/ws/kernel_file/prelude.h.gch";
  static std::mutex mutex;  // one process makes it once
  std::lock_guard lock(mutex);
  std::error_code ec;
  if (fs::is_regular_file(gch, ec)) return dir;
  fs::create_directories(dir + "/ws/kernel_file", ec);
  if (ec) return {};
  std::string header;
  for (const std::string& inc : tc.includes)
    if (fs::is_regular_file(inc + "/ws/kernel_file/prelude.h", ec)) header = inc + "/ws/kernel_file/prelude.h";
  if (header.empty()) return {};
  const std::string tmp = gch + ".tmp" + std::to_string(getpid());
  std::vector<std::string> argv = {tc.cxx};
  for (const std::string& a : flags)
    if (a != "-shared") argv.push_back(a);
  argv.insert(argv.end(), {"-x", "c++-header", header, "-o", tmp});
  std::string error;
  const CompilerRun r = run_compiler(argv, 300, cancel, work_dir(error));
  if (!r.ok) {
    fs::remove(tmp, ec);
    return {};
  }
  fs::rename(tmp, gch, ec);
  // The older ones go (each was made for another build of warpscope).
  std::vector<std::pair<fs::file_time_type, fs::path>> dirs;
  for (const auto& e : fs::directory_iterator(cache, ec))
    if (e.is_directory() && e.path().filename().string().rfind("pch-", 0) == 0)
      dirs.emplace_back(fs::last_write_time(e.path(), ec), e.path());
  std::sort(dirs.begin(), dirs.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t k = 2; k < dirs.size(); ++k) fs::remove_all(dirs[k].second, ec);
  return ec ? std::string() : dir;
}

std::string demangled(const std::string& dl_error) {
  // "...: undefined symbol: _ZN2ws..." -> its C++ name.
  const std::string key = "undefined symbol: ";
  const size_t at = dl_error.find(key);
  if (at == std::string::npos) return dl_error;
  std::string sym = dl_error.substr(at + key.size());
  int status = 0;
  char* name = abi::__cxa_demangle(sym.c_str(), nullptr, nullptr, &status);
  std::string out = dl_error.substr(0, at + key.size()) + (status == 0 && name ? name : sym);
  std::free(name);
  return out;
}

// The compiler names the file's functions with the build's namespace ("ws_file_<digest>_emu::k"):
// the user wrote "k".
std::string without_build_namespace(std::string m) {
  for (size_t at; (at = m.find("ws_file_")) != std::string::npos;) {
    const size_t end = m.find("::", at);
    if (end == std::string::npos || end - at > 48) break;
    m.erase(at, end + 2 - at);
  }
  return m;
}

// Whether a diagnostic's file is none of: the kernel's folder, the headers of the build (the
// project's, the compiler's, the system's, CUDA's), the driver.
bool outside_the_build(const std::string& file, const std::string& kernel) {
  if (file.empty() || file.find(" (warpscope driver)") != std::string::npos) return false;
  std::error_code ec;
  const fs::path f = fs::weakly_canonical(file, ec);
  auto under = [&](const fs::path& dir) {
    const fs::path d = fs::weakly_canonical(dir, ec);
    auto it = std::mismatch(d.begin(), d.end(), f.begin(), f.end());
    return !d.empty() && it.first == d.end();
  };
  if (under(fs::path(kernel).parent_path())) return false;
  for (const std::string& inc : toolchain().includes)
    if (under(inc)) return false;
  for (const char* dir : {"/usr/include", "/usr/lib/gcc", "/usr/local/include", "/usr/local/cuda", "/usr/lib/llvm-14"})
    if (under(dir)) return false;
  return true;
}

// The compiler's diagnostics: the user's lines first, the driver's own only when nothing else
// explains a failure; what a file outside the build quoted is not shown
// (`#include "/etc/passwd"`: a grader's report must not carry it).
void add_compiler_diagnostics(const CompilerRun& run, const std::string& kernel, Flavor f, Build& b) {
  std::vector<BuildDiagnostic> all = parse_compiler_output(run.output);
  for (BuildDiagnostic& x : all) {
    x.message = without_build_namespace(x.message);
    if (outside_the_build(x.file, kernel))
      x.message = "an error in " + x.file + ", a file outside the kernel's folder and the compiler's headers: its text is not shown";
  }
  size_t mine = 0;
  for (const BuildDiagnostic& x : all)
    if (x.file == kernel) b.diagnostics.push_back(x), ++mine;
  if (run.ok || mine > 0) return;
  for (const BuildDiagnostic& x : all) b.diagnostics.push_back(x);
  if (all.empty()) {
    const std::string head = run.output.substr(0, 2000);
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, "", 0, 0,
                             std::string(to_string(f)) + " build: " + run.failure + (head.empty() ? "" : ":\n" + head)});
  }
}

// dlopen, which runs the build's static initialisers; the file is removed after (`remove`: the
// mapping stays). Null, with the loader's reason in `b`, when it does not load.
void* load_library(const std::string& lib, bool remove, Flavor f, Build& b) {
  std::error_code ec;
  // glibc declares dlopen noexcept, but a static initialiser may throw through it: called through
  // a pointer the compiler cannot see through, the call may throw, and the catch below holds.
  static void* (*volatile const open_library)(const char*, int) = ::dlopen;
  void* h = nullptr;
  try {
    h = open_library(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  } catch (...) {
    // A static initialiser threw through the loader, which keeps its lock, held by this thread:
    // another thread that loads a library or starts a thread_local's life would wait forever.
    // The process is done for (the run process ends after answering: loader_lock_lost).
    g_loader_lock_lost = true;
    if (remove) fs::remove(lib, ec);
    throw;
  }
  if (remove) fs::remove(lib, ec);
  if (!h) {
    const char* why = dlerror();
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, "", 0, 0,
                             std::string("cannot load the ") + to_string(f) + " build: " + demangled(why ? why : "unknown error")});
    return nullptr;
  }
  ++g_loaded;
  return h;
}

// Compiles and loads one flavour; adds its runner (and, for the emulator, spec and validate) to `entry`.
bool build_flavor(const Description& d, const std::string& text, Flavor f, const BuildOptions& opt, const std::string& unique,
                  Build& b) {
  const Toolchain& tc = toolchain();
  std::string error;
  const std::string& dir = work_dir(error);
  if (!error.empty()) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, "", 0, 0, error});
    return false;
  }
  const bool gpu = f != Flavor::Emu;
  if (gpu && tc.nvcc.empty()) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, "", 0, 0,
                             "this warpscope was built without CUDA: kernel files run on the emulator only"});
    return false;
  }
  const std::string tu = translation_unit(d, text, f, unique.substr(0, 16));  // (the text's digest)
  std::vector<std::string> argv = {gpu ? tc.nvcc : tc.cxx};
  for (const std::string& x : gpu ? tc.nvcc_flags : tc.cxx_flags) argv.push_back(x);
  if (f == Flavor::GpuTrace) argv.push_back("--maxrregcount=32");
  if (!gpu) {
    std::vector<std::string> pch_flags(argv.begin() + 1, argv.end());
    for (const std::string& inc : tc.includes) pch_flags.push_back("-I" + inc);
    if (std::string pch = precompiled_prelude(tc, pch_flags, opt.cancel); !pch.empty()) argv.push_back("-I" + pch);
  }
  for (const std::string& inc : tc.includes) argv.push_back("-I" + inc);
  argv.push_back("-I" + fs::path(d.path).parent_path().string());
  // The cache: the same source, compiler and program built this library before.
  std::string key_text = tu + "\n" + program_stamp() + "\n" + opt.device;
  for (const std::string& a : argv) key_text += "\n" + a;
  // Every header it includes from beside it ("..."), and theirs in turn: an edit to any one is a
  // new build. One that is not a regular file (a FIFO, /dev/zero) is refused, never read.
  if (std::string why = local_headers(text, fs::path(d.path).parent_path(), key_text); !why.empty()) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, d.path, 0, 0, why});
    return false;
  }
  char key[32];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(fnv1a(key_text)));
  const std::string cache = cache_dir();
  // (WARPSCOPE_NO_BUILD_CACHE=1: always compile, e.g. to time a build; the precompiled prelude stays.)
  const char* no_cache = std::getenv("WARPSCOPE_NO_BUILD_CACHE");
  const std::string cached =
      cache.empty() || (no_cache && *no_cache) ? std::string() : cache + "/" + key + "-" + to_string(f) + ".so";
  const std::string stem = dir + "/k" + unique + "_" + to_string(f);
  const std::string src = stem + (gpu ? ".cu" : ".cpp");
  std::string lib = stem + ".so";
  std::error_code ec;
  const bool keep = std::getenv("WARPSCOPE_KEEP_BUILD") != nullptr;
  CompilerRun run;
  if (!cached.empty() && fs::is_regular_file(cached, ec)) {
    run.ok = true;
    std::ifstream log(fs::path(cached).replace_extension(".log"));
    std::stringstream ss;
    ss << log.rdbuf();
    run.output = ss.str();
    fs::last_write_time(cached, fs::file_time_type::clock::now(), ec);  // recently used
    fs::copy_file(cached, lib, fs::copy_options::overwrite_existing, ec);
    if (ec) lib = cached;
  } else {
    {
      std::ofstream out(src, std::ios::binary);
      out << tu;
      if (!out.flush()) {
        b.diagnostics.push_back({BuildDiagnostic::Severity::Error, "", 0, 0, "cannot write " + src});
        return false;
      }
    }
    argv.insert(argv.end(), {"-o", lib, src});
    b.from_cache = false;
    run = run_compiler(argv, opt.timeout_seconds, opt.cancel, dir);
    if (!keep) fs::remove(src, ec);
    if (run.ok && !cached.empty()) {
      // Into the cache through a temporary name: another warpscope may be reading it.
      const std::string tmp = cached + ".tmp" + std::to_string(getpid());
      fs::copy_file(lib, tmp, fs::copy_options::overwrite_existing, ec);
      if (!ec) {
        std::ofstream(fs::path(cached).replace_extension(".log")) << run.output;
        fs::rename(tmp, cached, ec);
        if (ec) fs::remove(tmp, ec);
        prune_cache(cache);
      }
    }
  }
  add_compiler_diagnostics(run, d.path, f, b);
  if (!run.ok) {
    b.cancelled = run.cancelled;
    fs::remove(lib, ec);
    return false;
  }
  if (g_loaded.load() >= kMaxLoadedBuilds) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, "", 0, 0,
                             "this warpscope has loaded " + std::to_string(kMaxLoadedBuilds) +
                                 " builds of kernel files (each stays loaded while its code may run): restart it to load more"});
    fs::remove(lib, ec);
    return false;
  }
  if (f == Flavor::Emu && opt.on_phase) opt.on_phase("load");
  void* h = load_library(lib, !keep && lib != cached, f, b);
  if (!h) return false;
  auto abi = reinterpret_cast<unsigned (*)()>(dlsym(h, kAbiSymbol));
  auto entry = reinterpret_cast<void (*)(CatalogEntry*)>(dlsym(h, entry_symbol(f).c_str()));
  if (!abi || !entry || abi() != abi_stamp()) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, "", 0, 0,
                             "the build's headers do not match this warpscope (rebuild warpscope from the source tree it names)"});
    dlclose(h);  // (none of its code ran)
    --g_loaded;
    return false;
  }
  CatalogEntry e;
  try {
    entry(&e);
  } catch (const std::exception& x) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, d.path, d.line, 0, std::string("the kernel's spec failed: ") + x.what()});
    return false;
  } catch (...) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, d.path, d.line, 0, "the kernel's spec threw something"});
    return false;
  }
  // What the catalog needs of a spec (an entry struct of the file may leave it out).
  std::string missing;
  if (e.spec.name.empty()) missing = "name";
  else if (e.spec.variants.empty()) missing = "variant";
  else if (e.spec.dtypes.empty()) missing = "dtype";
  else if (e.spec.default_block == 0 || e.spec.default_block > 1024) missing = "default_block of 1 to 1024";
  if (!missing.empty()) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, d.path, d.line, 0,
                             "the entry's spec() sets no " + missing + " (the catalog needs one)"});
    return false;
  }
  if (f == Flavor::Emu) {
    b.entry.spec = std::move(e.spec);
    b.entry.validate = std::move(e.validate);
  }
  for (auto& [kind, runner] : e.runners) b.entry.runners[kind] = std::move(runner);
  return true;
}

// BuildOptions::gpu_check: nvcc compiles the two GPU units for the build's architecture (no GPU
// needed, nothing loaded): gpu-fast from the file as written, gpu-trace from its plain CUDA
// rewrite. Their errors come back as warnings.
CompilerRun compile_only(const Description& d, const std::string& text, Flavor flavor, const BuildOptions& opt,
                         const std::string& unique, const std::string& dir) {
  const Toolchain& tc = toolchain();
  const std::string stem = dir + "/k" + unique + "_check_" + to_string(flavor);
  const std::string src = stem + ".cu", obj = stem + ".o";
  {
    std::ofstream out(src, std::ios::binary);
    out << translation_unit(d, text, flavor, unique.substr(0, 16));
  }
  std::vector<std::string> argv = {tc.nvcc};
  for (const std::string& x : tc.nvcc_flags) {
    if (x == "-shared" || x == "-cudart" || x == "shared") continue;
    argv.push_back(x == "-arch=native" ? std::string("-arch=") + WS_KERNEL_FILE_CHECK_ARCH : x);
  }
  if (flavor == Flavor::GpuTrace) argv.push_back("--maxrregcount=32");
  for (const std::string& inc : tc.includes) argv.push_back("-I" + inc);
  argv.push_back("-I" + fs::path(d.path).parent_path().string());
  argv.insert(argv.end(), {"-c", "-o", obj, src});
  CompilerRun run = run_compiler(argv, opt.timeout_seconds, opt.cancel, dir);
  std::error_code ec;
  fs::remove(src, ec);
  fs::remove(obj, ec);
  return run;
}

void check_gpu_build(const Description& d, const std::string& text, const std::string& plain_text,
                     const BuildOptions& opt, const std::string& unique, Build& b) {
  std::string error;
  const std::string& dir = work_dir(error);
  if (toolchain().nvcc.empty() || !error.empty()) return;
  CompilerRun trace;
  std::thread t([&] { trace = compile_only(d, plain_text, Flavor::GpuTrace, opt, unique, dir); });
  const CompilerRun fast = compile_only(d, text, Flavor::GpuFast, opt, unique, dir);
  t.join();
  for (const CompilerRun* run : {&fast, static_cast<const CompilerRun*>(&trace)}) {
    if (run->ok || run->cancelled) continue;
    b.gpu_check_failed = true;
    const std::string which = run == &fast ? "GPU build (nvcc)" : "GPU build (nvcc, gpu-trace)";
    size_t added = 0;
    for (BuildDiagnostic x : parse_compiler_output(run->output))
      if (x.severity == BuildDiagnostic::Severity::Error) {
        x.severity = BuildDiagnostic::Severity::Warning;
        x.message = which + ": " + without_build_namespace(x.message);
        b.diagnostics.push_back(std::move(x));
        ++added;
      }
    if (added == 0) b.diagnostics.push_back({BuildDiagnostic::Severity::Warning, "", 0, 0, which + ": " + run->failure});
    if (run == &fast) break;  // (the same error twice says nothing more)
  }
}

}  // namespace

size_t remove_orphaned_build_folders(const std::string& base) {
  size_t removed = 0;
  std::error_code ec;
  const uid_t me = getuid();
  for (fs::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::string prefix = "warpscope-build-";
    if (name.rfind(prefix, 0) != 0) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != me) continue;
    // "warpscope-build-<pid>-XXXXXX": its process has ended. (Folders of older warpscopes,
    // without a pid, once a day old.)
    const std::string rest = name.substr(prefix.size());
    const size_t dash = rest.find('-');
    bool orphan = false;
    if (dash != std::string::npos && dash > 0 && rest.find_first_not_of("0123456789") == dash) {
      const long pid = std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
      orphan = pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
    } else if (dash == std::string::npos && rest.size() == 6) {
      orphan = std::time(nullptr) - st.st_mtime > 24 * 3600;
    }
    if (!orphan) continue;
    std::error_code e;
    if (fs::remove_all(it->path(), e) > 0 && !e) ++removed;
  }
  return removed;
}

Build build(const std::string& path, const BuildOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  Build b;
  std::error_code ec;
  b.path = fs::weakly_canonical(fs::absolute(path, ec), ec).string();
  if (b.path.empty()) b.path = path;
  auto finish = [&](bool ok) {
    b.ok = ok;
    b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::stable_partition(b.diagnostics.begin(), b.diagnostics.end(),
                          [](const BuildDiagnostic& x) { return x.severity == BuildDiagnostic::Severity::Error; });
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f s", b.seconds);
    if (ok) {
      std::string flavors = opt.emu ? "emu" : "";
      if (opt.gpu) flavors += std::string(flavors.empty() ? "" : ", ") + "gpu-fast, gpu-trace";
      b.summary = (b.from_cache ? "loaded " + b.name + " (" + flavors + ") from the build cache in " : "built " + b.name + " (" + flavors + ") in ") + secs;
    } else {
      b.summary = b.cancelled ? "build stopped: the file changed again"
                  : b.diagnostics.empty() ? "build failed" : to_text(b.diagnostics.front());
    }
    return b;
  };
  std::string error;
  if (opt.text) {
    b.text = *opt.text;
  } else if (!read_text(b.path, b.text, error)) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, b.path, 0, 0, "cannot open the kernel file: " + error});
    return finish(false);
  }
  // The file's code runs only where the run process is, when there is one (remote.h).
  if (isolation::runs_kernel_files()) return build_in_run_process(b.path, b.text, opt);
  std::optional<Description> d = parse_description(b.path, b.text, b.diagnostics);
  if (!d) return finish(false);
  b.name = d->name;
  b.name_given = d->name_given;
  if (!toolchain().missing.empty()) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, "", 0, 0, toolchain().missing});
    return finish(false);
  }
  // Names of this build's namespace and files: the same text gives the same names (so the cache
  // can find it); the process id and a count keep two builds' files apart.
  char digest[32];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(fnv1a(b.path + "\n" + b.text)));
  const std::string unique = std::string(digest) + "_" + std::to_string(getpid()) + "_" + std::to_string(++g_builds);
  // Plain CUDA is instrumented for the builds that record (the emulator, gpu-trace); gpu-fast
  // compiles the file as written.
  // (Its headers are looked at first: Clang's parser reads them too.)
  std::string headers;
  if (std::string why = local_headers(b.text, fs::path(b.path).parent_path(), headers); !why.empty()) {
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, b.path, 0, 0, why});
    return finish(false);
  }
  const plain_cuda::Rewritten plain = plain_cuda::rewrite(b.text, b.path);
  for (const plain_cuda::Refusal& r : plain.refusals)
    b.diagnostics.push_back({BuildDiagnostic::Severity::Error, b.path, r.line, r.column, r.message});
  if (!plain.refusals.empty()) return finish(false);
  bool ok = true;
  if (opt.emu || opt.gpu) ok = build_flavor(*d, plain.text, Flavor::Emu, opt, unique, b);  // the spec comes from here
  if (ok && opt.gpu) {
    if (opt.on_phase) opt.on_phase("compile");
    // The two GPU builds at once: each is one nvcc run of tens of seconds.
    Build trace_part;
    trace_part.path = b.path;
    bool trace_ok = false;
    std::thread t([&] { trace_ok = build_flavor(*d, plain.text, Flavor::GpuTrace, opt, unique, trace_part); });
    const bool fast_ok = build_flavor(*d, b.text, Flavor::GpuFast, opt, unique, b);
    t.join();
    for (BuildDiagnostic& x : trace_part.diagnostics) b.diagnostics.push_back(std::move(x));
    for (auto& [kind, runner] : trace_part.entry.runners) b.entry.runners[kind] = std::move(runner);
    b.cancelled = b.cancelled || trace_part.cancelled;
    ok = fast_ok && trace_ok;
  }
  if (ok && opt.gpu_check && !opt.gpu) check_gpu_build(*d, b.text, plain.text, opt, unique, b);
  if (ok && b.entry.spec.name.empty()) ok = false;
  if (ok && d->entry.size()) b.name = b.entry.spec.name;
  if (ok) {
    b.entry.spec.file = b.path;
    if (b.entry.spec.source.empty()) b.entry.spec.source = b.path;
  }
  return finish(ok);
}

bool loader_lock_lost() { return g_loader_lock_lost.load(); }

std::string install(Build& b, Catalog& catalog) {
  if (!b.ok) return "the build failed: " + b.summary;
  if (const CatalogEntry* old = catalog.find(b.entry.spec.name); old && old->spec.file.empty() && !b.name_given) {
    b.entry.spec.name += "_file";
    b.name = b.entry.spec.name;
  }
  // (A name another kernel file had is taken over: the viewer has one file open, the command line
  // one file per run.)
  if (const CatalogEntry* old = catalog.find(b.entry.spec.name); old && old->spec.file.empty())
    return "the name '" + b.entry.spec.name + "' is a built-in kernel's: give the file's kernel another (name = \"...\" in its launch description)";
  register_source(kernel_relative_path(b.path), b.text);
  catalog.put(b.entry);
  return {};
}

std::string installed(const Catalog& catalog, const std::string& path, const std::string& text, bool gpu) {
  for (const CatalogEntry& e : catalog.entries())
    if (e.spec.file == path && (!gpu || e.runners.count(BackendKind::GpuFast)) &&
        source_text(kernel_relative_path(path)) == text)
      return e.spec.name;
  return {};
}

std::string load(const std::string& path, Catalog& catalog, const BuildOptions& options, std::string& error) {
  // The catalog already runs this file as it is now (same text), with the backends asked: that
  // build (a lesson read again, each of its steps naming one file, loads nothing more).
  std::error_code ec;
  const std::string canonical = fs::weakly_canonical(fs::absolute(path, ec), ec).string();
  std::string text, why;
  if (read_text(canonical, text, why))
    if (std::string name = installed(catalog, canonical, text, options.gpu); !name.empty()) return name;
  Build b = build(path, options);
  if (!b.ok) {
    error.clear();
    for (const BuildDiagnostic& d : b.diagnostics)
      if (d.severity != BuildDiagnostic::Severity::Note) error += (error.empty() ? "" : "\n") + to_text(d);
    if (error.empty()) error = b.summary;
    return {};
  }
  if (std::string why = install(b, catalog); !why.empty()) {
    error = why;
    return {};
  }
  return b.name;
}

}  // namespace ws::kernel_file
