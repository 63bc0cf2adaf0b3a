#include "ws/isolation/isolated_runs.h"

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>

#include "ws/isolation/wire.h"
#include "ws/trace/sources.h"

namespace ws::isolation {

namespace {

constexpr size_t kMaxKeptReplays = 8;  // each holds a run's device memory in the run process

struct State {
  IsolationOptions options;
  Catalog* catalog = nullptr;  // whose run hook sends its runs here
  double timeout = 60;
  std::unique_ptr<ChildProcess> child;
};

std::mutex g_mu;
std::shared_ptr<State> g_state;

std::shared_ptr<State> state() {
  std::lock_guard lock(g_mu);
  return g_state;
}

double timeout_from_environment() {
  if (const char* env = std::getenv("WARPSCOPE_RUN_TIMEOUT")) {
    char* end = nullptr;
    const double s = std::strtod(env, &end);
    if (end != env && *end == '\0' && s > 0 && s < 1e7) return s;
  }
  return 60;
}

std::string id_bytes(uint64_t id) {
  Writer w;
  w.u64(id);
  return w.take();
}

// A run kept on the device by the run process, timed there.
class RemoteReplay final : public Replay {
 public:
  RemoteReplay(std::weak_ptr<State> s, uint64_t id, uint64_t generation, std::string what)
      : state_(std::move(s)), id_(id), generation_(generation), what_(std::move(what)) {}
  ~RemoteReplay() override {
    if (auto s = state_.lock(); s && s->child->generation() == generation_) s->child->notify(Kind::ReplayDrop, id_bytes(id_));
  }
  bool time(const TimingOptions& o, RunTiming& out, std::string& error) override {
    std::shared_ptr<State> s = state_.lock();
    if (!s || s->child->generation() != generation_) {
      error = "the run process that kept this run was restarted since (after a fault, a time limit or a cancel): run it again";
      return false;
    }
    Writer w;
    w.u64(id_);
    write_timing_options(w, o);
    const Answer a = s->child->call(Kind::ReplayTime, w.bytes(), {.timeout_seconds = s->timeout, .what = "timing " + what_});
    if (!a.ok) {
      error = a.error;
      return false;
    }
    try {
      Reader r(a.payload);
      const bool ok = r.boolean();
      error = r.str();
      const RunTiming t = read_run_timing(r);
      out.ms.insert(out.ms.end(), t.ms.begin(), t.ms.end());
      out.launches = t.launches;
      out.bytes = t.bytes;
      return ok;
    } catch (const WireError& e) {
      error = e.what();
      return false;
    }
  }

