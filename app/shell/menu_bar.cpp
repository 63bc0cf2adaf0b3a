// The main menu bar: File, View, Help. Shortcut labels come from actions.cpp so the menus and the
// help overlay always agree.
#include "shell/layout.h"
#include "lessons/lesson.h"
#include "lessons/lesson_player.h"
#include "shell/shell.h"
#include "model/kernel_file_watch.h"
#include "lessons/exercise_session.h"
#include "views/kernel_file_view.h"

#include <cstdlib>
#include <cstring>

namespace ws::app {

namespace {

// Opens `file` as the lesson; a lesson that does not load is said in the status bar and the one
// open stays.
void open_lesson_from_menu(ShellState& s, const std::filesystem::path& file) {
  if (std::string err = open_lesson(s, file); !err.empty()) notify(s, err, true);
  else notify(s, "lesson " + file.string() + ": " + s.lesson->lesson().title, false);
}

// No file dialog: a path typed into a field. True when it is to be opened (Open, or Enter) and
// not empty; the popup menu then closes.
bool open_path_field(const char* id, const char* hint, std::string& value) {
  char path[512];
  std::snprintf(path, sizeof path, "%s", value.c_str());
  ImGui::SetNextItemWidth(22 * ImGui::GetFontSize());
  const bool enter = ImGui::InputTextWithHint(id, hint, path, sizeof path, ImGuiInputTextFlags_EnterReturnsTrue);
  value = path;
  ImGui::SameLine();
  ImGui::PushID(id);
  const bool open = (ImGui::Button("Open") || enter) && !value.empty();
  ImGui::PopID();
  if (open) ImGui::CloseCurrentPopup();
  return open;
}

// The menu's entries for lesson files: each one's title, or why it does not load. Read once.
void read_choices(std::optional<std::vector<ShellState::LessonChoice>>& choices,
                  const std::vector<std::filesystem::path>& files) {
  if (choices) return;
  choices.emplace();
  for (const auto& f : files) {
    const LessonLoad l = load_lesson(f);
    choices->push_back({f, l.ok() ? l.lesson.title : f.stem().string(), l.error});
  }
}

void lesson_menu(ShellState& s) {
  read_choices(s.shipped, shipped_lessons());
  if (s.lesson && !s.lesson_mode &&
      ImGui::MenuItem(("Back to " + s.lesson->lesson().title + ", step " + std::to_string(s.lesson->index() + 1)).c_str()))
    s.lesson_mode = true;
  if (s.shipped->empty()) ImGui::TextDisabled("No lessons found (set WARPSCOPE_LESSONS to their folder)");
  for (const auto& c : *s.shipped) {
    if (ImGui::MenuItem(c.title.c_str(), nullptr, false, c.error.empty())) open_lesson_from_menu(s, c.file);
    if (!c.error.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", c.error.c_str());
  }
  ImGui::Separator();
  if (open_path_field("##lesson-path", "a lesson file: path/to/lesson.toml", s.lesson_path)) open_lesson_from_menu(s, s.lesson_path);
}

// A kernel file: an example, or a path typed (Enter opens it). It is built, run and watched.
void kernel_file_menu(ShellState& s) {
  KernelFileWatch& w = kernel_file_watch();
  for (const std::string& f : example_kernel_files())
    if (ImGui::MenuItem(std::filesystem::path(f).filename().string().c_str(), nullptr, w.path() == f)) {
      w.open(f);
      notify(s, "opened " + f + ": building it", false);
    }
  ImGui::Separator();
  if (open_path_field("##kernel-file-path", "a kernel file: path/to/kernel.cu", s.kernel_file_path)) {
    w.open(s.kernel_file_path);
    notify(s, "opened " + w.path() + ": building it", false);
  }
  if (w.is_open()) {
    ImGui::Separator();
    if (ImGui::MenuItem(("Close " + std::filesystem::path(w.path()).filename().string()).c_str())) w.close();
  }
}

// Where a student's copies go unless they type another folder: one folder in their home.
std::filesystem::path exercise_work_dir(const ShellState& s) {
  if (!s.exercise_work_dir.empty()) return s.exercise_work_dir;
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / "warpscope-exercises";
}

void open_exercise_from_menu(ShellState& s, const std::filesystem::path& file) {
  ExerciseSession& x = exercise_session();
  if (std::string err = x.open(file, 0, exercise_work_dir(s), kernel_file_watch()); !err.empty()) return notify(s, err, true);
  s.settings.hidden.erase("exercise");
  notify(s, x.step().title + ": " + (x.copied() ? "your copy is " : "your copy (kept) is ") + x.copy().string(), false);
}

// An exercise: a shipped one or a path typed; the student's copy goes to the folder shown.
void exercise_menu(ShellState& s) {
  read_choices(s.shipped_exercises, shipped_exercises());
  if (s.shipped_exercises->empty()) ImGui::TextDisabled("No exercises found (set WARPSCOPE_EXERCISES to their folder)");
  for (const auto& c : *s.shipped_exercises) {
    if (ImGui::MenuItem(c.title.c_str(), nullptr, false, c.error.empty())) open_exercise_from_menu(s, c.file);
    if (!c.error.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", c.error.c_str());
  }
  ImGui::Separator();
  if (open_path_field("##exercise-path", "an exercise file: path/to/exercise.toml", s.exercise_path))
    open_exercise_from_menu(s, s.exercise_path);
  char dir[512];
  std::snprintf(dir, sizeof dir, "%s", exercise_work_dir(s).string().c_str());
  ImGui::SetNextItemWidth(22 * ImGui::GetFontSize());
  if (ImGui::InputText("your copies", dir, sizeof dir)) s.exercise_work_dir = dir;
  if (exercise_session().is_open()) {
    ImGui::Separator();
    if (ImGui::MenuItem(("Close " + exercise_session().step().title).c_str())) exercise_session().close();
  }
}

void file_menu(ShellState& s) {
  if (ImGui::BeginMenu("Open lesson")) {
    lesson_menu(s);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Open kernel file")) {
    kernel_file_menu(s);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Open exercise")) {
    exercise_menu(s);
    ImGui::EndMenu();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Save screenshot", shortcut_keys(Action::SaveScreenshot)))
    apply_action(s, Action::SaveScreenshot);
  if (ImGui::BeginMenu("Save panel as PNG")) {
    auto panels = view_types();
    for (size_t i = 0; i < panels.size(); ++i) {
      if (!ImGui::BeginMenu(panels[i].title)) continue;
      // A closed panel exports at the size it last had (or its tile size before it was ever shown).
      ImVec2 size = i < s.panel_sizes.size() ? s.panel_sizes[i] : ImVec2(0, 0);
      if (size.x <= 0 || size.y <= 0) {
        ShellLayout L = compute_layout(ImGui::GetIO().DisplaySize, ImGui::GetFontSize(), ImGui::GetStyle());
        size = L.panels[i].size;
      }
      if (ImGui::MenuItem("1x")) s.exports.push_back({static_cast<int>(i), 1.0f, size});
      if (ImGui::MenuItem("2x, for slides")) s.exports.push_back({static_cast<int>(i), 2.0f, size});
      ImGui::EndMenu();
    }
    ImGui::EndMenu();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", shortcut_keys(Action::Quit))) apply_action(s, Action::Quit);
}

void view_menu(ShellState& s) {
  for (const ViewType& p : view_types()) {
    bool shown = !s.settings.hidden.count(p.id);
    if (ImGui::MenuItem(p.title, nullptr, &shown)) {
      if (shown)
        s.settings.hidden.erase(p.id);
      else
        s.settings.hidden.insert(p.id);
      s.settings_dirty = true;
    }
  }
  ImGui::Separator();
  ImGui::TextDisabled("UI scale %d%%", static_cast<int>(s.settings.user_scale * 100 + 0.5f));
  if (ImGui::MenuItem("Larger", shortcut_keys(Action::ScaleUp))) apply_action(s, Action::ScaleUp);
  if (ImGui::MenuItem("Smaller", shortcut_keys(Action::ScaleDown))) apply_action(s, Action::ScaleDown);
  if (ImGui::MenuItem("Actual size", shortcut_keys(Action::ScaleReset))) apply_action(s, Action::ScaleReset);
  ImGui::Separator();
  if (ImGui::MenuItem("Presentation mode", shortcut_keys(Action::TogglePresentation),
                      s.settings.presentation))
    apply_action(s, Action::TogglePresentation);
  if (ImGui::MenuItem("Start in presentation mode", nullptr, s.settings.start_in_presentation)) {
    s.settings.start_in_presentation = !s.settings.start_in_presentation;
    s.settings_dirty = true;
  }
  if (ImGui::MenuItem("Reset layout")) apply_action(s, Action::ResetLayout);
}

void help_menu(ShellState& s) {
  if (ImGui::MenuItem("Keyboard shortcuts", shortcut_keys(Action::ToggleHelp), s.help_open))
    apply_action(s, Action::ToggleHelp);
  ImGui::Separator();
  ImGui::TextDisabled("warpscope %s", WS_VERSION);
}

}  // namespace

void draw_menu_bar(ShellState& s) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    file_menu(s);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    view_menu(s);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    help_menu(s);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

}  // namespace ws::app
