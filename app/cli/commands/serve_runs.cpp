#include "serve_runs.h"

#include <atomic>

#include <CLI/CLI.hpp>
#include <signal.h>
#include <sched.h>
#include <sys/resource.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "model/device_probe.h"
#include "ws/emu/crash_report.h"
#include "ws/isolation/isolated_runs.h"
#include "ws/kernel_file/build.h"
#include "ws/kernel_file/remote.h"
#include "ws/run/catalog.h"
#include "ws/timing/run_process.h"

#if WS_HAVE_CUDA
#include "ws/gpu/device.h"
#endif

namespace ws::app {

namespace {

CLI::App* g_cmd = nullptr;
int g_fd = 3;
uint64_t g_confine_mib = 0;  // --confine MIB: a grader's run process (0: the viewer's)
bool g_confine_gpu = false;  // --confine-gpu: it times on the GPU (no address-space cap)

// A grader's run process serves one student's submission: it gets the least the platform gives
// cheaply. Address space, CPU time and file size are capped (no CUDA here: emulator runs only), no
// core file, at most 256 open files, and where the kernel lets a user make namespaces, a user and a
// network namespace of its own with no interface up (the code cannot reach the network, nor
// localhost) and at most 256 threads and processes: RLIMIT_NPROC counts the tasks of a user per
// user namespace (Linux 5.14 and later), so inside its own it bounds this process and what it
// starts, not the grader's other work. Done before any thread starts (unshare refuses a process
// with threads). One that times a submission on the GPU keeps its address space unbounded: CUDA
// reserves address space for the whole device, far beyond what it uses.
void confine(uint64_t mib, bool gpu) {
  const rlimit as{rlim_t(mib) << 20, rlim_t(mib) << 20};
  if (!gpu) ::setrlimit(RLIMIT_AS, &as);
  const rlimit fsize{rlim_t(1) << 30, rlim_t(1) << 30};  // (the build's precompiled header is ~90 MB)
  ::setrlimit(RLIMIT_FSIZE, &fsize);
  const rlimit files{256, 256};
  ::setrlimit(RLIMIT_NOFILE, &files);
  // CPU time, a bound behind the grader's wall-clock limit (which stops a submission first): half
  // an hour of one core, over all its threads, however it was kept from being stopped.
  const rlimit cpu{1800, 1800};
  ::setrlimit(RLIMIT_CPU, &cpu);
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
    std::fprintf(stderr,
                 "warpscope serve-runs: no namespace of its own (%s): the submission's code can reach the network, "
                 "and the number of processes it starts is not bounded\n",
                 std::strerror(errno));
    return;
  }
  const rlimit tasks{256, 256};
  ::setrlimit(RLIMIT_NPROC, &tasks);
}

// A fault in an emulated thread (a recursion past its stack, a pointer the emulator does not
// follow) ends this process as any crash does; first warpscope is told which thread it was and
// where it last stopped, to show beside the signal. (The handler runs once, on the thread's
// alternate stack: the emulator gives its threads one, since an overflowed stack has no room.)
std::atomic<bool> g_crashing{false};

void report_crash(int sig, siginfo_t* info, void*) {
  // The first thread that crashes speaks; another that crashes meanwhile (two workers' blocks
  // dividing by zero) waits for the end: two at once would interleave their frames, and a
  // handler reset by the first signal would end the process in the middle of the sentence.
  if (g_crashing.exchange(true)) {
    for (;;) ::pause();
  }
  const char* name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE" : sig == SIGILL ? "SIGILL" : "SIGABRT";
  char text[768];
  if (const std::size_t n = emu::describe_crash(info ? info->si_addr : nullptr, name, text, sizeof text))
    isolation::Server::say_last_words(text, n);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);  // (blocked until the handler returns, then the default action: the process ends by it)
}

void install_crash_report() {
  struct sigaction sa {};
  sa.sa_sigaction = report_crash;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &sa, nullptr);
}

