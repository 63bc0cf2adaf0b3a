// Stream timeline view (stream_timeline.h). One band per scenario: its rows (host, each stream,
// the copy engines, the kernels) as bars on a microsecond axis shared by every band, so the
// synchronous version and the chunked ones compare at a glance; under each band, end to end
// against the sum of the work.
#include "views/stream_timeline.h"
#include "views/view_common.h"

#include "ws/timing/streams.h"
#include "ws/timing/timing.h"
#include "ws/util/atomic_file.h"

#include "ws/viz/colormap.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace ws::app {

namespace {

ImVec4 kind_color(StreamOpKind k, const ws::viz::ViewColors& vc) {
  switch (k) {
    case StreamOpKind::HostCall: return vc.inactive;
    case StreamOpKind::Kernel: return vc.active;
    case StreamOpKind::CopyHtoD: return vc.global;
    case StreamOpKind::CopyDtoH: return vc.sync;
    case StreamOpKind::CopyDtoD: return vc.barrier;
  }
  return vc.text;
}

std::string us_text(double us) {
  char b[32];
  if (us >= 1000) std::snprintf(b, sizeof b, "%.1f ms", us / 1000);
  else std::snprintf(b, sizeof b, "%.0f us", us);
  return b;
}

// The rows a band draws: all of them, or (compact: every scenario in one picture) the host's and
// the streams' (the engines' rows repeat what the streams show), without the host's where asked.
std::vector<StreamRow> band_rows(const StreamScenario& sc, bool compact, bool host) {
  std::vector<StreamRow> rows = stream_rows(sc);
  if (compact)
    std::erase_if(rows, [&](const StreamRow& r) {
      return r.label.rfind("copy ", 0) == 0 || r.label == "kernels" || (!host && r.label == "host");
    });
  return rows;
}

// A tick step of 1, 2 or 5 x 10^k that gives about `count` ticks over `span`.
double tick_step(double span, int count) {
  const double raw = span / std::max(count, 1);
  const double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

}  // namespace

const ViewOption StreamTimelineView::kOptions[3] = {
    {"scenario", "all|1|2|3|4|5|6|7|8", "every scenario one under another on one time axis, or one of them",
     [](const View& v) { return static_cast<const StreamTimelineView&>(v).scenario + 1; },  // all: -1
     [](View& v, int k) { static_cast<StreamTimelineView&>(v).scenario = k - 1; }},
    {"source", "shipped|record",
     "the recording that ships with warpscope (made on a GPU), or (with a CUDA GPU) one recorded before the picture",
     [](const View& v) { return static_cast<const StreamTimelineView&>(v).record_asked ? 1 : 0; },
     [](View& v, int k) { static_cast<StreamTimelineView&>(v).record_asked = k == 1; }},
    kControlsOption};

void StreamTimelineView::load_default() {
  loaded = true;
  const auto p = timing::shipped_stream_recording();
  if (p.empty()) {
    message = "the recording that ships with warpscope (assets/streams_h100.json) was not found";
    message_is_error = true;
    return;
  }
  if (std::string err = load_stream_timeline(p, timeline); !err.empty()) {
    message = err;
    message_is_error = true;
    return;
  }
  source = p.filename().string() + " (shipped: recorded on a GPU)";
}

void StreamTimelineView::start_recording() {
  recording = std::async(std::launch::async, [] {
    StreamTimeline t;
    std::string err = timing::record_streams(StreamPlan{}, t, "the viewer's Record (warpscope streams, default plan)");
    return std::make_pair(err, t);
  });
  message = "recording on this GPU ...";
  message_is_error = false;
}

void StreamTimelineView::poll_recording() {
  if (!recording.valid() || recording.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  auto [err, t] = recording.get();
  if (!err.empty()) {
    message = "not recorded: " + err;
    message_is_error = true;
    return;
  }
  timeline = std::move(t);
  source = "recorded here";
  message = "recorded " + std::to_string(timeline.scenarios.size()) + " scenarios";
  message_is_error = false;
}

std::string StreamTimelineView::prepare_picture(Session&) {
  if (!loaded) load_default();
  if (record_asked) {
    start_recording();
    recording.wait();
    poll_recording();  // (on failure the shipped recording stays, and the message says why)
  }
  return {};
}

void StreamTimelineView::draw_scenario(const StreamScenario& sc, double axis_us, float width, bool compact, bool axis_labels) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const std::vector<StreamRow> rows = band_rows(sc, compact, host_rows);
  const float label_w = 8 * E, gap = (compact ? 0.15f : 0.25f) * E;
  const float row_h = row_height > 0 ? row_height : 1.5f * E;
  const float plot_w = std::max(4 * E, width - label_w);
  const double e2e = sc.end_to_end_us(), busy = sc.busy_us();
  const std::string summary = "end to end " + us_text(e2e) + ", the work summed " + us_text(busy) + ": " +
                              (busy > e2e * 1.02 ? "overlap saves " + us_text(busy - e2e) : std::string("no overlap"));
  if (compact) {  // one line: the name, then what it took
    ImGui::TextUnformatted(sc.name.c_str());
    ImGui::SameLine(0, 2 * E);
    ImGui::TextColored(vc.text_dim, "%s", summary.c_str());
  } else {
    ImGui::TextUnformatted(sc.name.c_str());
  }
  if (!sc.description.empty() && controls) {
    ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
    ImGui::TextWrapped("%s", sc.description.c_str());
    ImGui::PopStyleColor();
  }
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const double scale = axis_us > 0 ? plot_w / axis_us : 0;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const StreamOp* hovered = nullptr;
  for (size_t r = 0; r < rows.size(); ++r) {
    const float y = o.y + float(r) * (row_h + gap);
    dl->AddText(ImVec2(o.x, y + (row_h - ImGui::GetFontSize()) / 2), ImGui::ColorConvertFloat4ToU32(vc.text), rows[r].label.c_str());
    dl->AddRectFilled(ImVec2(o.x + label_w, y), ImVec2(o.x + label_w + plot_w, y + row_h), ImGui::ColorConvertFloat4ToU32(vc.empty));
    for (size_t i : rows[r].ops) {
      const StreamOp& op = sc.ops[i];
      const float x0 = o.x + label_w + float(op.start_us * scale);
      const float x1 = std::max(x0 + 1.0f, o.x + label_w + float(op.end_us * scale));
      dl->AddRectFilled(ImVec2(x0, y + 1), ImVec2(x1, y + row_h - 1), ImGui::ColorConvertFloat4ToU32(kind_color(op.kind, vc)));
      // A bar wide enough carries its name.
      const std::string text = op.kind == StreamOpKind::HostCall ? op.name : to_string(op.kind);
      if (row_h >= 1.3f * E && x1 - x0 > ImGui::CalcTextSize(text.c_str()).x + 0.5f * E)
        dl->AddText(ImVec2(x0 + 0.25f * E, y + (row_h - ImGui::GetFontSize()) / 2), ImGui::ColorConvertFloat4ToU32(vc.background),
                    text.c_str());
      if (mouse.x >= x0 && mouse.x < x1 && mouse.y >= y && mouse.y < y + row_h) hovered = &op;
    }
  }
  const float bottom = o.y + float(rows.size()) * (row_h + gap);
  // The time axis.
  const double step = tick_step(axis_us, int(plot_w / (6 * E)));
  for (double t = 0; t <= axis_us + 1e-9; t += step) {
    const float x = o.x + label_w + float(t * scale);
    dl->AddLine(ImVec2(x, bottom), ImVec2(x, bottom + 0.3f * E), ImGui::ColorConvertFloat4ToU32(vc.text_dim));
    if (!axis_labels) continue;
    char lbl_buf[32];
    if (axis_us >= 10000) std::snprintf(lbl_buf, sizeof lbl_buf, step >= 1000 ? "%.0f ms" : "%.1f ms", t / 1000);
    else std::snprintf(lbl_buf, sizeof lbl_buf, "%.0f us", t);
    const std::string lbl = lbl_buf;
    dl->AddText(ImVec2(x - (t > 0 ? ImGui::CalcTextSize(lbl.c_str()).x / 2 : 0), bottom + 0.35f * E),
                ImGui::ColorConvertFloat4ToU32(vc.text_dim), lbl.c_str());
  }
  ImGui::Dummy(ImVec2(width, bottom + (axis_labels ? 1.5f : 0.4f) * E - o.y));
  if (!compact) ImGui::TextUnformatted(summary.c_str());
  if (hovered) {
    const StreamOp& op = *hovered;
    if (op.bytes)
      wrapped_tooltip("%s (%s), stream %u\nfrom %.1f to %.1f us: %.1f us\n%.1f MB, %.1f GB/s, %s host memory", op.name.c_str(),
                      to_string(op.kind), op.stream, op.start_us, op.end_us, op.duration_us(), double(op.bytes) / 1e6, op.gbps(),
                      op.pinned ? "pinned" : "pageable");
    else
      wrapped_tooltip("%s (%s), stream %u\nfrom %.1f to %.1f us: %.1f us%s", op.name.c_str(), to_string(op.kind), op.stream,
                      op.start_us, op.end_us, op.duration_us(),
                      op.kind == StreamOpKind::HostCall ? "\n(the host thread's call, from its call to its return)" : "");
  }
}

ImVec2 StreamTimelineView::natural_size(Session&) {
  if (controls) return ImVec2(0, 0);
  if (!loaded) load_default();
  if (timeline.scenarios.empty()) return ImVec2(0, 0);
  const float E = em(), line = ImGui::GetTextLineHeightWithSpacing();
  // The source and legend lines, then a band (its name, rows of 1.5 em, the axis and the summary)
  // for the one scenario shown; the overview fills whatever it gets.
  if (scenario >= 0 && size_t(scenario) < timeline.scenarios.size()) {
    const float rows = float(band_rows(timeline.scenarios[size_t(scenario)], false, true).size());
    return ImVec2(48 * E, 4 * line + rows * 1.75f * E + 1.5f * E + line);
  }
  // The overview: every band's name line and its rows as low as their labels.
  float h = 4 * line + 2 * E;
  for (const StreamScenario& sc : timeline.scenarios)
    h += line + 0.8f * E + float(band_rows(sc, true, true).size()) * (std::ceil(1.05f * E) + 0.25f * E);
  return ImVec2(48 * E, h);
}

size_t StreamTimelineView::fit_overview() {
  // Every band in the room, its rows no lower than their labels: first lower rows, then without
  // the host's rows, then fewer scenarios (each said).
  const float E = em(), line = ImGui::GetTextLineHeightWithSpacing(), gap = 0.15f * E;
  const float least = std::ceil(1.05f * E);
  const float room = ImGui::GetContentRegionAvail().y - 2 * E - 2 * line;  // the axis, the notes
  auto need = [&](size_t bands, bool host, float row) {
    float h = 0;
    for (size_t i = 0; i < bands; ++i)
      h += line + 0.4f * E + float(band_rows(timeline.scenarios[i], true, host).size()) * (row + gap);
    return h;
  };
  const size_t all = timeline.scenarios.size();
  size_t shown = all;
  if (need(all, true, least) > room) {
    host_rows = false;
    left_out.push_back("the host rows of the overview (no room: each scenario's own slide has them)");
  }
  while (shown > 1 && need(shown, host_rows, least) > room) --shown;
  if (shown < all) left_out.push_back(std::to_string(all - shown) + " scenarios of the overview (no room)");
  // The rows as tall as the room allows, up to 1.5 em.
  float row = least;
  while (row + 1 <= 1.5f * E && need(shown, host_rows, row + 1) <= room) row += 1;
  row_height = row;
  return shown;
}

void StreamTimelineView::draw(Session&) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  left_out.clear();
  if (!loaded) load_default();
  poll_recording();
  if (controls) {
    const bool gpu = timing::device().present;
    ImGui::BeginDisabled(!gpu || recording.valid());
    if (ImGui::Button("Record on this GPU")) start_recording();
    ImGui::EndDisabled();
    if (!gpu && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      wrapped_tooltip("Recording needs a CUDA GPU (%s): the view shows the recording made on one.", timing::device().why_not.c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(12 * E);
    ImGui::InputText("##path", path, sizeof path);
    ImGui::SameLine();
    if (ImGui::Button("Load")) {
      StreamTimeline t;
      if (std::string err = load_stream_timeline(path, t); !err.empty()) message = err, message_is_error = true;
      else timeline = std::move(t), source = path, message = std::string("loaded ") + path, message_is_error = false;
    }
    ImGui::SameLine();
    if (ImGui::Button("Save")) {
      const std::string err = save_stream_timeline(path, timeline);
      message = err.empty() ? std::string("wrote ") + path : err;
      message_is_error = !err.empty();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(12 * E);
    ImGui::InputText("##perfetto", perfetto_path, sizeof perfetto_path);
    ImGui::SameLine();
    if (ImGui::Button("Export Perfetto JSON")) {
      const std::string err = write_file_atomic(perfetto_path, stream_timeline_perfetto(timeline));
      message = err.empty() ? std::string("wrote ") + perfetto_path + " (open it in ui.perfetto.dev)" : err;
      message_is_error = !err.empty();
    }
    if (!timeline.scenarios.empty()) {
      ImGui::SetNextItemWidth(20 * E);
      const std::string shown = scenario < 0 || size_t(scenario) >= timeline.scenarios.size()
                                    ? std::string("all, one time axis")
                                    : timeline.scenarios[size_t(scenario)].name;
      if (ImGui::BeginCombo("scenario", shown.c_str())) {
        if (ImGui::Selectable("all, one time axis", scenario < 0)) scenario = -1;
        for (size_t i = 0; i < timeline.scenarios.size(); ++i)
          if (ImGui::Selectable(timeline.scenarios[i].name.c_str(), int(i) == scenario)) scenario = int(i);
        ImGui::EndCombo();
      }
    }
  }
  if (!message.empty()) ImGui::TextColored(message_is_error ? vc.conflict : vc.text_dim, "%s", message.c_str());
  if (timeline.scenarios.empty()) {
    ImGui::TextWrapped("No stream timeline: record one on a CUDA GPU (warpscope streams -o FILE) and load it.");
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
  if (controls && !timing::device().present)
    ImGui::TextWrapped("Recording streams needs a CUDA GPU (%s): this is the recording made on one.",
                       timing::device().why_not.c_str());
  ImGui::TextWrapped("%s, %s; %s. Times: %s.", timeline.device.c_str(), timeline.recorded.c_str(), source.c_str(),
                     timeline.clock.c_str());
  ImGui::PopStyleColor();
  swatch(vc.inactive, "host call");
  ImGui::SameLine();
  swatch(vc.global, "copy HtoD");
  ImGui::SameLine();
  swatch(vc.sync, "copy DtoH");
  ImGui::SameLine();
  swatch(vc.active, "kernel");
  if (controls) ImGui::NewLine();
  const float width = ImGui::GetContentRegionAvail().x;
  row_height = 0;
  if (scenario >= 0 && size_t(scenario) < timeline.scenarios.size()) {
    const StreamScenario& sc = timeline.scenarios[size_t(scenario)];
    double axis = 0;
    for (const StreamOp& op : sc.ops) axis = std::max(axis, op.end_us);
    draw_scenario(sc, axis, width, false, true);
    return;
  }
  // All scenarios on one axis: the longest sets it. A picture (no controls) fits every band in
  // its box: rows get lower, down to the height of their labels; past that the host's rows are
  // left out (and said).
  host_rows = true;
  size_t shown = timeline.scenarios.size();
  if (!controls) shown = fit_overview();
  double axis = 0;
  for (const StreamScenario& sc : timeline.scenarios)
    for (const StreamOp& op : sc.ops) axis = std::max(axis, op.end_us);
  if (controls) ImGui::BeginChild("##scenarios");
  for (size_t i = 0; i < shown; ++i) {
    draw_scenario(timeline.scenarios[i], axis, width - (controls ? ImGui::GetStyle().ScrollbarSize : 0), !controls,
                  controls || i + 1 == shown);
    if (controls) ImGui::Spacing();
  }
  if (!host_rows) ImGui::TextColored(vc.text_dim, "The host's calls are left out here for room: each scenario's own slide shows them.");
  if (shown < timeline.scenarios.size())
    ImGui::TextColored(vc.text_dim, "and %zu more scenario%s, on their own slides (no room here at this type size)",
                       timeline.scenarios.size() - shown, timeline.scenarios.size() - shown == 1 ? "" : "s");
  if (controls) ImGui::EndChild();
}

}  // namespace ws::app
