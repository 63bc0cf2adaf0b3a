// What the user can ask for by key or menu. Keys are translated to Actions by the window code
// (GLFW); tests and the headless path feed Actions directly, so the shell never sees a key code.
#pragma once

#include <span>

namespace ws::app {

enum class Action {
  ToggleHelp,
  SaveScreenshot,
  Quit,
  TogglePresentation,
  ScaleUp,
  ScaleDown,
  ScaleReset,
  ResetLayout,
  CloseOverlay,  // Esc: closes the help overlay when it is open, else leaves a lesson
  // A lesson's keys (a presenter's clicker sends PageDown / PageUp): ignored outside a lesson.
  StepNext,      // Right, PageDown, Space
  StepPrev,      // Left, PageUp
  StepFirst,     // Home
  StepReset,     // R: the step as written
  StepSave,      // Ctrl+S: the state on screen as a new step after this one, in the lesson's file
  StepControls,  // C: the views' own pickers and buttons, shown or hidden
  InstructionNext,  // '.': the selected warp's next memory instruction (the arrows are the steps')
  InstructionPrev,  // ',
  Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,  // a step number...
  Confirm,       // ...and Enter jumps to it
};

struct Shortcut {
  Action action;
  const char* keys;  // as shown in menus and the help overlay
  const char* what;
};

// Every keyboard shortcut, in the order the help overlay lists them.
std::span<const Shortcut> shortcuts();
// The keys of an action ("" when it has none).
const char* shortcut_keys(Action action);

}  // namespace ws::app
