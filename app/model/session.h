// The session: what the viewer is looking at. One run of a catalog kernel (its RunConfig, the
// RunResult with one Trace per launch, an analysis Report per launch) and the Selection every view
// reads and writes: click a bank in the heatmap and the access map, the timeline and the source
// view follow.
//
// Runs happen on a background thread so the UI never blocks: request() queues a run and returns;
// a newer request supersedes an older one (a run that is already going finishes, and its result is
// dropped as stale); poll(), once per frame on the UI thread, swaps a finished run in. Refusals and
// kernel faults come back as text in the data (never an exception, never a crash).
//
//   Session& s = session();
//   s.request(RunRequest{"reduce", cfg});
//   ... each frame: s.poll(); if (auto d = s.data()) draw(d->result.launches[sel.launch]) ...
#pragma once

#include "ws/analysis/analysis.h"
#include "ws/analysis/verdict.h"
#include "ws/run/catalog.h"
#include "ws/trace/trace.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ws::app {

inline constexpr uint32_t kNone = 0xffffffffu;

// What is selected, in the current run. Indices refer to data()->result.launches[launch].
struct Selection {
  uint32_t launch = 0;    // which kernel launch of the run
  uint32_t block = 0;     // linear block index (must be a recorded block)
  uint32_t warp = 0;      // warp of the block
  int64_t event = -1;     // index in the launch's Trace::events (-1 = none)
  uint32_t site = kNone;  // site index in the trace
  int lane = -1;          // lane of the warp (-1 = none)
  uint32_t alloc = kNone; // allocation (memory heatmap)
  int64_t element = -1;   // element of `alloc`
  // Playback: how many of the selected block's events have issued (-1 = all: no playback).
  int64_t cursor = -1;
};

struct RunRequest {
  std::string kernel = "reduce";
  RunConfig config;
  BackendKind backend = BackendKind::Emu;
};

// A finished run. Immutable once published; views hold it through a shared_ptr.
struct SessionData {
  uint64_t generation = 0;  // increases with every published run
  RunRequest request;       // as asked
  RunConfig resolved;       // with the kernel's defaults filled in
  RunResult result;
  std::vector<analysis::Report> reports;  // one per launch
  std::string error;        // refused / failed: readable, for the panels
  double run_ms = 0;        // emulator + analysis wall time
};

// Key numbers of a run, remembered per variant so the lab can compare steps side by side.
struct KeyNumbers {
  bool valid = false;
  bool passed = false;
  analysis::Verdict verdict = analysis::Verdict::Fail;  // what the run comes to (analysis/verdict.h)
  uint64_t shared_conflicts = 0, shared_wavefronts = 0, shared_instructions = 0;
  double simd_efficiency = 0;
  double global_load_efficiency = 0, global_store_efficiency = 0;
  uint64_t global_sectors = 0, global_requests = 0;
  uint64_t hazards = 0;           // racing access pairs (different warps, or one instruction)
  uint64_t lockstep_hazards = 0;  // pairs inside a warp: right only in lockstep
  uint64_t instructions = 0;
  uint64_t recorded_blocks = 0, total_blocks = 0;  // summed over launches
  // The GPU's whole-grid counters (gpu-trace, "count every block"), when every launch has them.
  bool grid = false;
  uint64_t grid_shared_conflicts = 0, grid_shared_wavefronts = 0, grid_instructions = 0;
  double grid_simd_efficiency = 0, grid_global_load_efficiency = 0;
};
KeyNumbers key_numbers(const SessionData& d);  // over every launch of the run

