#include "model/session.h"

#include "ws/analysis/views.h"
#include "ws/isolation/isolated_runs.h"

#include <algorithm>
#include <exception>

namespace ws::app {

namespace {

std::string describe(const RunRequest& r) {
  std::string s = r.kernel + " " + (r.config.variant.empty() ? "(default)" : r.config.variant);
  if (r.backend != BackendKind::Emu) s += std::string(" on ") + to_string(r.backend);
  s += " (n = " + std::to_string(r.config.n) + ", block " + std::to_string(r.config.block.x);
  if (r.config.block.y != 1 || r.config.block.z != 1)
    s += "x" + std::to_string(r.config.block.y) + "x" + std::to_string(r.config.block.z);
  return s + ")";
}

std::shared_ptr<SessionData> execute(const RunRequest& req) {
  auto d = std::make_shared<SessionData>();
  d->request = req;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const Catalog& cat = Catalog::instance();
    d->resolved = req.config;
    // (A copy: this runs on the session's and the lessons' threads, beside the UI thread, whose
    // kernel file may replace the entry meanwhile.)
    if (const std::optional<CatalogEntry> e = cat.copy(req.kernel)) {
      if (std::string why = cat.resolve(*e, d->resolved); !why.empty()) d->error = why;
    }
    if (d->error.empty()) {
      d->result = cat.run(req.kernel, req.config, req.backend);
      if (!d->result.refused.empty()) {
        d->error = d->result.refused;
      } else {
        analysis::Options opt;
        for (const Trace& t : d->result.launches) d->reports.push_back(analysis::analyze(t, opt));
        if (!d->result.completed) {
          // (The run process lost, or stopped at its time limit: that is the whole story.)
          const bool process = !d->result.errors.empty() && isolation::is_run_process_failure(d->result.errors[0]);
          d->error = process ? std::string() : "the kernel stopped before it finished";
          for (const Diagnostic& e : d->result.errors) d->error += (d->error.empty() ? "" : ": ") + e.message;
        }
      }
    }
  } catch (const std::exception& e) {
    d->error = std::string("the run failed: ") + e.what();
  } catch (...) {
    d->error = "the run failed with an unknown error";
  }
  d->run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return d;
}

}  // namespace

RunRequest default_request() {
  RunRequest r;
  r.kernel = "reduce";
  r.config.variant = "1";
  r.config.n = 4096;
  r.config.block = {256, 1, 1};
  r.config.record.blocks = {0, 1, 2, 3};
  return r;
}

KeyNumbers key_numbers(const SessionData& d) {
  KeyNumbers k;
  if (!d.error.empty() && d.reports.empty()) return k;
  k.valid = true;
  k.passed = d.result.passed;
  k.verdict = analysis::verdict(d.result.completed, d.result.passed, d.reports, d.result.errors).verdict;
  analysis::Totals t;
  for (const analysis::Report& r : d.reports) t += r.totals;
  for (size_t i = 0; i < 3; ++i) {
    k.shared_conflicts += t.shared[i].conflicts;
    k.shared_wavefronts += t.shared[i].wavefronts;
    k.shared_instructions += t.shared[i].instructions;
    k.global_sectors += t.global[i].sectors;
    k.global_requests += t.global[i].requests;
  }
  k.hazards = t.hazards;
  k.lockstep_hazards = t.lockstep_hazards;
  k.instructions = t.divergence.instructions;
  k.simd_efficiency = t.divergence.simd_efficiency();
  k.global_load_efficiency = t.global[analysis::kLd].efficiency();
  k.global_store_efficiency = t.global[analysis::kSt].efficiency();

  k.grid = !d.reports.empty();
  analysis::GlobalCounters grid_loads;
  uint64_t grid_lanes = 0;
  for (const analysis::Report& r : d.reports) {
    k.recorded_blocks += r.blocks.size();
    k.total_blocks += r.total_blocks;
    k.grid = k.grid && r.grid.present;
    for (size_t i = 0; i < 3; ++i) {
      k.grid_shared_conflicts += r.grid.shared[i].conflicts;
      k.grid_shared_wavefronts += r.grid.shared[i].wavefronts;
    }
    k.grid_instructions += r.grid.instructions;
    grid_lanes += r.grid.lane_accesses;
    grid_loads.bytes_requested += r.grid.global[analysis::kLd].bytes_requested;
    grid_loads.bytes_moved += r.grid.global[analysis::kLd].bytes_moved;
  }
  k.grid_simd_efficiency = k.grid_instructions ? double(grid_lanes) / (32.0 * double(k.grid_instructions)) : 0.0;
  k.grid_global_load_efficiency = grid_loads.efficiency();
  return k;
}

