// The registry: one row per view. Adding a view is a class in its own files and a row here.
#include "views/view.h"

#include "kernel_file_watch.h"
#include "lessons/exercise_session.h"
#include "timing_runner.h"
#include "views/access_map.h"
#include "views/bank_heatmap.h"
#include "views/block_layout.h"
#include "views/divergence_timeline.h"
#include "views/exercise_view.h"
#include "views/kernel_file_view.h"
#include "views/lab.h"
#include "views/memory_heatmap.h"
#include "views/playback.h"
#include "views/source_view.h"
#include "views/stream_timeline.h"
#include "views/timing.h"

#include <algorithm>

namespace ws::app {

namespace {

template <class V>
std::unique_ptr<View> make() {
  return std::make_unique<V>();
}

#define WS_CONTROLS_OPTION \
  {"controls", "on|off", "the view's pickers and buttons above the picture (off: the picture alone, as lessons show it)"}
constexpr ViewOption kControlsOnly[] = {WS_CONTROLS_OPTION};
constexpr ViewAlias kLabAliases[] = {{"lab"}};
constexpr ViewAlias kAccessAliases[] = {{"access-map"}, {"access"}};
constexpr ViewAlias kBankAliases[] = {{"bank-heatmap"}, {"banks"}};
constexpr ViewOption kBankOptions[] = {
    {"scope", "warp|block|launch", "rows: the selected warp's shared instructions, its block's, or one per site"},
    WS_CONTROLS_OPTION};
constexpr ViewAlias kTimelineAliases[] = {{"timeline"}, {"divergence"}};
constexpr ViewOption kTimelineOptions[] = {
    {"x", "steps|clock|time", "x axis: each warp's issue steps aligned at barriers, the block's issue clock, "
                              "or real time in ns (gpu-trace)"},
    {"compare", "off|on", "draw the same launch on the other backend below (emulator above, GPU below)"},
    {"zoom", "fit|2|4|8", "the whole block's width, or 2, 4 or 8 times closer around the selected instruction"},
    {"lanes", "grouped|0-31", "each warp's lanes grouped by the paths they took (a branch's sides are solid blocks), "
                             "or in lane order"},
    WS_CONTROLS_OPTION};
constexpr ViewAlias kLayoutAliases[] = {{"layout"}};
constexpr ViewAlias kMemoryAliases[] = {{"memory"}};
constexpr ViewOption kMemoryOptions[] = {
    {"color", "accesses|conflicts|first-touch|hazards|contention",
     "what an element's color counts: lane accesses, bank conflicts, the step that touched it first, "
     "the racing access pairs that met on it, or atomic updates that waited for a lane of the same instruction"},
    {"scale", "linear|log", "the colour scale: linear, or log (counts from 1 to 1000 all told apart)"},
    WS_CONTROLS_OPTION};
constexpr ViewAlias kSourceAliases[] = {{"source"}};
constexpr ViewAlias kStreamAliases[] = {{"streams"}};
constexpr ViewAlias kKernelFileAliases[] = {{"build"}};
constexpr ViewOption kStreamOptions[] = {
    {"scenario", "all|1|2|3|4|5|6|7|8", "every scenario one under another on one time axis, or one of them"},
    {"source", "shipped|record",
     "the recording that ships with warpscope (made on a GPU), or (with a CUDA GPU) one recorded before the picture"},
    WS_CONTROLS_OPTION};
constexpr ViewAlias kTimingAliases[] = {
    {"timing-variants", "tab=variants"}, {"timing-live", "tab=live"}, {"timing-sweep", "tab=sweep"}};
constexpr ViewOption kTimingOptions[] = {
    {"tab", "variants|live|sweep", "the variants table beside CUB, a live series of the labs' run, or a sweep"},
    {"count", "barriers|conflicts|simd|instructions|wavefronts|sectors",
     "without a GPU, what the emulator's bars count per variant: barriers passed, bank conflicts, SIMD "
     "efficiency, memory instructions, shared wavefronts or global sectors"},
    WS_CONTROLS_OPTION};

const ViewType kViews[] = {
    {"reduction-lab", "Reduction lab", Slot::LeftTop, [] { return std::unique_ptr<View>(new LabView()); },
     kLabAliases, {}, [] { return !exercise_session().is_open(); }},
    {"exercise", "Exercise", Slot::LeftTop, make<ExerciseView>, {}, kControlsOnly,
     [] { return exercise_session().is_open(); }},
    {"memory-lab", "Memory lab", Slot::LeftBottom,
     [] {
       return std::unique_ptr<View>(
           new LabView({"bank", "coalesce", "gather", "transpose", "matadd", "matmul", "shortcut", "spmv"}));
     },
     {}, {}},
    {"warp-access-map", "Warp access map", Slot::Center, make<AccessMapView>, kAccessAliases, kControlsOnly},
    {"bank-conflict-heatmap", "Bank-conflict heatmap", Slot::CenterRow1Left, make<BankHeatmapView>, kBankAliases,
     kBankOptions},
    {"divergence-timeline", "Divergence timeline", Slot::CenterRow1Right, make<TimelineView>, kTimelineAliases,
     kTimelineOptions},
    {"block-layout", "Block layout", Slot::CenterRow2Left, make<BlockLayoutView>, kLayoutAliases, kControlsOnly},
    {"memory-heatmap", "Memory heatmap", Slot::CenterRow2Right, make<MemoryHeatmapView>, kMemoryAliases,
     kMemoryOptions},
    {"source-view", "Source view", Slot::RightTop, make<SourceView>, kSourceAliases, kControlsOnly},
    {"playback", "Playback", Slot::LeftMiddle, make<PlaybackView>, {}, {}},
    {"timing", "Timing", Slot::RightBottom, [] { return std::unique_ptr<View>(new TimingView(timing_runner())); },
     kTimingAliases, kTimingOptions},
    {"stream-timeline", "Stream timeline", Slot::RightLowest, make<StreamTimelineView>, kStreamAliases, kStreamOptions,
     [] { return !kernel_file_watch().is_open(); }},
    {"kernel-file", "Kernel file", Slot::RightLowestFile, make<KernelFileView>, kKernelFileAliases, kControlsOnly,
     [] { return kernel_file_watch().is_open(); }},
};

// The values of an option, split at '|'.
std::vector<std::string_view> values_of(const ViewOption& o) {
  std::vector<std::string_view> out;
  std::string_view v = o.values;
  for (size_t at; (at = v.find('|')) != std::string_view::npos; v.remove_prefix(at + 1)) out.push_back(v.substr(0, at));
  out.push_back(v);
  return out;
}

std::string listed(const std::vector<std::string_view>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i)
    s += std::string(i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + std::string(items[i]);
  return s;
}

}  // namespace

void View::set_option(std::string_view, int) {}
std::string View::prepare_picture(Session&) { return {}; }
ImVec2 View::natural_size(Session&) { return ImVec2(0, 0); }
ImVec2 View::least_size(Session& s) { return natural_size(s); }

std::span<const ViewType> view_types() { return kViews; }

const ViewType* find_view_type(std::string_view name, std::string* option) {
  if (option) option->clear();
  for (const ViewType& t : kViews) {
    if (name == t.id) return &t;
    for (const ViewAlias& a : t.aliases)
      if (name == a.name) {
        if (option && a.option) *option = a.option;
        return &t;
      }
  }
  return nullptr;
}

int view_index(std::string_view id) {
  for (size_t i = 0; i < std::size(kViews); ++i)
    if (id == kViews[i].id) return int(i);
  return -1;
}

std::string view_names_error(std::string_view name) {
  if (find_view_type(name)) return {};
  std::vector<std::string_view> ids;
  for (const ViewType& t : kViews) ids.push_back(t.id);
  return "no view named '" + std::string(name) + "' (views: " + listed(ids) + ")";
}

std::string apply_option(const ViewType& type, View& view, std::string_view key, std::string_view value) {
  for (const ViewOption& o : type.options) {
    if (key != o.key) continue;
    const std::vector<std::string_view> values = values_of(o);
    const auto it = std::find(values.begin(), values.end(), value);
    if (it == values.end())
      return std::string("the ") + type.title + "'s " + o.key + " is " + listed(values) + " (not '" + std::string(value) + "')";
    if (key == "controls") view.controls = it == values.begin();  // every view has it; its row says if it shows
    else view.set_option(key, int(it - values.begin()));
    return {};
  }
  std::vector<std::string_view> keys;
  for (const ViewOption& o : type.options) keys.push_back(o.key);
  return std::string("the ") + type.title + " has no option '" + std::string(key) + "'" +
         (keys.empty() ? std::string(" (it has none)") : " (options: " + listed(keys) + ")");
}

std::string apply_option(const ViewType& type, View& view, std::string_view key_value) {
  const size_t eq = key_value.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return "view option '" + std::string(key_value) + "' is not KEY=VALUE (e.g. color=conflicts)";
  return apply_option(type, view, key_value.substr(0, eq), key_value.substr(eq + 1));
}

}  // namespace ws::app
