// Timing: the real kernels timed on the GPU next to the pictures (the lecture's reduction table
// beside CUB, live series, sweeps); without a GPU, the emulator's counts that explain the steps.
#pragma once

#include "views/view.h"

#include "model/session.h"

#include "ws/viz/plot.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ws::app {

class TimingRunner;

struct TimingView final : View {
  static const ViewOption kOptions[3];  // (timing.cpp)
  explicit TimingView(TimingRunner& r) : runner(r) {}
  void draw(Session& s) override;
  std::string prepare_picture(Session& s) override;  // asks for the measurements and waits

  TimingRunner& runner;
  int open_tab = 0;  // tab to select on the next draw (0 Variants, 1 Live, 2 Sweep; -1: the user's)
  int picture_tab = 0;  // the tab a picture without controls shows (the "tab" option)
  bool asked_ceilings = false;
  int size_index = 2, dtype_index = 0, block_index = 1;  // Variants/Sweep: n = 2^24, int, block 256
  uint64_t kernel_n = 0;  // Live, Sweep and any kernel's Variants: 0 = the kernel's timing size
  int sweep_axis = 0;
  int count_metric = 0;
  std::string counts_requested;  // history key of the run the counts were asked for
  ws::viz::PlotState variants_plot, live_ms_plot, live_gbps_plot, sweep_plot, counts_plot;
  std::filesystem::path export_dir = ".";  // where "Save CSV" writes
  std::string message;                     // the last CSV export's path or error
  bool message_is_error = false;
};

// What live mode times: the labs' run at its timing launch (timing::timing_launch: the kernel's
// GPU size and device tuning, or the Live tab's size), and what that changed.
struct LiveTarget {
  std::string kernel, name;
  RunConfig config;
  std::vector<std::string> changes;
  std::string error;  // the labs' run does not resolve
};
LiveTarget live_target(const RunRequest& labs_run, const TimingView& st);

}  // namespace ws::app