// The catalog is made first so it outlives the worker thread that uses it.
Session::Session() : catalog_(Catalog::instance()), thread_([this](std::stop_token st) { worker(st); }) {}

void Session::set_data(std::shared_ptr<SessionData> d) {
  {
    std::lock_guard lock(mu_);
    ready_ = std::move(d);
  }
  poll();
}

Session::~Session() { stop(); }

void Session::stop() {
  {
    std::lock_guard lock(mu_);
    pending_.reset();
    if (running_cancel_) running_cancel_->store(true);
  }
  thread_.request_stop();
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Session::request(RunRequest r) {
  default_started_ = true;  // the user's (or the command line's) run replaces the default one
  {
    std::lock_guard lock(mu_);
    pending_ = r;
    ++requested_;
    last_request_ = std::move(r);
    if (running_cancel_) running_cancel_->store(true);  // its result would be dropped: stop it now
  }
  cv_.notify_all();
}

std::shared_ptr<SessionData> Session::compute(RunRequest r, std::shared_ptr<std::atomic<bool>> cancel) {
  r.config.cancel = std::move(cancel);
  return execute(r);
}

void Session::show(std::shared_ptr<SessionData> d) {
  default_started_ = true;
  {
    std::lock_guard lock(mu_);
    pending_.reset();
    ++requested_;  // a run still going is stale now: its result is dropped
    if (running_cancel_) running_cancel_->store(true);
    last_request_ = d->request;
    last_request_.config.cancel.reset();
    ready_ = std::move(d);
  }
  poll();
}

void Session::cancel() {
  std::lock_guard lock(mu_);
  pending_.reset();
  if (running_cancel_) running_cancel_->store(true);
}

void Session::start_default() {
  if (default_started_) return;
  default_started_ = true;
  request(default_request());
}

void Session::worker(std::stop_token st) {
  for (;;) {
    RunRequest req;
    uint64_t seq = 0;
    {
      std::unique_lock lock(mu_);
      if (!cv_.wait(lock, st, [&] { return pending_.has_value(); })) return;
      req = std::move(*pending_);
      pending_.reset();
      seq = requested_;
      running_ = true;
      running_text_ = describe(req);
      running_since_ = std::chrono::steady_clock::now();
      running_backend_ = req.backend;
      const std::optional<CatalogEntry> e = catalog_.copy(req.kernel);  // (copy(): this is not the UI thread)
      running_file_ = e && !e->spec.file.empty();
      running_cancel_ = std::make_shared<std::atomic<bool>>(false);
      req.config.cancel = running_cancel_;
    }
    auto d = execute(req);
    {
      std::lock_guard lock(mu_);
      running_ = false;
      running_cancel_.reset();
      // A newer request came in while this one ran: drop this result, the newer one follows.
      if (seq == requested_) {
        ready_ = std::move(d);
        finished_ = seq;
      }
    }
    cv_.notify_all();
  }
}

bool Session::busy() const {
  std::lock_guard lock(mu_);
  return running_ || pending_.has_value() || (ready_ != nullptr);
}

std::string Session::busy_text() const {
  std::lock_guard lock(mu_);
  if (running_) {
    // A long run says how long it has taken, and when the run process stops it.
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - running_since_).count();
    if (s < 2) return "running " + running_text_ + "…";
    std::string t = "running " + running_text_ + "… " + std::to_string(int(s)) + " s";
    if ((isolation::runs_gpu() && running_backend_ != BackendKind::Emu) || (isolation::runs_kernel_files() && running_file_))
      t += " (stopped at " + std::to_string(int(isolation::timeout_seconds())) + " s)";
    return t;
  }
  if (pending_) return "queued " + describe(*pending_) + "…";
  return {};
}

