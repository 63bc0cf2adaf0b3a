// Exercise panel: the open exercise (lessons/exercise_session.h): what to do, each goal with a
// live ✓ or ✗ and its measured value, updated on every save of the student's copy; a failed goal
// names the line that shows why (click: the source view goes there); hints unlocked one by one;
// R (or the button) restores the starting file after asking.
#pragma once

#include "views/view.h"

namespace ws::app {

struct ExerciseView final : View {
  static constexpr ViewOption kOptions[] = {kControlsOption};
  void draw(Session& s) override;
  std::string prepare_picture(Session& s) override;  // waits for the copy's build, run and grade

 private:
  void draw_goals(Session& s);
  void draw_hints();
  void draw_restore();
  std::string restore_error;
};

}  // namespace ws::app