class Session {
 public:
  Session();
  ~Session();  // stop()
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Queues a run (replaces a queued one and cancels the one going, whose result would be dropped
  // anyway); returns at once.
  void request(RunRequest r);
  // Stops the run that is going (and drops a queued one): the panels then show "cancelled".
  void cancel();
  // Cancels the run that is going, drops a queued one and joins the worker thread; later requests
  // are never run. For the end of the program (stop_session_thread()).
  void stop();
  // The first frame's run (reduce, variant 1, n = 4096, block 256, blocks 0..3 recorded), once.
  void start_default();
  // UI thread, once per frame: publishes a finished run. Returns true when the data changed.
  bool poll();
  // Publishes `d` at once, as if a run had just finished (tests and tools with a trace in hand).
  void set_data(std::shared_ptr<SessionData> d);
  // Runs `r` on the calling thread and returns what a run publishes (a lesson prefetching its
  // next steps). `cancel`, when set to true, stops it early.
  static std::shared_ptr<SessionData> compute(RunRequest r, std::shared_ptr<std::atomic<bool>> cancel = {});
  // Shows `d` as the current run at once, as if it had been asked for and had just finished: the
  // controls show its request, a run still going is dropped.
  void show(std::shared_ptr<SessionData> d);
  // Waits until no run is queued or going and the last one is published (headless renders, tests).
  bool wait_idle(std::chrono::milliseconds timeout = std::chrono::seconds(60));

  std::shared_ptr<const SessionData> data() const { return data_; }
  bool busy() const;                  // a run is queued or going
  std::string busy_text() const;      // "running reduce 3 (n = 4096, block 256)…"
  const RunRequest& last_request() const { return last_request_; }  // what the controls show

  Selection sel;
  uint64_t sel_version = 0;  // bump when the selection changes (views redraw their caches)
  void select_event(int64_t event);  // also sets warp, block, site from the event
  // Selects an instruction of `line` of `file` (a site's file as the trace names it): the selected
  // warp's in the selected block, else the block's first, else the launch's first. False when no
  // recorded instruction is on that line.
  bool select_line(const std::string& file, uint32_t line);
  // The selected warp's previous (-1) or next (+1) memory instruction in its block, or -1.
  int64_t neighbour_instruction(int dir) const;
  // Selects it; false (nothing changes) at either end.
  bool step_instruction(int dir);
  // Selects a hazard's first access (launch, block, warp, instruction) and remembers the pair:
  // the source view marks both lines, the access map both instructions.
  void select_hazard(const analysis::Hazard& h);
  struct HazardPair {
    uint32_t launch = 0;
    int64_t first_event = -1, second_event = -1;
    uint32_t first_site = 0xffffffffu, second_site = 0xffffffffu;
    uint32_t first_lane = 0, second_lane = 0, first_warp = 0, second_warp = 0;
    std::string sentence;  // analysis::hazard_sentence: who touches what, where
    bool valid() const { return first_event >= 0; }
  } hazard_pair;
  void set_cursor(int64_t cursor);   // playback position (clamped to the block's events)

  // The selected launch's trace / report, or null.
  const Trace* trace() const;
  const analysis::Report* report() const;

  // Key numbers of earlier runs, keyed "kernel/variant/n/block/dtype".
  std::map<std::string, KeyNumbers> history;
  static std::string history_key(const std::string& kernel, const RunConfig& c);

  // Messages for the status bar from the views (a CSV saved, or why it was not): the shell takes
  // them each frame. At most 16 wait; older ones are dropped.
  struct Notice {
    std::string text;
    bool is_error = false;
  };
  void notify(std::string text, bool is_error);
  std::vector<Notice> take_notices();

  bool playing = false;
  float play_speed = 8.0f;  // events per second
  double play_accum = 0;
  // Advances playback by `dt` seconds when playing (the shell calls it once per frame).
  void advance_playback(float dt);

 private:
  void worker(std::stop_token st);
  void fix_selection();
  // The selected instruction by what survives an edit of the source: its line's text, its line,
  // its kind, and which of the warp's instances of it.
  struct SelectedInstruction {
    bool valid = false;
    std::string text;
    uint32_t line = 0;
    EventType type = EventType::Access;
    AccessKind kind = AccessKind::Load;
    uint32_t instance = 0;
  };
  SelectedInstruction selected_instruction() const;
  void reselect(const SelectedInstruction& before);

  mutable std::mutex mu_;
  std::condition_variable_any cv_;
  std::optional<RunRequest> pending_;
  bool running_ = false;
  uint64_t requested_ = 0;   // sequence number of the newest request
  uint64_t finished_ = 0;    // sequence number of the newest finished run
  std::shared_ptr<SessionData> ready_;  // finished, not yet published
  std::string running_text_;
  std::chrono::steady_clock::time_point running_since_{};
  BackendKind running_backend_ = BackendKind::Emu;
  bool running_file_ = false;  // a kernel file's run (the run process's time limit applies)
  std::shared_ptr<std::atomic<bool>> running_cancel_;  // the going run's cancel flag
  std::shared_ptr<const SessionData> data_;
  uint64_t generation_ = 0;
  RunRequest last_request_;
  bool default_started_ = false;
  std::vector<Notice> notices_;
  const Catalog& catalog_;  // made before the worker starts, so it outlives it
  std::jthread thread_;  // last member: joined first
};

// The viewer's one session (panels are plain functions).
Session& session();
// Stops session()'s worker thread if session() was ever called; does not make one. The program
// calls it before main() returns: statics that the emulator makes on first use (e.g. its site
// tables) are made after the session, so they are destroyed before it at exit, and a run still
// going then would use them after they are gone.
void stop_session_thread();

// The default run of the viewer (and of `--view` without options).
RunRequest default_request();

}  // namespace ws::app