bool Session::wait_idle(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  const bool ok = cv_.wait_for(lock, timeout, [&] { return !running_ && !pending_.has_value(); });
  lock.unlock();
  poll();
  return ok;
}

bool Session::poll() {
  std::shared_ptr<SessionData> d;
  {
    std::lock_guard lock(mu_);
    d.swap(ready_);
  }
  if (!d) return false;
  d->generation = ++generation_;
  if (d->error.empty() || !d->reports.empty())
    history[history_key(d->request.kernel, d->resolved)] = key_numbers(*d);
  // The same launch again (a kernel file saved and rebuilt, a rerun): the selection stays on the
  // instruction it was on, where the new run still has it.
  const SelectedInstruction before = selected_instruction();
  const bool same_launch = data_ && history_key(data_->request.kernel, data_->resolved) == history_key(d->request.kernel, d->resolved);
  data_ = std::move(d);
  hazard_pair = {};
  fix_selection();
  if (same_launch) reselect(before);
  ++sel_version;
  return true;
}

std::string Session::history_key(const std::string& kernel, const RunConfig& c) {
  std::string key = kernel + "/" + c.variant + "/" + std::to_string(c.n) + "/" + std::to_string(c.block.x) + "x" +
                    std::to_string(c.block.y) + "x" + std::to_string(c.block.z) + "/" + c.dtype + "/" +
                    std::to_string(c.seed);
  for (const auto& [name, value] : c.params) key += "/" + name + "=" + param_text(value);  // stride 2 != 33
  for (const auto& [name, choice] : c.param_choices) key += "/" + name + "=" + choice;       // (not yet resolved)
  return key;
}

const Trace* Session::trace() const {
  if (!data_ || sel.launch >= data_->result.launches.size()) return nullptr;
  return &data_->result.launches[sel.launch];
}

const analysis::Report* Session::report() const {
  if (!data_ || sel.launch >= data_->reports.size()) return nullptr;
  return &data_->reports[sel.launch];
}

Session::SelectedInstruction Session::selected_instruction() const {
  SelectedInstruction s;
  const Trace* t = trace();
  if (!t || sel.event < 0 || size_t(sel.event) >= t->events.size()) return s;
  const Event& e = t->events[size_t(sel.event)];
  if (e.site >= t->sites.size()) return s;
  s.text = t->sites[e.site].text;
  s.line = t->sites[e.site].line;
  s.type = e.type;
  s.kind = e.kind;
  // Which instance in the warp (a loop's third pass stays the third).
  for (size_t i = 0; i < size_t(sel.event); ++i) {
    const Event& x = t->events[i];
    if (x.block == e.block && x.warp == e.warp && x.site == e.site && x.kind == e.kind) ++s.instance;
  }
  s.valid = true;
  return s;
}

void Session::reselect(const SelectedInstruction& before) {
  const Trace* t = trace();
  if (!before.valid || !t) return;
  // The same source text (the line may have moved in an edit), nearest to the old line; its
  // same instance in the selected warp, else its last.
  int64_t pick = -1;
  uint32_t best_distance = UINT32_MAX;
  for (uint32_t site = 0; site < t->sites.size(); ++site) {
    if (t->sites[site].text != before.text) continue;
    const uint32_t distance = t->sites[site].line > before.line ? t->sites[site].line - before.line : before.line - t->sites[site].line;
    if (distance >= best_distance) continue;
    uint32_t seen = 0;
    int64_t found = -1;
    for (size_t i = 0; i < t->events.size(); ++i) {
      const Event& x = t->events[i];
      if (x.block != sel.block || x.warp != sel.warp || x.site != site || x.type != before.type || x.kind != before.kind) continue;
      found = int64_t(i);
      if (seen++ == before.instance) break;
    }
    if (found >= 0) pick = found, best_distance = distance;
  }
  if (pick >= 0) {
    sel.event = pick;
    sel.site = t->events[size_t(pick)].site;
  }
}

