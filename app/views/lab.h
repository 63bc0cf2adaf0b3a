// A lab: the kernels of one part of the course, their variants in lecture order, the launch
// controls, the run's verdict and the key numbers of every variant already run.
#pragma once

#include "views/view.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace ws::app {

struct LabView final : View {
  // The kernels this lab offers (empty: the whole catalog).
  explicit LabView(std::vector<std::string> lab_kernels = {}) : kernels(std::move(lab_kernels)) {}
  void draw(Session& s) override;

  std::vector<std::string> kernels;
  int n = 0, block = 0, block_y = 1, seed = 1;
  std::string synced_key;  // the request the fields show (Session::history_key + backend)
  bool editing = false;    // a field is being typed in: the request does not overwrite it
  std::string invalid;  // the catalog's refusal of the controls' combination ("" = fine)
  // Last draw: the PASS / FAIL badge (tests check its color).
  ImVec2 verdict_min{0, 0}, verdict_max{0, 0};
  int verdict = -1;  // -1 none, 0 anything but a pass, 1 pass
  std::string verdict_word;  // the badge: PASS, FAIL, RACE, LOCKSTEP ONLY, FAULT
};

}  // namespace ws::app
