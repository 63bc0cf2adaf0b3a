#include "model/timing_runner.h"

#include <cmath>

namespace ws::app {

struct TimingRunner::Job {
  enum Kind { Ceilings, Table, KernelTable, Sweep, Counts } kind = Ceilings;
  explicit Job(Kind k) : kind(k) {}
  uint64_t n = 0;
  std::string dtype;
  uint32_t block = 0;
  std::string kernel, axis;
  RunConfig config;
  std::vector<int64_t> values;
  std::vector<Dim3> blocks;  // a sweep over block shapes (axis "block shape")
};

namespace {
// The worker uses the catalog, the emulator, the kernels' source table and the CUDA runtime, all of
// which keep function-local statics. Made before the runner, they are destroyed after it (statics
// die in reverse order of construction). That covers what one small reduce run reaches, not every
// table a later job fills on first use (the emulator's loop table was first made by a count of
// reduce 5 and destroyed under it at exit: a crash in CI), so the program also stops the runner
// before main() returns (stop_timing_thread()) and the emulator keeps its tables to the end.
bool warm_up_what_the_worker_uses() {
  (void)timing::device();
  RunConfig cfg;
  cfg.variant = "1";
  cfg.n = 64;
  cfg.block = {32, 1, 1};
  (void)Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  return true;
}
}  // namespace

TimingRunner::TimingRunner()
    : snap_(std::make_shared<TimingSnapshot>()), thread_([this](std::stop_token st) { worker(st); }) {}

TimingRunner::~TimingRunner() { stop(); }

void TimingRunner::stop() {
  cancel();
  thread_.request_stop();
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void TimingRunner::push(Job job) {
  {
    std::lock_guard lock(mu_);
    // A newer request of the same kind replaces a queued one (the user changed their mind).
    std::erase_if(queue_, [&](const std::shared_ptr<Job>& j) { return j->kind == job.kind; });
    queue_.push_back(std::make_shared<Job>(std::move(job)));
  }
  cv_.notify_all();
}

void TimingRunner::request_ceilings() { push(Job{Job::Ceilings}); }

void TimingRunner::request_table(uint64_t n, const std::string& dtype, uint32_t block) {
  Job j{Job::Table};
  j.n = n;
  j.dtype = dtype;
  j.block = block;
  push(std::move(j));
}

void TimingRunner::request_sweep(const std::string& kernel, const RunConfig& base, const std::string& axis,
                                 std::vector<int64_t> values) {
  Job j{Job::Sweep};
  j.kernel = kernel;
  j.config = base;
  j.axis = axis;
  j.values = std::move(values);
  push(std::move(j));
}

void TimingRunner::request_kernel_table(const std::string& kernel, const RunConfig& lab, uint64_t n) {
  Job j{Job::KernelTable};
  j.kernel = kernel;
  j.config = lab;
  j.n = n;
  push(std::move(j));
}

void TimingRunner::request_block_sweep(const std::string& kernel, const RunConfig& base, std::vector<Dim3> blocks) {
  Job j{Job::Sweep};
  j.kernel = kernel;
  j.config = base;
  j.axis = "block shape";
  j.blocks = std::move(blocks);
  push(std::move(j));
}

void TimingRunner::request_counts(const std::string& kernel, const RunConfig& base) {
  Job j{Job::Counts};
  j.kernel = kernel;
  j.config = base;
  push(std::move(j));
}

void TimingRunner::set_live(const std::string& kernel, const RunConfig& cfg, const std::string& series_name) {
  {
    std::lock_guard lock(mu_);
    live_kernel_ = kernel;
    live_config_ = cfg;
    live_name_ = series_name;
  }
  publish([&](TimingSnapshot& s) { s.live_series = series_name; });
  cv_.notify_all();
}

void TimingRunner::stop_live() {
  {
    std::lock_guard lock(mu_);
    live_kernel_.clear();
    live_name_.clear();
  }
  publish([](TimingSnapshot& s) { s.live_series.clear(); });
}

void TimingRunner::set_paused(bool paused) {
  {
    std::lock_guard lock(mu_);
    paused_ = paused;
  }
  publish([&](TimingSnapshot& s) { s.live_paused = paused; });
  cv_.notify_all();
}

void TimingRunner::cancel() {
  {
    std::lock_guard lock(mu_);
    queue_.clear();
    if (running_) *cancel_ = true;
  }
  cv_.notify_all();
}

std::shared_ptr<const TimingSnapshot> TimingRunner::snapshot() const {
  std::lock_guard lock(mu_);
  return snap_;
}

void TimingRunner::set_snapshot(TimingSnapshot s) {
  std::lock_guard lock(mu_);
  s.generation = snap_->generation + 1;
  snap_ = std::make_shared<TimingSnapshot>(std::move(s));
}

void TimingRunner::publish(const std::function<void(TimingSnapshot&)>& change) {
  std::lock_guard lock(mu_);
  auto next = std::make_shared<TimingSnapshot>(*snap_);
  change(*next);
  next->generation = snap_->generation + 1;
  snap_ = std::move(next);
}

bool TimingRunner::busy() const {
  std::lock_guard lock(mu_);
  return running_ || !queue_.empty();
}

bool TimingRunner::wait_idle(std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (busy()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

void TimingRunner::worker(std::stop_token st) {
  worker_loop(st);
  // The kept run's memory goes back while the CUDA runtime and the GPU lock still exist (the
  // runner itself lives until the program's statics are destroyed).
  live_kept_ = {};
}

void TimingRunner::worker_loop(std::stop_token st) {
  while (!st.stop_requested()) {
    std::shared_ptr<Job> job;
    std::string live_kernel;
    RunConfig live_cfg;
    std::string live_name;
    bool live_off = false, idle = false;
    {
      std::unique_lock lock(mu_);
      // Live mode polls a few times a second; otherwise sleep until a request comes.
      const bool live = !live_kernel_.empty() && !paused_;
      auto ready = [&] { return !queue_.empty() || st.stop_requested(); };
      if (live) cv_.wait_for(lock, st, std::chrono::milliseconds(150), ready);
      else cv_.wait(lock, st, [&] { return ready() || (!live_kernel_.empty() && !paused_); });
      if (st.stop_requested()) return;
      live_off = live_kernel_.empty();
      if (!queue_.empty()) {
        job = queue_.front();
        queue_.pop_front();
        running_ = true;
        *cancel_ = false;
      } else if (!live_kernel_.empty() && !paused_) {
        live_kernel = live_kernel_;
        live_cfg = live_config_;
        live_name = live_name_;
      } else {
        idle = true;
      }
    }
    if (live_off) live_kept_ = {};  // live is off: its kept run's memory goes back (outside mu_)
    if (idle) continue;
    if (job) {
      run_job(*job);
      std::lock_guard lock(mu_);
      running_ = false;
      continue;
    }
    // One live point: a short measurement of the selected run. The first point of a series runs
    // and checks it and keeps it on the device; the next ones only replay it.
    if (live_kept_.replay && live_kept_name_ != live_name) live_kept_ = {};  // (frees the old series' memory)
    timing::Measurement m;
    if (live_kept_.replay) m = timing::measure_again(live_kept_, {1, 10, true});
    if (!m.ok) {
      live_kept_ = {};
      timing::Repeats rep{1, 10, true};
      rep.keep = true;
      m = timing::measure(Catalog::instance(), live_kernel, live_cfg, rep);
      live_kept_ = m;
      live_kept_name_ = live_name;
    }
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    publish([&](TimingSnapshot& s) {
      if (!m.ok) {
        s.error = "live timing of " + live_name + ": " + m.error;
        s.live_series.clear();
        return;
      }
      s.live.push_back({t, live_name, m.stats.median, m.gbps, m.stats.p10, m.stats.p90, m.gflops});
      if (s.live.size() > kMaxLivePoints) s.live.erase(s.live.begin(), s.live.begin() + ptrdiff_t(s.live.size() - kMaxLivePoints));
    });
    if (!m.ok) {
      live_kept_ = {};
      std::lock_guard lock(mu_);
      live_kernel_.clear();
    }
  }
}

void TimingRunner::run_job(const Job& job) {
  auto progress = [this](const std::string& what) { publish([&](TimingSnapshot& s) { s.status = what; }); };
  switch (job.kind) {
    case Job::Ceilings: {
      progress("measuring the device's copy and read bandwidth");
      timing::Ceilings c = timing::measure_ceilings();
      publish([&](TimingSnapshot& s) {
        s.ceilings = std::move(c);
        s.error = s.ceilings->ok ? "" : "ceilings: " + s.ceilings->error;
        if (s.table) {
          s.table->ceilings = *s.ceilings;
          timing::fill_speedups(*s.table);
        }
      });
      break;
    }
    case Job::Table: {
      const std::optional<timing::Ceilings> ceil = snapshot()->ceilings;
      timing::ReductionTable t =
          timing::time_reductions(Catalog::instance(), job.n, job.dtype, job.block, ceil ? *ceil : timing::Ceilings{}, {3, 20, true},
                                  progress, cancel_.get());
      publish([&](TimingSnapshot& s) {
        s.error = t.complete ? "" : "cancelled: the table has the variants timed before";
        s.table = std::move(t);
      });
      break;
    }
    case Job::KernelTable: {
      timing::KernelTable t = timing::time_kernel(Catalog::instance(), job.kernel, job.config, {}, {}, job.n, {2, 15, true}, progress, cancel_.get());
      publish([&](TimingSnapshot& s) {
        s.error = !t.launch.error.empty() ? t.launch.error : t.complete ? "" : "cancelled: the table has the rows timed before";
        s.kernel_table = std::move(t);
      });
      break;
    }
    case Job::Sweep: {
      // A fault or a refusal is one point's error; the sweep goes on with the next value.
      std::vector<timing::SweepPoint> pts =
          job.blocks.empty() ? timing::sweep(Catalog::instance(), job.kernel, job.config, job.axis, job.values, {2, 15, true}, progress, cancel_.get())
                             : timing::sweep_blocks(Catalog::instance(), job.kernel, job.config, job.blocks, {2, 15, true}, progress, cancel_.get());
      std::string err;
      for (const timing::SweepPoint& p : pts)
        if (!p.m.ok && err.empty()) err = job.axis + " = " + p.label + ": " + p.m.error;
      publish([&](TimingSnapshot& s) {
        s.sweep = std::move(pts);
        s.sweep_axis = job.axis;
        s.sweep_kernel = job.kernel;
        s.sweep_title = job.kernel + " " + job.config.variant;
        s.error = err;
      });
      break;
    }
    case Job::Counts: {
      RunConfig cfg = job.config;
      cfg.cancel = cancel_;
      std::vector<timing::VariantCounts> c = timing::count_variants(Catalog::instance(), job.kernel, cfg, progress, cancel_.get());
      publish([&](TimingSnapshot& s) {
        s.counts = std::move(c);
        s.counts_kernel = job.kernel;
        s.counts_config = job.config;
        s.error.clear();
      });
      break;
    }
  }
  publish([](TimingSnapshot& s) { s.status.clear(); });
}

namespace {
std::atomic<TimingRunner*> g_runner{nullptr};  // set once timing_runner() has made it
}  // namespace

TimingRunner& timing_runner() {
  static const bool warm = warm_up_what_the_worker_uses();
  (void)warm;
  static TimingRunner r;
  g_runner.store(&r, std::memory_order_release);
  return r;
}

void stop_timing_thread() {
  if (TimingRunner* r = g_runner.load(std::memory_order_acquire)) r->stop();
}

}  // namespace ws::app