void Session::fix_selection() {
  // Keep what still makes sense in the new run (same block/warp/site when they exist), so a
  // lecturer switching variants keeps looking at the same warp.
  const Trace* t = nullptr;
  if (data_ && !data_->result.launches.empty()) {
    if (sel.launch >= data_->result.launches.size()) sel.launch = 0;
    t = &data_->result.launches[sel.launch];
  }
  if (!t) {
    sel.event = -1;
    sel.cursor = -1;
    return;
  }
  if (std::find(t->recorded_blocks.begin(), t->recorded_blocks.end(), sel.block) == t->recorded_blocks.end())
    sel.block = t->recorded_blocks.empty() ? 0 : t->recorded_blocks.front();
  const uint32_t warps = uint32_t((t->launch.block.count() + 31) / 32);
  if (sel.warp >= warps) sel.warp = 0;
  if (sel.site != kNone && sel.site >= t->sites.size()) sel.site = kNone;
  if (sel.alloc != kNone && sel.alloc >= t->allocations.size()) sel.alloc = kNone;
  sel.element = -1;
  sel.cursor = -1;
  playing = false;
  // The selected event: the instruction the variant is about (its lesson line, KernelSpec), else
  // the selected warp's costliest one (bank conflicts, sectors past the ideal, atomic contention),
  // else its first shared access, else its first access: the picture a lecturer wants on the wall.
  sel.event = -1;
  sel.site = kNone;
  std::string focus;
  if (const CatalogEntry* e = catalog_.find(data_->request.kernel))
    if (const VariantSpec* v = e->spec.variant(data_->resolved.variant)) focus = v->focus;
  auto [first, last] = analysis::block_events(*t, sel.block);
  int64_t any = -1, any_shared = -1, focused = -1;
  uint64_t focused_cost = 0;
  for (size_t i = first; i < last; ++i) {
    const Event& e = t->events[i];
    if (e.warp != sel.warp || e.type != EventType::Access) continue;
    if (any < 0) any = int64_t(i);
    if (any_shared < 0 && e.space == MemSpace::Shared) any_shared = int64_t(i);
    if (focus.empty() || e.site >= t->sites.size() || t->sites[e.site].text.find(focus) == std::string::npos) continue;
    // The focus line's costliest instance (a tree step's worst pass), else its first.
    const uint64_t c = analysis::excess_cost(analysis::metrics_of(*t, e));
    if (focused < 0 || c > focused_cost) focused = int64_t(i), focused_cost = c;
  }
  sel.event = focused >= 0 ? focused : analysis::costliest_access(*t, sel.block, sel.warp);
  if (sel.event < 0) sel.event = any_shared >= 0 ? any_shared : any;
  if (sel.event >= 0) sel.site = t->events[size_t(sel.event)].site;
}

int64_t Session::neighbour_instruction(int dir) const {
  const Trace* t = trace();
  const int64_t from = sel.event;
  if (!t || from < 0 || size_t(from) >= t->events.size()) return -1;
  const Event& e0 = t->events[size_t(from)];
  for (int64_t i = from + dir; i >= 0 && i < int64_t(t->events.size()); i += dir) {
    const Event& e = t->events[size_t(i)];
    if (e.block != e0.block) break;
    if (e.warp == e0.warp && e.type == EventType::Access) return i;
  }
  return -1;
}

bool Session::step_instruction(int dir) {
  const int64_t next = neighbour_instruction(dir);
  if (next < 0) return false;
  select_event(next);
  return true;
}

void Session::select_event(int64_t event) {
  const Trace* t = trace();
  if (!t || event < 0 || size_t(event) >= t->events.size()) return;
  const Event& e = t->events[size_t(event)];
  sel.event = event;
  sel.block = e.block;
  sel.warp = e.warp;
  sel.site = e.site;
  if (e.type == EventType::Access) sel.alloc = e.alloc;
  hazard_pair = {};
  ++sel_version;
}

