// The registry: one row per view. Adding a view is a class in its own files and a row here.
#include "views/view.h"

#include "model/kernel_file_watch.h"
#include "lessons/exercise_session.h"
#include "model/timing_runner.h"
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

constexpr ViewAlias kLabAliases[] = {{"lab"}};
constexpr ViewAlias kAccessAliases[] = {{"access-map"}, {"access"}};
constexpr ViewAlias kBankAliases[] = {{"bank-heatmap"}, {"banks"}};
constexpr ViewAlias kTimelineAliases[] = {{"timeline"}, {"divergence"}};
constexpr ViewAlias kLayoutAliases[] = {{"layout"}};
constexpr ViewAlias kMemoryAliases[] = {{"memory"}};
constexpr ViewAlias kSourceAliases[] = {{"source"}};
constexpr ViewAlias kStreamAliases[] = {{"streams"}};
constexpr ViewAlias kKernelFileAliases[] = {{"build"}};
constexpr ViewAlias kTimingAliases[] = {
    {"timing-variants", "tab=variants"}, {"timing-live", "tab=live"}, {"timing-sweep", "tab=sweep"}};

// A row for the view class V: its options are V's own table (V::kOptions), where it has one.
template <class V>
constexpr ViewType row(const char* id, const char* title, Slot slot, std::span<const ViewAlias> aliases,
                       bool (*present)() = nullptr, std::unique_ptr<View> (*factory)() = &make<V>) {
  std::span<const ViewOption> options;
  if constexpr (requires { V::kOptions; }) options = V::kOptions;
  return {id, title, slot, factory, aliases, options, present};
}

const ViewType kViews[] = {
    row<LabView>("reduction-lab", "Reduction lab", Slot::LeftTop, kLabAliases,
                 [] { return !exercise_session().is_open(); }, [] { return std::unique_ptr<View>(new LabView()); }),
    row<ExerciseView>("exercise", "Exercise", Slot::LeftTop, {}, [] { return exercise_session().is_open(); }),
    row<LabView>("memory-lab", "Memory lab", Slot::LeftBottom, {}, nullptr,
                 [] {
                   return std::unique_ptr<View>(
                       new LabView({"bank", "coalesce", "gather", "transpose", "matadd", "matmul", "shortcut", "spmv"}));
                 }),
    row<AccessMapView>("warp-access-map", "Warp access map", Slot::Center, kAccessAliases),
    row<BankHeatmapView>("bank-conflict-heatmap", "Bank-conflict heatmap", Slot::CenterRow1Left, kBankAliases),
    row<TimelineView>("divergence-timeline", "Divergence timeline", Slot::CenterRow1Right, kTimelineAliases),
    row<BlockLayoutView>("block-layout", "Block layout", Slot::CenterRow2Left, kLayoutAliases),
    row<MemoryHeatmapView>("memory-heatmap", "Memory heatmap", Slot::CenterRow2Right, kMemoryAliases),
    row<SourceView>("source-view", "Source view", Slot::RightTop, kSourceAliases),
    row<PlaybackView>("playback", "Playback", Slot::LeftMiddle, {}),
    row<TimingView>("timing", "Timing", Slot::RightBottom, kTimingAliases, nullptr,
                    [] { return std::unique_ptr<View>(new TimingView(timing_runner())); }),
    row<StreamTimelineView>("stream-timeline", "Stream timeline", Slot::RightLowest, kStreamAliases,
                            [] { return !kernel_file_watch().is_open(); }),
    row<KernelFileView>("kernel-file", "Kernel file", Slot::RightLowestFile, kKernelFileAliases,
                        [] { return kernel_file_watch().is_open(); }),
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
    o.set(view, int(it - values.begin()));
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

std::string option_value(const ViewType& type, const View& view, std::string_view key) {
  for (const ViewOption& o : type.options) {
    if (key != o.key) continue;
    const std::vector<std::string_view> values = values_of(o);
    const int k = o.get(view);
    return k >= 0 && size_t(k) < values.size() ? std::string(values[size_t(k)]) : std::string();
  }
  return {};
}

std::vector<std::string> options_shown(const ViewType& type, const View& view) {
  std::vector<std::string> out;
  for (const ViewOption& o : type.options)
    if (std::string_view(o.key) != "controls" && o.get(view) != 0)
      out.push_back(std::string(o.key) + "=" + option_value(type, view, o.key));
  return out;
}

MadeView make_view(std::string_view name, std::span<const std::string> options, std::string& error) {
  MadeView m;
  std::string preset;
  m.type = find_view_type(name, &preset);
  if (!m.type) {
    error = view_names_error(name);
    return {};
  }
  m.view = m.type->make();
  if (!preset.empty()) error = apply_option(*m.type, *m.view, preset);
  for (const std::string& o : options)
    if (error.empty()) error = apply_option(*m.type, *m.view, o);
  if (!error.empty()) return {};
  return m;
}

}  // namespace ws::app