// The catalog runs exactly `text` of the kernel file at `path`, with a GPU build when `backend`
// is a GPU one: the one already installed, else built (from the build cache, mostly: the viewer
// built the same text a moment ago).
std::string prepare_file(const std::string& path, const std::string& text, BackendKind backend) {
  Catalog& catalog = Catalog::instance();
  const bool gpu = backend != BackendKind::Emu;
  if (std::string name = kernel_file::installed(catalog, path, text, gpu); !name.empty()) return name;
  kernel_file::BuildOptions bo;
  bo.gpu = gpu;
  bo.device = gpu ? probe_backend() : std::string();
  bo.text = &text;
  kernel_file::Build b = kernel_file::build(path, bo);
  std::string error;
  if (b.ok) error = kernel_file::install(b, catalog);
  else
    for (const kernel_file::BuildDiagnostic& d : b.diagnostics)
      if (d.severity == kernel_file::BuildDiagnostic::Severity::Error) error += (error.empty() ? "" : "\n") + to_text(d);
  if (!b.ok && error.empty()) error = b.summary;
  if (!error.empty()) throw std::runtime_error("the run process could not build " + path + ": " + error);
  return b.name;
}

}  // namespace

void register_serve_runs_command(CLI::App& app) {
  g_cmd = app.add_subcommand("serve-runs", "warpscope's run process (started by warpscope itself)");
  g_cmd->group("");  // hidden from --help
  g_cmd->add_option("--fd", g_fd, "The socket to warpscope")->check(CLI::Range(0, 1 << 20));
  g_cmd->add_option("--confine", g_confine_mib, "A grader's run process: address space MIB, file size, files, no network")
      ->check(CLI::Range(uint64_t(256), uint64_t(1) << 22));
  g_cmd->add_flag("--confine-gpu", g_confine_gpu, "With --confine: it uses the GPU (no address-space cap)");
}

int run_serve_runs_if_selected() {
  if (!g_cmd || !g_cmd->parsed()) return -1;
  // A crash here (a kernel file's code, the driver) writes no core file: the message says how it
  // ended, and a core of a GPU process can be gigabytes.
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (g_confine_mib) confine(g_confine_mib, g_confine_gpu);
  // libclang (which parses plain CUDA here) would otherwise put its own crash handlers in front of
  // these, on the faulting stack, where an overflowed thread faults again before any report.
  ::setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1);
  install_crash_report();
  // Nothing outlives the warpscope that started it: a kernel in an endless loop is stopped by the
  // run's time limit while warpscope watches, and with warpscope when warpscope ends, killed too
  // (a watch on the parent, not PR_SET_PDEATHSIG, which fires when the *thread* that started
  // this process ends). The process group goes: what the code forked goes with it.
  // (The viewer's has no address-space or CPU-time rlimit: CUDA reserves address space for the
  // whole device, and the process serves a whole session's runs; the counted memory limit and the
  // per-run time limit are the bounds. A grader's, emulator only, is confined above.)
  std::thread([parent = ::getppid()] {
    while (::getppid() == parent) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ::kill(0, SIGKILL);
  }).detach();

  isolation::Server s;
  isolation::serve_runs(s, Catalog::instance(), prepare_file);
  s.on(isolation::Kind::BuildFile, [](const std::string& payload, const std::shared_ptr<std::atomic<bool>>& cancel) {
    return kernel_file::answer_build(payload, Catalog::instance(), cancel.get());
  });
  timing::serve_timing(s);
#if WS_HAVE_CUDA
  // After a fault that lost the CUDA context, a new process is cleaner than a reset one (some
  // machines refuse a new context until the process ends): answer, then end.
  gpu::end_process_on_sticky_errors();
#endif
  s.after_each([] {
    if (kernel_file::loader_lock_lost()) return false;  // (a static initialiser threw: build.h)
#if WS_HAVE_CUDA
    return gpu::usable() && gpu::reset_count() == 0;
#else
    return true;
#endif
  });
  return s.serve(g_fd);
}

}  // namespace ws::app
