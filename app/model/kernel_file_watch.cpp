#include "model/kernel_file_watch.h"

#include "ws/kernel_file/description.h"
#include "ws/util/atomic_file.h"

#include <cstdio>

#include "model/device_probe.h"
#include "ws/kernel_file/compiler.h"
#include "model/session.h"

namespace ws::app {

namespace fs = std::filesystem;

KernelFileWatch::~KernelFileWatch() { stop_worker(); }

void KernelFileWatch::stop_worker() {
  if (!worker_) return;
  worker_->cancel = true;
  if (worker_->thread.joinable()) worker_->thread.join();
  worker_.reset();
}

void KernelFileWatch::open(const std::string& path, std::string description_from) {
  stop_worker();
  description_from_ = std::move(description_from);
  std::error_code ec;
  path_ = fs::weakly_canonical(fs::absolute(path, ec), ec).string();
  if (path_.empty()) path_ = path;
  last_ = {};
  last_failed_ = false;
  kernel_.clear();
  gpu_built_ = gpu_wanted_ = check_wanted_ = false;
  file_changed();  // remember the file's time and size as they are now
  start(false);
}

void KernelFileWatch::close() {
  stop_worker();
  description_from_.clear();
  path_.clear();
  last_ = {};
  kernel_.clear();
  last_failed_ = false;
}

void KernelFileWatch::rebuild() {
  if (!is_open()) return;
  stop_worker();
  gpu_built_ = gpu_wanted_ = check_wanted_ = false;
  start(false);
}

void KernelFileWatch::start(bool gpu, bool check) {
  auto w = std::make_unique<Worker>();
  w->gpu = gpu;
  w->check = check;
  Worker* raw = w.get();
  const std::string path = path_;
  const std::string device = gpu ? probe_backend() : std::string();
  raw->thread = std::thread([raw, path, device, donor = description_from_] {
    kernel_file::BuildOptions o;
    o.gpu = raw->gpu;
    o.gpu_check = raw->check;
    o.cancel = &raw->cancel;
    o.device = device;
    // (What cannot be read so is built from the path: the build says why it cannot read it.)
    std::string error;
    const std::string text = donor.empty() ? std::string() : kernel_file::read_with_description_of(path, donor, error);
    if (!text.empty()) o.text = &text;
    try {
      raw->result = kernel_file::build(path, o);
    } catch (...) {  // (a static initialiser of the user's file that throws, a full disk...)
      raw->result = {};
      raw->result.path = path;
      raw->result.summary = "the build stopped with an exception";
      raw->result.diagnostics.push_back({kernel_file::BuildDiagnostic::Severity::Error, path, 0, 0, raw->result.summary});
    }
    raw->done = true;
  });
  worker_ = std::move(w);
}

bool KernelFileWatch::file_changed() {
  std::error_code ec;
  const auto t = fs::last_write_time(path_, ec);
  const uintmax_t size = ec ? 0 : fs::file_size(path_, ec);
  const bool changed = t != mtime_ || size != size_;
  mtime_ = t;
  size_ = size;
  return changed;
}

void KernelFileWatch::poll(Session& s) {
  if (!is_open()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_check_ > std::chrono::milliseconds(300)) {
    last_check_ = now;
    if (file_changed()) {
      // A save: whatever is being built is out of date.
      stop_worker();
      gpu_built_ = gpu_wanted_ = check_wanted_ = false;
      start(false);
    }
  }
  if (worker_ && worker_->done) {
    worker_->thread.join();
    std::unique_ptr<Worker> w = std::move(worker_);
    if (w->result.cancelled) return;
    if (w->check) {
      // nvcc's view of the build that runs (the emulator's, already in): its complaints only.
      if (w->result.ok && w->result.gpu_check_failed) {
        for (auto& d : w->result.diagnostics)
          if (d.message.rfind("GPU build (nvcc): ", 0) == 0) last_.diagnostics.push_back(d);
        last_.gpu_check_failed = true;
        s.notify(fs::path(path_).filename().string() + ": runs on the emulator, but nvcc would refuse it (see the Kernel file panel)",
                 true);
      }
      return;
    }
    ++builds_;
    kernel_file::Build& b = w->result;
    last_failed_ = !b.ok;
    if (b.ok) {
      if (std::string why = kernel_file::install(b, Catalog::instance()); !why.empty()) {
        b.ok = false;
        last_failed_ = true;
        b.diagnostics.insert(b.diagnostics.begin(), {kernel_file::BuildDiagnostic::Severity::Error, b.path, 0, 0, why});
        b.summary = why;
      } else {
        const bool first = kernel_ != b.name;
        kernel_ = b.name;
        gpu_built_ = w->gpu;
        rerun_ = true;
        // The same launch again where it is this kernel's (variant, size, block), else its defaults.
        RunRequest r = s.last_request();
        const CatalogEntry* e = Catalog::instance().find(kernel_);
        bool keep = !first && r.kernel == kernel_ && e && e->spec.variant(r.config.variant);
        // Parameters the new build still has, in its ranges (an edit may rename or narrow them).
        if (keep)
          for (const auto& [name, value] : r.config.params)
            if (const ParamSpec* p = e->spec.param(name); !p || value < p->min || value > p->max) keep = false;
        if (!keep) {
          r = default_request();  // (its recorded blocks)
          r.kernel = kernel_;
          r.config.variant.clear();
          r.config.n = 0;
          r.config.block = {0, 1, 1};
        }
        if (!e || !e->runners.count(r.backend)) r.backend = BackendKind::Emu;
        s.request(std::move(r));
        if (!w->gpu && !kernel_file::toolchain().nvcc.empty()) (cuda_device_present() ? gpu_wanted_ : check_wanted_) = true;
      }
    }
    if (w->gpu && !b.ok) gpu_wanted_ = false;  // (the emulator's build stays; the panel says why)
    last_ = std::move(b);
    // The status bar says it too: a failed build's first error is readable even where the panel is small.
    std::string first_error;
    for (const auto& d : last_.diagnostics)
      if (d.severity == kernel_file::BuildDiagnostic::Severity::Error) {
        first_error = (d.file == last_.path && d.line ? "line " + std::to_string(d.line) + ": " : "") + d.message;
        break;
      }
    s.notify(last_failed_ ? fs::path(path_).filename().string() + " does not build: " + first_error : status(), last_failed_);
  }
  if (!worker_ && gpu_wanted_ && !gpu_built_) {
    gpu_wanted_ = false;
    start(true);
  }
  if (!worker_ && check_wanted_) {
    check_wanted_ = false;
    start(false, true);
  }
}

bool KernelFileWatch::wait(Session& s, std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  poll(s);
  while (worker_ && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    poll(s);
  }
  return !worker_;
}

std::string KernelFileWatch::status() const {
  if (!is_open()) return "no kernel file open";
  const std::string name = fs::path(path_).filename().string();
  if (worker_ && worker_->check) return name + ": built; nvcc is checking it (no GPU here)...";
  if (worker_) return std::string(worker_->gpu ? "building " + name + " for the GPU" : "building " + name) + "...";
  if (builds_ == 0) return "opening " + name;
  if (last_failed_) {
    size_t errors = 0;
    for (const auto& d : last_.diagnostics) errors += d.severity == kernel_file::BuildDiagnostic::Severity::Error;
    return name + ": build failed (" + std::to_string(errors) + (errors == 1 ? " error" : " errors") + ")" +
           (kernel_.empty() ? "" : "; the last good build still runs");
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f s", last_.seconds);
  return name + (last_.from_cache ? ": loaded from the build cache" : std::string(": built in ") + secs) + (gpu_built_ ? " (emulator and GPU)" : "") +
         (last_.gpu_check_failed ? "; nvcc would refuse it (below)" : "") + "; saving it rebuilds";
}

KernelFileWatch& kernel_file_watch() {
  static KernelFileWatch w;
  return w;
}

void stop_kernel_file_watch() { kernel_file_watch().close(); }

}  // namespace ws::app
