#include "lessons/lesson_player.h"
#include "views/stream_timeline.h"

#include "model/selection.h"

#include "ws/analysis/views.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace ws::app {

std::string run_key(const RunRequest& r) {
  std::string k = Session::history_key(r.kernel, r.config) + "/" + to_string(r.backend);
  for (uint32_t b : r.config.record.blocks) k += "/r" + std::to_string(b);
  return k;
}

LessonPlayer::LessonPlayer(Lesson lesson)
    : lesson_(std::move(lesson)),
      main_(std::make_unique<Session>()),
      other_(std::make_unique<Session>()),
      thread_([this](std::stop_token st) { prefetcher(st); }) {}

LessonPlayer::~LessonPlayer() {
  cancel_->store(true);
  thread_.request_stop();
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  main_->stop();
  other_->stop();
}

std::shared_ptr<SessionData> LessonPlayer::cached(const RunRequest& r) {
  std::lock_guard lock(mu_);
  auto it = cache_.find(run_key(r));
  return it == cache_.end() ? nullptr : it->second;
}

bool LessonPlayer::is_cached(size_t k) {
  if (k >= lesson_.steps.size()) return false;
  const LessonStep& step = lesson_.steps[k];
  return cached(lesson_request(step.launch)) && (!step.compare || cached(lesson_request(step.compare->launch)));
}

void LessonPlayer::show_run(Session& s, const RunRequest& r) {
  if (auto d = cached(r)) s.show(std::make_shared<SessionData>(*d));
  else s.request(r);
}

void LessonPlayer::go(size_t k, bool as_written) {
  if (lesson_.steps.empty()) return;
  k = std::min(k, lesson_.steps.size() - 1);
  if (k == index_ && !as_written && !views_.empty()) return;
  index_ = k;
  error_.clear();
  const LessonStep& st = step();
  // Views of their own for this step, with the step's options (checked when the lesson loaded).
  auto make_views = [&](std::vector<std::unique_ptr<View>>& out) {
    out.clear();
    for (const LessonView& v : st.views) {
      std::string err;
      MadeView m = make_view(v.id, v.options, err);
      if (!m.view) continue;
      // A lesson shows the pictures without their pickers unless the step asks for them (C shows
      // them during the step).
      const bool asked = std::any_of(v.options.begin(), v.options.end(),
                                     [](const std::string& o) { return o.rfind("controls=", 0) == 0; });
      if (!asked) m.view->controls = controls_;
      m.view->in_lesson = true;
      out.push_back(std::move(m.view));
    }
  };
  make_views(views_);
  if (const std::filesystem::path f = untrusted_file(st); !f.empty()) {
    // Its code is not built or run: the step says so instead of a picture.
    error_ = "this step's kernel file " + f.string() +
             " is not trusted, so it was not built or run (open the lesson with --trust, or trust its folder "
             "in the viewer, to run it)";
    main_pending_ = other_pending_ = {true, 0};
    other_views_.clear();
    return;
  }
  show_run(*main_, lesson_request(st.launch));
  main_pending_ = {false, 0};
  if (st.compare) {
    make_views(other_views_);
    show_run(*other_, lesson_request(st.compare->launch));
    other_pending_ = {false, 0};
  } else {
    other_views_.clear();
    other_pending_ = {true, 0};
  }
  prefetch_around(k);
}

void LessonPlayer::want_zoom(float zoom) {
  const auto at = std::lower_bound(zooms_.begin(), zooms_.end(), zoom);
  if (at == zooms_.end() || *at != zoom) zooms_.insert(at, zoom);
}

void LessonPlayer::toggle_controls() {
  controls_ = !controls_;
  for (auto& v : views_) v->controls = controls_;
  for (auto& v : other_views_) v->controls = controls_;
}

void LessonPlayer::poll() {
  auto take = [&](Session& s, Pending& p, const RunRequest& want, const LessonSelect& sel) {
    s.poll();
    const auto d = s.data();
    if (!d || p.selected || run_key(d->request) != run_key(want)) return;
    {
      // A run that landed here is kept for coming back to this step.
      std::lock_guard lock(mu_);
      cache_.try_emplace(run_key(want), std::make_shared<SessionData>(*d));
    }
    const std::string err = apply_select(s, sel);
    if (!err.empty() && error_.empty()) error_ = err;
    p.selected = true;
    p.generation = d->generation;
  };
  const LessonStep& st = step();
  if (!untrusted_file(st).empty()) return;
  take(*main_, main_pending_, lesson_request(st.launch), st.select);
  if (st.compare) take(*other_, other_pending_, lesson_request(st.compare->launch), st.compare->select);
}