bool Session::select_line(const std::string& file, uint32_t line) {
  const Trace* t = trace();
  if (!t) return false;
  auto [first, last] = analysis::block_events(*t, sel.block);
  int64_t warp = -1, block = -1, any = -1;
  for (size_t e = 0; e < t->events.size() && warp < 0; ++e) {
    const uint32_t k = t->events[e].site;
    if (k >= t->sites.size() || t->sites[k].line != line || t->sites[k].file != file) continue;
    if (any < 0) any = int64_t(e);
    if (e >= first && e < last) {
      if (block < 0) block = int64_t(e);
      if (t->events[e].warp == sel.warp) warp = int64_t(e);
    }
  }
  const int64_t pick = warp >= 0 ? warp : block >= 0 ? block : any;
  if (pick < 0) return false;
  select_event(pick);
  return true;
}

void Session::select_hazard(const analysis::Hazard& h) {
  if (!data_) return;
  for (size_t l = 0; l < data_->reports.size(); ++l)
    for (const analysis::Hazard& x : data_->reports[l].hazards) {
      if (&x != &h) continue;
      sel.launch = uint32_t(l);
      select_event(int64_t(h.first.event));
      sel.lane = int(h.first.lane);
      hazard_pair.launch = uint32_t(l);
      hazard_pair.first_event = int64_t(h.first.event);
      hazard_pair.second_event = int64_t(h.second.event);
      hazard_pair.first_site = h.first_site;
      hazard_pair.second_site = h.second_site;
      hazard_pair.first_lane = h.first.lane;
      hazard_pair.second_lane = h.second.lane;
      hazard_pair.first_warp = h.first.warp;
      hazard_pair.second_warp = h.second.warp;
      hazard_pair.sentence = analysis::hazard_sentence(data_->reports[l], h);
      return;
    }
}

void Session::set_cursor(int64_t cursor) {
  const Trace* t = trace();
  if (!t) return;
  auto [first, last] = analysis::block_events(*t, sel.block);
  const int64_t n = int64_t(last - first);
  sel.cursor = cursor < 0 ? -1 : std::min(cursor, n);
  // The views follow: the last issued event becomes the selected one.
  if (sel.cursor > 0) {
    const int64_t ev = int64_t(first) + sel.cursor - 1;
    const Event& e = t->events[size_t(ev)];
    sel.event = ev;
    sel.warp = e.warp;
    sel.site = e.site;
  }
  ++sel_version;
}

namespace {
std::atomic<Session*> g_session{nullptr};  // set once session() has made it
}  // namespace

Session& session() {
  static Session s;
  g_session.store(&s, std::memory_order_release);
  return s;
}

void stop_session_thread() {
  if (Session* s = g_session.load(std::memory_order_acquire)) s->stop();
}

void Session::advance_playback(float dt) {
  if (!playing) return;
  const Trace* t = trace();
  if (!t) {
    playing = false;
    return;
  }
  auto [first, last] = analysis::block_events(*t, sel.block);
  const int64_t n = int64_t(last - first);
  play_accum += double(dt) * play_speed;
  if (play_accum < 1) return;
  const int64_t steps = int64_t(play_accum);
  play_accum -= double(steps);
  const int64_t cur = sel.cursor < 0 ? 0 : sel.cursor;
  const int64_t next = std::min(cur + steps, n);
  set_cursor(next);
  if (next >= n) playing = false;
}

void Session::notify(std::string text, bool is_error) {
  std::lock_guard lock(mu_);
  if (notices_.size() >= 16) notices_.erase(notices_.begin());
  notices_.push_back({std::move(text), is_error});
}

std::vector<Session::Notice> Session::take_notices() {
  std::lock_guard lock(mu_);
  std::vector<Notice> out;
  out.swap(notices_);
  return out;
}

}  // namespace ws::app
