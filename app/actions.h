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
  CloseOverlay,  // Esc: closes the help overlay when it is open
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