bool LessonPlayer::ready() const {
  if (!untrusted_file(lesson_.steps[index_]).empty()) return true;  // nothing runs: ready as it is
  const bool main_in = main_pending_.selected && main_->data();
  const bool other_in = !lesson_.steps[index_].compare || (other_pending_.selected && other_->data());
  return main_in && other_in;
}

bool LessonPlayer::wait_ready(std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    poll();
    if (ready()) return true;
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

std::string LessonPlayer::prepare_pictures() {
  for (auto& v : views_)
    if (std::string err = v->prepare_picture(*main_); !err.empty()) return err;
  if (Session* o = compare_session())
    for (auto& v : other_views_)
      if (std::string err = v->prepare_picture(*o); !err.empty()) return err;
  return {};
}

namespace {

bool matches(const Trace& t, const Event& e, const LessonSelect& sel) {
  if (sel.access.empty() && sel.array.empty()) return true;
  if (e.type != EventType::Access) return false;
  if (!sel.access.empty() && sel.access != to_string(e.kind)) return false;
  return sel.array.empty() || (e.alloc < t.allocations.size() && t.allocations[e.alloc].name == sel.array);
}

}  // namespace

std::vector<std::vector<int64_t>> line_passes(const Trace& t, const LessonSelect& sel) {
  std::vector<std::vector<int64_t>> passes;
  auto [first, last] = analysis::block_events(t, sel.block);
  bool in_pass = false;
  // The pass's instructions so far, as (site, access): one coming again starts the next trip. (The
  // load and the store of `x[i] += ...` share a site.)
  std::vector<std::pair<uint32_t, int>> sites;
  for (size_t i = first; i < last; ++i) {
    const Event& e = t.events[i];
    if (e.warp != sel.warp) continue;
    const bool at_line = e.site < t.sites.size() &&
                         (sel.line_number ? t.sites[e.site].line == sel.line_number
                                          : t.sites[e.site].text.find(sel.line_text) != std::string::npos);
    if (!at_line) {
      in_pass = false;
      continue;
    }
    const std::pair<uint32_t, int> id{e.site, e.type == EventType::Access ? int(e.kind) : -1 - int(e.type)};
    const bool again = std::find(sites.begin(), sites.end(), id) != sites.end();
    if (!in_pass || again) {
      in_pass = true;
      sites.clear();
      passes.emplace_back();
    }
    sites.push_back(id);
    if (matches(t, e, sel)) passes.back().push_back(int64_t(i));
  }
  // nth: in each pass, only the instructions of the n-th of its matching sites in source order
  // (by column; where the compiler gave the line's accesses one column, in issue order).
  if (sel.nth >= 0)
    for (std::vector<int64_t>& p : passes) {
      std::vector<uint32_t> columns;
      for (int64_t i : p) columns.push_back(t.sites[t.events[size_t(i)].site].column);
      std::sort(columns.begin(), columns.end());
      columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
      if (columns.size() == 1) {
        if (size_t(sel.nth) < p.size()) p = {p[size_t(sel.nth)]};
        else p.clear();
        continue;
      }
      if (size_t(sel.nth) >= columns.size()) {
        p.clear();
        continue;
      }
      const uint32_t want = columns[size_t(sel.nth)];
      std::erase_if(p, [&](int64_t i) { return t.sites[t.events[size_t(i)].site].column != want; });
    }
  std::erase_if(passes, [](const std::vector<int64_t>& p) { return p.empty(); });
  return passes;
}

// The step's selection: the block and warp, then the instruction of the named line (its
// costliest, first or n-th issue by that warp), or the n-th hazard pair.
std::string LessonPlayer::apply_select(Session& s, const LessonSelect& sel) {
  const auto d = s.data();
  if (!d) return {};
  if (!d->error.empty() && d->result.launches.empty()) return d->error;
  SelectionSpec spec;
  spec.keys["launch"] = sel.launch;
  spec.keys["block"] = sel.block;
  spec.keys["warp"] = sel.warp;
  if (sel.hazard >= 0) spec.keys["hazard"] = sel.hazard;
  // From the step's own selection: no lane, element or playback left by the step before.
  s.sel.lane = -1;
  s.sel.element = -1;
  s.sel.cursor = -1;
  if (std::string err = apply_selection(s, spec); !err.empty()) return err;
  if (sel.hazard < 0 && (sel.line_number || !sel.line_text.empty())) {
    const Trace& t = *s.trace();
    const std::vector<std::vector<int64_t>> passes = line_passes(t, sel);
    std::string what = sel.line_number ? "line " + std::to_string(sel.line_number) : "a line containing '" + sel.line_text + "'";
    if (!sel.access.empty() || !sel.array.empty() || sel.nth >= 0)
      what += " (" + (sel.nth >= 0 ? "access " + std::to_string(sel.nth) + ": the " : std::string()) +
              (sel.access.empty() ? std::string("any access") : sel.access) + (sel.array.empty() ? "" : " of " + sel.array) + ")";
    if (passes.empty()) {
      if (!sel.array.empty() && std::none_of(t.allocations.begin(), t.allocations.end(),
                                             [&](const Allocation& a) { return a.name == sel.array; })) {
        std::string names;
        for (const Allocation& a : t.allocations) names += (names.empty() ? "" : ", ") + a.name;
        return "the kernel has no array '" + sel.array + "' (its arrays: " + names + ")";
      }
      return "no instruction of warp " + std::to_string(sel.warp) + " in block " + std::to_string(sel.block) +
             " at " + what;
    }
    std::vector<int64_t> at_line;
    for (const auto& p : passes) at_line.insert(at_line.end(), p.begin(), p.end());
    const std::string& line = what;
    auto costliest = [&](const std::vector<int64_t>& events) {
      int64_t best = events.front();
      uint64_t worst = 0;
      for (int64_t i : events) {
        const uint64_t c = analysis::excess_cost(analysis::metrics_of(t, t.events[size_t(i)]));
        if (c > worst) worst = c, best = i;
      }
      return best;
    };
    int64_t pick = at_line.front();
    if (sel.occurrence == LessonSelect::Occurrence::Index) {
      if (sel.index >= passes.size())
        return "warp " + std::to_string(sel.warp) + " passes " + line + " " + std::to_string(passes.size()) +
               " times: occurrence " + std::to_string(sel.index) + " does not exist (0 to " +
               std::to_string(passes.size() - 1) + ")";
      pick = costliest(passes[sel.index]);
    } else if (sel.occurrence == LessonSelect::Occurrence::First) {
      pick = costliest(passes.front());
    } else {
      pick = costliest(at_line);
    }
    s.select_event(pick);
  }
  if (sel.lane >= 0) s.sel.lane = sel.lane;
  if (sel.cursor >= 0) s.set_cursor(sel.cursor);
  ++s.sel_version;
  return {};
}

void LessonPlayer::prefetch_around(size_t k) {
  std::vector<RunRequest> want;
  auto add = [&](size_t i) {
    if (i >= lesson_.steps.size() || !untrusted_file(lesson_.steps[i]).empty()) return;
    want.push_back(lesson_request(lesson_.steps[i].launch));
    if (lesson_.steps[i].compare) want.push_back(lesson_request(lesson_.steps[i].compare->launch));
  };
  add(k + 1);
  add(k + 2);
  if (k > 0) add(k - 1);
  add(k + 3);
  std::lock_guard lock(mu_);
  // Keep the runs of the steps near this one; forget the rest (each holds a run's traces).
  std::map<std::string, bool> near;
  for (size_t i = k > 3 ? k - 3 : 0; i < std::min(lesson_.steps.size(), k + 5); ++i) {
    near[run_key(lesson_request(lesson_.steps[i].launch))] = true;
    if (lesson_.steps[i].compare) near[run_key(lesson_request(lesson_.steps[i].compare->launch))] = true;
  }
  for (auto it = cache_.begin(); it != cache_.end();)
    it = (cache_.size() > 2 * kCacheSteps && !near.count(it->first)) ? cache_.erase(it) : std::next(it);
  wanted_ = std::move(want);
  cv_.notify_all();
}

void LessonPlayer::prefetcher(std::stop_token st) {
  for (;;) {
    RunRequest r;
    {
      std::unique_lock lock(mu_);
      if (!cv_.wait(lock, st, [&] { return !wanted_.empty(); })) return;
      r = wanted_.front();
      wanted_.erase(wanted_.begin());
      if (cache_.count(run_key(r))) continue;
    }
    auto d = Session::compute(r, cancel_);
    if (st.stop_requested()) return;
    std::lock_guard lock(mu_);
    cache_.try_emplace(run_key(r), std::move(d));
  }
}

LessonStep LessonPlayer::current_as_step() const {
  LessonStep out = step();
  const RunRequest& r = main_->last_request();
  LessonLaunch& l = out.launch;
  l = LessonLaunch{};
  l.kernel = r.kernel;
  // A kernel file's kernel is saved as its file (step_toml names it relative to the lesson):
  // its name exists only once the file is built.
  if (const std::optional<CatalogEntry> e = Catalog::instance().copy(r.kernel); e && !e->spec.file.empty())
    l.file = e->spec.file;
  l.backend = r.backend;
  const RunConfig& c = r.config;
  l.text.variant = c.variant;
  if (c.n) l.text.n = std::to_string(c.n);
  if (c.block.x) l.text.block = std::to_string(c.block.x) + "," + std::to_string(c.block.y) + "," + std::to_string(c.block.z);
  l.text.dtype = c.dtype;
  l.text.seed = std::to_string(c.seed);
  for (const auto& [k, v] : c.params) l.text.params.push_back(k + "=" + param_text(v));
  for (const auto& [k, v] : c.param_choices) l.text.params.push_back(k + "=" + v);
  std::string blocks;
  for (uint32_t b : c.record.blocks) blocks += (blocks.empty() ? "" : ",") + std::to_string(b);
  l.text.blocks = blocks;
  const Selection& sel = main_->sel;
  LessonSelect& s = out.select;
  s = LessonSelect{};
  s.launch = sel.launch;
  s.block = sel.block;
  s.warp = sel.warp;
  s.lane = sel.lane;
  s.cursor = sel.cursor;
  if (const Trace* t = main_->trace(); t && sel.event >= 0 && size_t(sel.event) < t->events.size()) {
    const Event& e = t->events[size_t(sel.event)];
    if (e.site < t->sites.size()) {
      // The line, the instruction's access and array, and which of the warp's passes it is in.
      s.line_number = t->sites[e.site].line;
      if (e.type == EventType::Access) {
        s.access = to_string(e.kind);
        if (e.alloc < t->allocations.size()) s.array = t->allocations[e.alloc].name;
      }
      s.occurrence = LessonSelect::Occurrence::Index;
      const auto passes = line_passes(*t, s);
      for (size_t k = 0; k < passes.size(); ++k)
        if (std::find(passes[k].begin(), passes[k].end(), sel.event) != passes[k].end()) {
          s.index = uint32_t(k);
          // Two accesses of one array on the line (a[i] += a[i + s]): which one, by column.
          std::vector<uint32_t> columns;
          for (int64_t i : passes[k]) columns.push_back(t->sites[t->events[size_t(i)].site].column);
          std::sort(columns.begin(), columns.end());
          columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
          if (columns.size() > 1)
            s.nth = int(std::lower_bound(columns.begin(), columns.end(), t->sites[e.site].column) - columns.begin());
        }
    }
  }
  // Each view with the options it shows now (a picker changed during the step is kept), and the
  // step's own `controls` where it set one.
  for (size_t k = 0; k < out.views.size() && k < views_.size(); ++k) {
    LessonView& v = out.views[k];
    std::string preset;  // an alias's own option ("timing-live": tab=live) is written even at its default
    const ViewType* type = find_view_type(v.id, &preset);
    if (!type) continue;
    std::vector<std::string> options;
    for (const std::string& o : v.options)
      if (o.rfind("controls=", 0) == 0) options.push_back(o);
    for (std::string& o : options_shown(*type, *views_[k])) options.push_back(std::move(o));
    if (const std::string key = preset.substr(0, preset.find('=')); !key.empty()) {
      const bool written = std::any_of(options.begin(), options.end(), [&](const std::string& o) { return o.rfind(key + "=", 0) == 0; });
      if (!written) options.push_back(key + "=" + option_value(*type, *views_[k], key));
    }
    v.options = std::move(options);
  }
  out.title = step().title + " (as shown)";
  return out;
}

void LessonPlayer::replace_lesson(Lesson lesson, size_t k) {
  lesson_ = std::move(lesson);
  index_ = std::min(k, lesson_.steps.empty() ? size_t(0) : lesson_.steps.size() - 1);
  prefetch_around(index_);
}

std::filesystem::path untrusted_file(const LessonStep& step) {
  if (step.launch.kernel.empty() && !step.launch.file.empty()) return step.launch.file;
  if (step.compare && step.compare->launch.kernel.empty() && !step.compare->launch.file.empty())
    return step.compare->launch.file;
  return {};
}

std::string views_expect(const LessonExpect& e, const std::vector<std::unique_ptr<View>>& views) {
  if (!e.end_to_end_ms) return {};
  for (const auto& v : views)
    if (auto* st = dynamic_cast<StreamTimelineView*>(v.get())) {
      if (st->scenario < 0 || size_t(st->scenario) >= st->timeline.scenarios.size())
        return "end_to_end_ms needs a streams view of one scenario";
      const double got = st->timeline.scenarios[size_t(st->scenario)].end_to_end_us() / 1000.0;
      if (std::abs(got - *e.end_to_end_ms) > 0.05) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "end to end %.2f ms, expected %.1f", got, *e.end_to_end_ms);
        return buf;
      }
      return {};
    }
  return "end_to_end_ms needs a streams view";
}

}  // namespace ws::app
