// Stream timeline: the host thread, each CUDA stream, the copy engines and the kernels of a
// program on one time axis in microseconds (seed 000's CPU-GPU pipeline, seed 002's two streams
// with cudaMemcpyAsync and pinned memory). It shows a recording: the one made on a GPU that ships
// with warpscope, one loaded from a file, or one recorded here (with a CUDA GPU).
#pragma once

#include "views/view.h"

#include "ws/trace/stream_timeline.h"

#include <imgui.h>

#include <future>
#include <string>

namespace ws::app {

struct StreamTimelineView final : View {
  static const ViewOption kOptions[3];  // (stream_timeline.cpp)
  void draw(Session& s) override;
  std::string prepare_picture(Session& s) override;
  ImVec2 natural_size(Session& s) override;

  StreamTimeline timeline;
  std::string source;           // where `timeline` came from ("assets/streams_h100.json", "recorded here")
  std::string message;          // the last load / save / record result
  bool message_is_error = false;
  bool loaded = false;          // the shipped recording was looked for
  int scenario = -1;            // which scenario; -1: all, one under another on one time axis
  bool record_asked = false;    // option source=record: a picture records on this GPU first
  std::future<std::pair<std::string, StreamTimeline>> recording;
  float row_height = 0;          // a band's row height for this draw (0: the default 1.5 em)
  bool host_rows = true;         // the overview draws the host's rows (there was room)
  char path[512] = "streams.json";
  char perfetto_path[512] = "streams.perfetto.json";

 private:
  void load_default();
  void start_recording();
  void poll_recording();
  // The overview on a slide: sets row_height and host_rows so that the bands fit the room, and
  // returns how many scenarios fit (the rest are said left out).
  size_t fit_overview();
  // `compact`: only the host's and the streams' rows; `axis_labels`: the time axis's numbers.
  void draw_scenario(const StreamScenario& sc, double axis_us, float width, bool compact, bool axis_labels);
};

}  // namespace ws::app
