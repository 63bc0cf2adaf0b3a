// A view: one picture of the current run (the access map, the bank heatmap, the timeline, ...).
//
// Each view is one class in its own pair of files (app/views/<name>.h, .cpp) whose members are
// its state (zoom, caches, what the last draw put where), plus one row of the registry
// (registry.cpp): its id, title, short names, default place in the window, options and factory.
// The shell makes one instance of every row and draws it in a panel window; a headless picture
// (`--view`), a panel export and a lesson step make their own instances, so two pictures of the
// same view never share state.
//
//   const ViewType* type = find_view_type("access-map");        // by id or short name
//   std::unique_ptr<View> v = type->make();
//   if (std::string err = apply_option(*type, *v, "color", "conflicts"); !err.empty()) ...
//   v->draw(session());                                          // inside an ImGui window
//
// Adding a view: a class deriving from View in app/views/, and its row in registry.cpp.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>

namespace ws::app {

class Session;

class View {
 public:
  virtual ~View() = default;
  // Draws the view of `s` into the current ImGui window (between Begin and End).
  virtual void draw(Session& s) = 0;
  // Before a picture without a window: starts what the view measures in the background (the
  // timing's measurements, a comparison run on the other backend) and waits for it. Returns ""
  // or why the picture cannot be made.
  virtual std::string prepare_picture(Session& s);

  // For a slide (a lesson step, drawn for the room): the smallest box, in pixels at the current
  // font, in which the view shows everything it means to with no text under the font's size.
  // A lesson lays its views out so that each box is at least that (or as near as the wall
  // allows), and then draws each view with a font as much larger as its box has room for
  // (cells, lines and type grow together). 0 on an axis: any length will do there.
  virtual ImVec2 natural_size(Session& s);
  // The smallest box in which it still shows what matters at the font's size, having thinned
  // what can be (rows without their numbers, every other label): a lesson short of room gives
  // each view at least this before any view gets its natural size. The natural size by default.
  virtual ImVec2 least_size(Session& s);

  // The view's own pickers and buttons above its picture (the "controls" option, where its row
  // lists it): off, the picture alone with one line saying what it shows, as lessons show it.
  bool controls = true;
  // Shown in a lesson: the arrow keys and Space belong to the steps, never to the view.
  bool in_lesson = false;
  // What the last draw left out for want of room, each with what and why ("element numbers:
  // 4 digits do not fit a 22 px cell"); the picture says so too. A lesson's layout report lists
  // them, and its check fails a step whose caption names one of them.
  std::vector<std::string> left_out;
  // Colour scales (heatmaps): the top of the scale the last draw used alone, and, where a lesson
  // shows two launches side by side, the top both pictures use (0: their own), so one colour
  // means one count on both sides.
  float scale_top = 0;
  float common_scale_top = 0;
  // The same for the x axis (a timeline's columns): where a lesson compares two launches, both
  // pictures use the longer one's scale, so one step is as wide on both sides.
  float extent = 0;
  float common_extent = 0;
};

// Where a view goes in the default tiled layout (layout.cpp):
//   left column     center column                          right column
//   LeftTop         Center                                 RightTop
//   LeftMiddle      CenterRow1Left | CenterRow1Right
//   LeftBottom      CenterRow2Left | CenterRow2Right       RightBottom
//                                                          RightLowest
enum class Slot {
  LeftTop, LeftMiddle, LeftBottom,
  Center, CenterRow1Left, CenterRow1Right, CenterRow2Left, CenterRow2Right,
  RightTop, RightBottom, RightLowest,
  RightLowestFile,  // RightLowest's tile, while a kernel file is open (the stream timeline's then)
};

// One option of a view: its key and the values it takes ("accesses|conflicts|first-touch"; the
// first is the default), one line of help for --help and the lesson documentation, and how the
// view reads and sets it (a choice: the index of a value). Each view owns its table
// (`static const ViewOption kOptions[N]` beside the state it sets); its registry row takes it.
struct ViewOption {
  const char* key;
  const char* values;
  const char* help;
  int (*get)(const View&);  // the choice the view shows now
  void (*set)(View&, int);  // shows the choice-th value (checked against `values` first)
};

// The option of every view that has pickers above its picture.
inline constexpr ViewOption kControlsOption = {
    "controls", "on|off", "the view's pickers and buttons above the picture (off: the picture alone, as lessons show it)",
    [](const View& v) { return v.controls ? 0 : 1; }, [](View& v, int k) { v.controls = k == 0; }};

// A short name that opens a view with one option set ("timing-live": the timing view, tab live).
struct ViewAlias {
  const char* name;
  const char* option = nullptr;  // "tab=live", or none
};

struct ViewType {
  const char* id;     // stable: settings file, export file names, lesson files
  const char* title;  // window title
  Slot slot;
  std::unique_ptr<View> (*make)();
  std::span<const ViewAlias> aliases;
  std::span<const ViewOption> options;
  // A panel that is there only in some states (null: always): the kernel file panel while a file
  // is open, the stream timeline in its tile otherwise.
  bool (*present)() = nullptr;
};

// Every view, in the order of the View menu.
std::span<const ViewType> view_types();
// The row of `name` (an id or an alias), or null. `option`, when given, receives the alias's
// preset option ("tab=live") or "".
const ViewType* find_view_type(std::string_view name, std::string* option = nullptr);
// Index of `id` in view_types(), or -1.
int view_index(std::string_view id);
// "" or what is wrong: no such view (the ids are listed).
std::string view_names_error(std::string_view name);

// Checks `key` and `value` against the row's options and sets them on `view`. Returns "" or what
// the view takes: "the memory heatmap's color is accesses, conflicts or first-touch".
std::string apply_option(const ViewType& type, View& view, std::string_view key, std::string_view value);
// The same for "key=value".
std::string apply_option(const ViewType& type, View& view, std::string_view key_value);
// The value `view` shows for option `key` ("block"), or "" when the row has no such option.
std::string option_value(const ViewType& type, const View& view, std::string_view key);
// "key=value" for each option (but controls) the view shows at other than its default: what a
// saved step needs to show the view as it is.
std::vector<std::string> options_shown(const ViewType& type, const View& view);

// A view of `name` (an id or an alias) with its alias's preset and then `options` ("key=value")
// applied; null view and `error` set when the name or an option is wrong.
struct MadeView {
  const ViewType* type = nullptr;
  std::unique_ptr<View> view;
};
MadeView make_view(std::string_view name, std::span<const std::string> options, std::string& error);

}  // namespace ws::app
