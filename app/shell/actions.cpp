#include "shell/actions.h"

#include <iterator>

namespace ws::app {

namespace {
// The single list the help overlay and the menus read, so they never disagree.
const Shortcut kShortcuts[] = {
    {Action::ToggleHelp, "F1", "Show or hide this help"},
    {Action::SaveScreenshot, "F12", "Save a screenshot of the whole window (PNG)"},
    {Action::TogglePresentation, "F11", "Presentation mode: fullscreen, large font, high contrast"},
    {Action::ScaleUp, "Ctrl +", "Larger UI"},
    {Action::ScaleDown, "Ctrl -", "Smaller UI"},
    {Action::ScaleReset, "Ctrl 0", "UI scale back to 100%"},
    {Action::Quit, "Ctrl+Q", "Quit"},
    {Action::StepNext, "Right / PgDn / Space", "Lesson: next step"},
    {Action::StepPrev, "Left / PgUp", "Lesson: previous step"},
    {Action::StepFirst, "Home", "Lesson: first step"},
    {Action::Confirm, "number, Enter", "Lesson: go to that step"},
    {Action::StepReset, "R", "Lesson: the step as written again; exercise: restore the starting file (asks first)"},
    {Action::StepControls, "C", "Lesson: show or hide the views' pickers (to change a warp, a block...)"},
    {Action::InstructionNext, ". (period)", "Lesson: the warp's next memory instruction (the arrows move between steps)"},
    {Action::InstructionPrev, ", (comma)", "Lesson: the warp's previous memory instruction"},
    {Action::StepSave, "Ctrl+S", "Lesson: save what is shown as a new step after this one"},
    {Action::CloseOverlay, "Esc", "Close this help; in a lesson, leave it"},
};
}  // namespace

std::span<const Shortcut> shortcuts() { return kShortcuts; }

const char* shortcut_keys(Action action) {
  for (const Shortcut& s : kShortcuts)
    if (s.action == action) return s.keys;
  return "";
}

}  // namespace ws::app
