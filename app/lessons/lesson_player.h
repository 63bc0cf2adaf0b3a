// Plays a lesson: which step is shown, its runs (the step's launch, and its comparison's), its
// views, and the steps around it run ahead in the background so that moving to them is at once.
//
//   LessonPlayer p(load_lesson("lessons/reduction.toml").lesson);
//   p.go(0);
//   each frame: p.poll(); draw_lesson(p, ...);
//   on a key: p.next(); p.prev(); p.first(); p.go(k); p.reset_step();
//
// The lecturer can change anything during a step (a variant, the block, a warp): the step's
// session is the viewer's, and reset_step() puts it back as written.
#pragma once

#include "lessons/lesson.h"
#include "model/session.h"
#include "views/view.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ws::app {

class LessonPlayer {
 public:
  explicit LessonPlayer(Lesson lesson);
  ~LessonPlayer();
  LessonPlayer(const LessonPlayer&) = delete;
  LessonPlayer& operator=(const LessonPlayer&) = delete;

  const Lesson& lesson() const { return lesson_; }
  size_t index() const { return index_; }
  const LessonStep& step() const { return lesson_.steps[index_]; }

  // Shows step `k` (clamped) as written: from the runs made ahead when it was, else runs it now.
  // The step shown already is left as it is unless `as_written`.
  void go(size_t k, bool as_written = false);
  void next() { go(index_ + 1); }
  void prev() { go(index_ > 0 ? index_ - 1 : 0); }
  void first() { go(0); }
  // Puts the step back as written (launch, selection, views).
  void reset_step() { go(index_, true); }
  // Shows or hides the views' own pickers and buttons (off at first: the pictures alone).
  void toggle_controls();
  // Once a frame: takes in finished runs and applies the step's selection to them.
  void poll();
  // Waits until the step's runs are in and selected (headless pictures, tests).
  bool wait_ready(std::chrono::milliseconds timeout = std::chrono::seconds(120));
  // Before a picture without a window (an export, a test): what the step's views measure in the
  // background (the timing's counts or times) is measured and waited for. Returns "" or why not.
  std::string prepare_pictures();
  // The step's runs are in, with its selection applied.
  bool ready() const;
  // What went wrong in this step ("the line ... has no instruction of warp 0"), or "".
  const std::string& error() const { return error_; }

  Session& session() { return *main_; }
  Session* compare_session() { return step().compare ? other_.get() : nullptr; }
  // The step's views (one per LessonView), and the comparison's.
  std::vector<std::unique_ptr<View>>& views() { return views_; }
  std::vector<std::unique_ptr<View>>& compare_views() { return other_views_; }

  // The state on screen as a step: the session's launch and selection, the step's views.
  LessonStep current_as_step() const;
  // Replaces the lesson (after a step was saved into its file), staying on step `k`.
  void replace_lesson(Lesson lesson, size_t k);

  // The larger fonts the step's views drew with this frame (a slide's views grow into their
  // boxes): begin_frame() starts the list, want_zoom() adds to it, and the look builds those
  // sizes for the next frame.
  void begin_frame() { zooms_.clear(); }
  void want_zoom(float zoom);
  const std::vector<float>& zooms() const { return zooms_; }

  // Step k's runs were made ahead: going there shows them at once.
  bool is_cached(size_t k);

  // Runs made ahead that are kept (each holds a run's traces): the steps around the one shown.
  static constexpr size_t kCacheSteps = 8;

 private:
  struct Pending {
    bool selected = true;       // the selection was applied to the data shown
    uint64_t generation = 0;    // the data it was applied to
  };
  std::shared_ptr<SessionData> cached(const RunRequest& r);
  void show_run(Session& s, const RunRequest& r);
  void prefetch_around(size_t k);
  void prefetcher(std::stop_token st);
  std::string apply_select(Session& s, const LessonSelect& sel);

  Lesson lesson_;
  size_t index_ = 0;
  std::unique_ptr<Session> main_, other_;
  std::vector<std::unique_ptr<View>> views_, other_views_;
  Pending main_pending_, other_pending_;
  std::string error_;
  bool controls_ = false;
  std::vector<float> zooms_;  // sorted, each once

  // Runs of the steps around the shown one, keyed by their request (Session::history_key and
  // the backend), made by one background thread.
  mutable std::mutex mu_;
  std::condition_variable_any cv_;
  std::map<std::string, std::shared_ptr<SessionData>> cache_;
  std::vector<RunRequest> wanted_;  // what the prefetcher should run next, nearest step first
  std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
  std::jthread thread_;  // last: joined first
};

// The warp's passes through the selection's line, in issue order: its instructions there (of the
// access and array asked for) with none of its other instructions between and none of them twice
// (a loop's next trip starts a new pass). Each pass lists its events.
std::vector<std::vector<int64_t>> line_passes(const Trace& t, const LessonSelect& sel);

// The kernel file a step names that was not built because the lesson is not trusted (its own
// launch's or its comparison's), or an empty path.
std::filesystem::path untrusted_file(const LessonStep& step);

// What differs between a step's expectations and what its views show ("" when all agree): the
// claims about a view's own data (a stream timeline's end to end), not about the run.
std::string views_expect(const LessonExpect& e, const std::vector<std::unique_ptr<View>>& views);

// The key of a run in the lesson's cache.
std::string run_key(const RunRequest& r);

}  // namespace ws::app
