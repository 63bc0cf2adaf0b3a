// A lab: the kernels of one part of the course, their variants in lecture order, the launch
// controls, the run's verdict and the key numbers of every variant already run.
#pragma once

#include "views/view.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace ws {
struct CatalogEntry;
struct KernelSpec;
}  // namespace ws

namespace ws::app {

struct RunRequest;
struct SessionData;

struct LabView final : View {
  // The kernels this lab offers (empty: the whole catalog).
  explicit LabView(std::vector<std::string> lab_kernels = {}) : kernels(std::move(lab_kernels)) {}
  void draw(Session& s) override;

  // The steps of draw(), top to bottom (lab.cpp).
  const CatalogEntry* sync_fields(const RunRequest& req);
  bool draw_kernel_picker(Session& s, const KernelSpec& spec);
  void draw_variants(Session& s, const RunRequest& req, const KernelSpec& spec);
  void draw_launch_controls(Session& s, const RunRequest& req, const CatalogEntry& entry);
  bool draw_backend(const RunRequest& req, const CatalogEntry& entry, RunRequest& r);
  bool draw_params(const RunRequest& req, const KernelSpec& spec, RunRequest& r);
  bool draw_run(Session& s, const SessionData* d);
  void draw_key_numbers(Session& s, const RunRequest& req, const KernelSpec& spec, const SessionData* d);
  void draw_key_table(Session& s, const RunRequest& req, const KernelSpec& spec, const SessionData& data, bool any_grid);

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
