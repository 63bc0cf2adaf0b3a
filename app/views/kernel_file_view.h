// Kernel file panel: the kernel file the viewer has open (kernel_file_watch.h): its build status,
// every compiler error with the line it points at and a caret under the column, and the examples
// to open. Clicking an error shows its line in the source view.
#pragma once

#include "views/view.h"

#include <string>
#include <vector>

namespace ws::app {

struct KernelFileView final : View {
  static constexpr ViewOption kOptions[] = {kControlsOption};
  void draw(Session& s) override;
  std::string prepare_picture(Session& s) override;  // waits for a build that is going

  std::string path_field;  // the "open this file" field
};

// The example kernel files that ship with warpscope (examples/*.cu in its source tree), sorted.
std::vector<std::string> example_kernel_files();

}  // namespace ws::app