 private:
  std::weak_ptr<State> state_;
  uint64_t id_, generation_;
  std::string what_;
};

bool goes_to_child(const IsolationOptions& o, const CatalogEntry& e, BackendKind backend) {
  return o.everything || (o.gpu && backend != BackendKind::Emu) || (o.kernel_files && !e.spec.file.empty());
}

RunResult failed_run(const std::string& code, const std::string& message) {
  RunResult r;
  r.completed = false;
  Diagnostic d;
  d.severity = Severity::Error;
  d.code = code;
  d.message = message;
  r.errors.push_back(std::move(d));
  return r;
}

std::optional<RunResult> run_in_child(const std::weak_ptr<State>& weak, const CatalogEntry& e, const RunConfig& cfg,
                                      BackendKind backend) {
  std::shared_ptr<State> s = weak.lock();
  if (!s || !goes_to_child(s->options, e, backend)) return std::nullopt;
  Writer w;
  w.str(e.spec.name);
  w.str(e.spec.file);
  w.str(e.spec.file.empty() ? std::string() : source_text(kernel_relative_path(e.spec.file), e.spec.file));
  w.u8(uint8_t(backend));
  write_config(w, cfg);
  const std::string what = "the run of " + e.spec.name +
                           (cfg.variant.empty() || cfg.variant == e.spec.name ? "" : " " + cfg.variant) + " on " +
                           to_string(backend);
  const Answer a = s->child->call(Kind::Run, w.bytes(),
                                  {.timeout_seconds = s->timeout, .cancel = cfg.cancel.get(), .what = what});
  if (!a.ok) {
    if (a.cancelled) return failed_run("cancelled", a.error);
    if (a.timed_out) return failed_run("time-limit", a.error);
    if (a.out_of_memory) return failed_run("out-of-memory", a.error);  // (the process may end after it)
    if (a.process_lost) return failed_run("run-process-ended", a.error);
    return failed_run("run-process", a.error);
  }
  try {
    Reader r(a.payload);
    RunResult res = read_result(r);
    const uint64_t replay = r.u64();
    // (A process that answered and then ended — after a sticky fault — keeps nothing.)
    if (replay && !a.process_lost)
      res.timing.replay = std::make_shared<RemoteReplay>(weak, replay, s->child->generation(), what);
    return res;
  } catch (const WireError& err) {
    return failed_run("run-process", err.what());
  }
}

// What the kernel's spec counts for a timed run (its code is here, not in the process that asked):
// the bytes it must move and its arithmetic, for the block it was launched with.
void count_work(const Catalog& catalog, const std::string& kernel, RunConfig cfg, RunResult& res) {
  if (res.timing.ms.empty()) return;
  const CatalogEntry* e = catalog.find(kernel);
  if (!e) return;
  for (const Trace& t : res.launches)
    if (t.launch.block.x > 0) {
      cfg.block = t.launch.block;
      break;
    }
  if (e->spec.timing.bytes) res.timing.bytes = e->spec.timing.bytes(cfg);
  if (e->spec.timing.flops) res.timing.flops = e->spec.timing.flops(cfg);
}

}  // namespace

bool is_run_process_failure(const Diagnostic& d) {
  return d.code == "run-process-ended" || d.code == "time-limit" || d.code == "run-process" || d.code == "out-of-memory";
}

void enable(Catalog& catalog, const IsolationOptions& o) {
  auto s = std::make_shared<State>();
  s->options = o;
  if (s->options.exe.empty()) {
    std::error_code ec;
    s->options.exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  }
  s->timeout = o.timeout_seconds > 0 ? o.timeout_seconds : timeout_from_environment();
  ChildOptions child{.exe = s->options.exe};
  for (const std::string& a : o.run_process_args) child.args.push_back(a);
  s->child = std::make_unique<ChildProcess>(std::move(child));
  s->catalog = &catalog;
  std::weak_ptr<State> weak = s;
  catalog.set_run_hook([weak](const CatalogEntry& e, const RunConfig& cfg, BackendKind backend) {
    return run_in_child(weak, e, cfg, backend);
  });
  std::shared_ptr<State> old;
  {
    std::lock_guard lock(g_mu);
    old = std::exchange(g_state, s);
  }
}

void disable() {
  std::shared_ptr<State> old;
  {
    std::lock_guard lock(g_mu);
    old = std::exchange(g_state, nullptr);
  }
  if (old) old->catalog->set_run_hook(nullptr);
}

bool enabled() { return state() != nullptr; }

bool runs_gpu() {
  std::shared_ptr<State> s = state();
  return s && (s->options.gpu || s->options.everything);
}

bool runs_kernel_files() {
  std::shared_ptr<State> s = state();
  return s && (s->options.kernel_files || s->options.everything);
}

double timeout_seconds() {
  std::shared_ptr<State> s = state();
  return s ? s->timeout : timeout_from_environment();
}

int process_id() {
  std::shared_ptr<State> s = state();
  return s ? s->child->pid() : 0;
}

Answer call(Kind kind, const std::string& payload, const CallLimits& limits) {
  std::shared_ptr<State> s = state();
  if (!s) {
    Answer a;
    a.error = "warpscope's run process is not in use";
    return a;
  }
  CallLimits l = limits;
  if (l.timeout_seconds <= 0) l.timeout_seconds = s->timeout;
  return s->child->call(kind, payload, l);
}

void serve_runs(Server& s, Catalog& catalog, PrepareFile prepare_file) {
  struct Kept {
    std::map<uint64_t, std::shared_ptr<Replay>> replays;
    std::deque<uint64_t> order;
    uint64_t next = 1;
  };
  auto kept = std::make_shared<Kept>();
  s.on(Kind::Run, [&catalog, prepare_file, kept](const std::string& payload, const std::shared_ptr<std::atomic<bool>>& cancel) {
    Reader r(payload);
    std::string kernel = r.str();
    const std::string path = r.str();
    const std::string text = r.str();
    const uint8_t backend_byte = r.u8();
    if (backend_byte > uint8_t(BackendKind::GpuTrace)) throw WireError("a run request names no backend");
    const BackendKind backend = BackendKind(backend_byte);
    RunConfig cfg = read_config(r);
    cfg.cancel = cancel;
    if (!path.empty()) {
      if (!prepare_file) throw std::runtime_error("this run process cannot build kernel files");
      kernel = prepare_file(path, text, backend);
    }
    RunResult res = catalog.run(kernel, cfg, backend);
    count_work(catalog, kernel, cfg, res);
    uint64_t id = 0;
    if (res.timing.replay) {
      id = kept->next++;
      kept->replays[id] = res.timing.replay;
      kept->order.push_back(id);
      while (kept->order.size() > kMaxKeptReplays) {
        kept->replays.erase(kept->order.front());
        kept->order.pop_front();
      }
    }
    Writer w;
    write_result(w, res);
    w.u64(id);
    return w.take();
  });
  s.on(Kind::ReplayTime, [kept](const std::string& payload, const std::shared_ptr<std::atomic<bool>>&) {
    Reader r(payload);
    const uint64_t id = r.u64();
    const TimingOptions o = read_timing_options(r);
    RunTiming t;
    std::string error;
    bool ok = false;
    if (auto it = kept->replays.find(id); it == kept->replays.end())
      error = "the run process no longer keeps that run (it keeps the newest " + std::to_string(kMaxKeptReplays) + "): run it again";
    else
      ok = it->second->time(o, t, error);
    Writer w;
    w.boolean(ok);
    w.str(error);
    write_run_timing(w, t);
    return w.take();
  });
  s.on_notice(Kind::ReplayDrop, [kept](const std::string& payload) {
    Reader r(payload);
    const uint64_t id = r.u64();
    kept->replays.erase(id);
    std::erase(kept->order, id);
  });
}

}  // namespace ws::isolation
