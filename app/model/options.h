// The viewer's command-line options (parsed in cli.cpp with CLI11).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ws/run/launch_text.h"

namespace ws::app {

inline constexpr int kMaxImageSide = 16384;  // the largest texture any GL 3.3 driver we target makes

struct Options {
  bool headless = false;
  bool in_process = false;  // GPU work and kernel files in this process, not the run process
  int width = 1600;
  int height = 900;
  bool size_given = false;
  float scale = 1.0f;
  bool scale_given = false;
  std::string screenshot;  // "" = none
  int frames = 0;          // 0 = default (4 headless; run until quit in a window)
  bool presentation = false;
  std::string program = "warpscope";  // argv[0], so hints show a command that runs as typed
  // One view alone (--view): what to run and select. Empty kernel: the viewer's default run.
  std::string view;
  std::string kernel, select;
  LaunchText launch;  // --variant, --n, --block, --dtype, --seed, --param (ws::apply_launch_text checks them)
  std::string color;  // --color for --view memory-heatmap: accesses, conflicts, first-touch
  std::string timeline_x;  // --timeline-x for --view divergence-timeline: steps, clock, time
  bool compare = false;    // --compare for --view divergence-timeline: the other backend below
  std::vector<std::string> view_options;  // --view-option KEY=VALUE: any view's own options
  std::string backend;              // "", emu, gpu-trace
  std::string mouse;                // --mouse X,Y: hover there in the picture ("" = nowhere)
  std::string lesson;               // --lesson FILE: open in lesson mode
  bool trust = false;               // --trust: build and run the lesson's kernel files
  bool trust_outside = false;       // --trust-outside: ...even those outside its folder
  std::string kernel_file;          // `open FILE.cu`: a kernel file, built and watched
  std::string exercise;             // --exercise FILE: open an exercise (its starting file copied to --work)
  std::string work_dir = ".";       // --work DIR: the student's folder
  int step = 1;                     // --step N: with --headless --lesson, the step to render
};

struct Size {
  int width = 0;
  int height = 0;
};
// Parses "WIDTHxHEIGHT" (1..kMaxImageSide each). On failure returns nullopt and sets `error`.
std::optional<Size> parse_size(const std::string& text, std::string& error);

struct Point {
  int x = 0;
  int y = 0;
};
// Parses "X,Y", a pixel of a picture of `picture` size (0..width-1, 0..height-1). On failure
// returns nullopt and sets `error`.
std::optional<Point> parse_point(const std::string& text, Size picture, std::string& error);

}  // namespace ws::app
