// A lab: the kernel's variants in lecture order, each with the
// one line of what the step changes; n, block size, dtype and seed; the result and its check; and
// the key numbers from the analysis, next to those of the variants already run with the same
// launch, so moving from step 2 to step 3 visibly removes the bank conflicts. Every change re-runs
// in the background (the session); the views follow when the run lands.
#include "model/device_probe.h"
#include "views/lab.h"
#include "views/view_common.h"

#include "ws/analysis/verdict.h"
#include "ws/viz/colormap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace ws::app {

namespace {

void rerun(Session& s, RunRequest r, LabView& st) {
  // Validate on the spot: an invalid combination keeps the last picture and says why.
  const Catalog& cat = Catalog::instance();
  st.invalid.clear();
  if (const CatalogEntry* e = cat.find(r.kernel)) {
    RunConfig c = r.config;
    st.invalid = cat.resolve(*e, c);
  }
  if (st.invalid.empty()) s.request(std::move(r));
}

// Another kernel of the lab, at its own defaults (size, block; its first variant).
void switch_kernel(Session& s, const KernelSpec& spec, LabView& st) {
  RunRequest r = default_request();
  r.kernel = spec.name;
  r.config.variant.clear();
  r.config.n = spec.default_n;
  r.config.block = {spec.default_block, std::max(1u, spec.default_block_y), 1};
  st.n = int(spec.default_n);
  st.block = int(spec.default_block);
  st.block_y = int(std::max(1u, spec.default_block_y));
  rerun(s, r, st);
}

void badge(const char* text, ImVec4 color, LabView& st, bool pass) {
  const ImVec2 ts = ImGui::CalcTextSize(text);
  const float pad = 0.35f * em();
  ImVec2 p = ImGui::GetCursorScreenPos();
  p = ImVec2(std::floor(p.x), std::floor(p.y));
  const ImVec2 q(p.x + ts.x + 2 * pad, p.y + ts.y + 0.3f * pad);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, q, ImGui::ColorConvertFloat4ToU32(color), 3.0f);
  dl->AddText(ImVec2(p.x + pad, p.y + 0.15f * pad), IM_COL32(0, 0, 0, 255), text);
  st.verdict_min = p;
  st.verdict_max = q;
  st.verdict = pass ? 1 : 0;
  st.verdict_word = text;
  ImGui::Dummy(ImVec2(q.x - p.x, q.y - p.y));
}

std::string percent(double v) {
  char b[16];
  std::snprintf(b, sizeof b, "%.0f%%", 100 * v);
  return b;
}

}  // namespace

// =================================================================================================
// [SECTION] The lab's steps, top to bottom
// =================================================================================================

// The request's kernel, with the fields showing its launch (one launch for every panel: when the
// session's request changes — this lab, another panel, a lesson step — the fields show it, unless
// the user is typing in one of them); null, said, when the catalog has no such kernel.
const CatalogEntry* LabView::sync_fields(const RunRequest& req) {
  const Catalog& cat = Catalog::instance();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const CatalogEntry* entry = cat.find(req.kernel);
  verdict = -1;
  if (!entry) {
    ImGui::TextColored(vc.conflict, "The catalog has no kernel '%s'.", req.kernel.c_str());
    return nullptr;
  }
  const std::string key = Session::history_key(req.kernel, req.config) + "/" + to_string(req.backend);
  if (key != synced_key && !editing) {
    n = int(req.config.n ? req.config.n : entry->spec.default_n);
    block = int(req.config.block.x ? req.config.block.x : entry->spec.default_block);
    block_y = int(req.config.block.x ? std::max(1u, req.config.block.y) : std::max(1u, entry->spec.default_block_y));
    seed = int(req.config.seed);
    synced_key = key;
  }
  editing = false;

  return entry;
}

// The kernel picker, limited to this lab's kernels; false (a menu of them drawn instead) when the
// views show a kernel of another lab.
bool LabView::draw_kernel_picker(Session& s, const KernelSpec& spec) {
  const Catalog& cat = Catalog::instance();
  const float E = em();
  auto in_lab = [&](const std::string& k) {
    if (kernels.empty() || std::find(kernels.begin(), kernels.end(), k) != kernels.end()) return true;
    const CatalogEntry* x = cat.find(k);
    return x && !x->spec.file.empty();  // a user's kernel file is in every lab
  };
  const bool here = in_lab(spec.name);
  if (!here)
    ImGui::TextWrapped("The views show %s (chosen in another lab). Pick one of this lab's kernels:", spec.name.c_str());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##kernel", here ? (spec.title + "  (" + spec.name + ")").c_str() : "choose a kernel")) {
    for (const CatalogEntry& e : cat.entries())
      if (in_lab(e.spec.name) && ImGui::Selectable((e.spec.title + "  (" + e.spec.name + ")").c_str(), e.spec.name == spec.name) &&
          e.spec.name != spec.name)
        switch_kernel(s, e.spec, *this);
    ImGui::EndCombo();
  }
  if (!here) {
    // The lab's kernels with what each one shows, so the empty lab is a menu, not a blank panel.
    for (const CatalogEntry& e : cat.entries()) {
      if (!in_lab(e.spec.name)) continue;
      ImGui::Spacing();
      if (ImGui::Selectable((e.spec.title + "  (" + e.spec.name + ")").c_str())) switch_kernel(s, e.spec, *this);
      ImGui::Indent(E);
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%s", e.spec.description.c_str());
      ImGui::PopStyleColor();
      ImGui::Unindent(E);
    }
    return false;
  }

  return true;
}

// The variants in lecture order, each with what it shows (a broken one says why).
void LabView::draw_variants(Session& s, const RunRequest& req, const KernelSpec& spec) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  const std::string current = req.config.variant.empty() ? spec.variants.front().id : req.config.variant;
  const float list_h = std::min(ImGui::GetContentRegionAvail().y * 0.5f,
                                float(spec.variants.size()) * ImGui::GetTextLineHeightWithSpacing() * 2.05f + E * 0.5f);
  if (ImGui::BeginChild("##variants", ImVec2(0, list_h), true)) {
    for (const VariantSpec& v : spec.variants) {
      const bool selected = v.id == current || v.name == current;
      char label[160];
      std::snprintf(label, sizeof label, "%-2s %s%s##%s", v.id.c_str(), v.name.c_str(), v.gpu_only ? "  [GPU only]" : "", v.id.c_str());
      ImGui::PushID(v.id.c_str());
      if (v.broken) ImGui::PushStyleColor(ImGuiCol_Text, vc.conflict);
      if (ImGui::Selectable(label, selected) && !selected) {
        RunRequest r = req;
        r.config.variant = v.id;
        rerun(s, r, *this);
      }
      if (v.broken) ImGui::PopStyleColor();
      if (selected && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
      ImGui::Indent(1.6f * E);
      ImGui::PushStyleColor(ImGuiCol_Text, v.broken ? vc.conflict : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%s%s", v.broken ? "BROKEN ON PURPOSE: " : "", v.broken ? v.broken_note.c_str() : v.summary.c_str());
      ImGui::PopStyleColor();
      ImGui::Unindent(1.6f * E);
      ImGui::PopID();
    }
  }
  ImGui::EndChild();

}

// n, block, dtype, seed, where it runs and the kernel's parameters; a change reruns.
void LabView::draw_launch_controls(Session& s, const RunRequest& req, const CatalogEntry& entry) {
  const KernelSpec& spec = entry.spec;
  const float E = em(), field = 6.5f * E;
  bool changed = false;
  RunRequest r = req;
  // Typed values run when the field is left (Enter, Tab or a click elsewhere), never per key.
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("n", &n, 0, 0);
  editing = editing || ImGui::IsItemActive();
  if (ImGui::IsItemDeactivatedAfterEdit()) changed = true;
  ImGui::SameLine(0, E);
  if (spec.block_2d) {
    // Any 2D shape the user types (seed 000: "experiment with dim3(16,16) and dim3(128,2)"); the
    // catalog refuses impossible ones with the limit they break.
    int xy[2] = {block, block_y};
    ImGui::SetNextItemWidth(field);
    ImGui::InputInt2("block x, y", xy);
    editing = editing || ImGui::IsItemActive();
    if (ImGui::IsItemDeactivatedAfterEdit()) changed = true;
    block = xy[0];
    block_y = xy[1];
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("threads per block in x and y (Enter to run); y = 1: the variant's own shape for this x");
  } else {
    ImGui::SetNextItemWidth(field);
    char bl[16];
    std::snprintf(bl, sizeof bl, "%d", block);
    if (ImGui::BeginCombo("block", bl)) {
      for (int b : {32, 64, 96, 128, 192, 256, 512, 1024})
        if (ImGui::Selectable(std::to_string(b).c_str(), b == block)) block = b, block_y = 1, changed = true;
      ImGui::EndCombo();
    }
  }
  ImGui::SetNextItemWidth(field);
  const std::string dtype = req.config.dtype.empty() ? spec.dtypes.front() : req.config.dtype;
  if (ImGui::BeginCombo("dtype", dtype.c_str())) {
    for (const std::string& d : spec.dtypes)
      if (ImGui::Selectable(d.c_str(), d == dtype)) r.config.dtype = d, changed = true;
    ImGui::EndCombo();
  }
  ImGui::SameLine(0, E);
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt("seed", &seed, 1, 0)) changed = true;
  editing = editing || ImGui::IsItemActive();
  changed = draw_backend(req, entry, r) || changed;
  changed = draw_params(req, spec, r) || changed;
  if (changed) {
    r.config.n = uint64_t(std::max(n, 1));
    n = int(r.config.n);
    r.config.block = {uint32_t(std::max(block, 1)), spec.block_2d ? uint32_t(std::max(block_y, 1)) : 1u, 1};
    r.config.seed = uint64_t(std::max(seed, 0));
    rerun(s, r, *this);
    editing = false;  // the fields now are the request: the next one that differs shows
  }
  if (!invalid.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ws::viz::view_colors().conflict);
    ImGui::TextWrapped("Refused: %s", invalid.c_str());
    ImGui::PopStyleColor();
  }

}

// The emulator always; the GPU recorder when this build has CUDA and a device. True when it changed.
bool LabView::draw_backend(const RunRequest& req, const CatalogEntry& entry, RunRequest& r) {
  const float E = em(), field = 6.5f * E;
  const bool gpu = cuda_device_present() && entry.runners.count(BackendKind::GpuTrace);
  bool changed = false;
  // Every view reads either trace (same format); only the GPU's is the hardware's own grouping.
  if (gpu || req.backend != BackendKind::Emu) {
    const char* names[] = {"CPU emulator", "GPU (gpu-fast)", "GPU (gpu-trace)"};
    ImGui::SetNextItemWidth(2 * field);
    if (ImGui::BeginCombo("run on", names[int(req.backend)])) {
      if (ImGui::Selectable(names[0], req.backend == BackendKind::Emu)) r.backend = BackendKind::Emu, changed = true;
      if (gpu && ImGui::Selectable(names[2], req.backend == BackendKind::GpuTrace))
        r.backend = BackendKind::GpuTrace, changed = true;
      ImGui::EndCombo();
    }
    if (req.backend == BackendKind::GpuTrace) {
      ImGui::SameLine(0, E);
      bool count = req.config.record.count_every_block;
      if (ImGui::Checkbox("count every block", &count)) r.config.record.count_every_block = count, changed = true;
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Per-site counters (wavefronts, sectors, lanes) for every block of the grid, computed on\n"
                          "the GPU. Off: only the selected blocks are recorded, which is much cheaper for\n"
                          "barrier-heavy kernels, and whole-grid numbers come from those blocks alone.");
    }
  }
  return changed;
}

// The kernel's own parameters (stride, grid-size cap, matrix columns...), within their ranges.
bool LabView::draw_params(const RunRequest& req, const KernelSpec& spec, RunRequest& r) {
  const float field = 6.5f * em();
  bool changed = false;
  for (const ParamSpec& p : spec.params) {
    auto it = req.config.params.find(p.name);
    if (p.real) {  // any number in range (a kernel file's `alpha = 2.5`)
      double x = it != req.config.params.end() ? it->second : p.def;
      ImGui::SetNextItemWidth(field);
      if (ImGui::InputDouble(p.name.c_str(), &x, 0, 0, "%g", ImGuiInputTextFlags_EnterReturnsTrue) && std::isfinite(x)) {
        r.config.params[p.name] = std::clamp(x, p.min, p.max);
        changed = true;
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s\n(%s to %s, default %s)", p.description.c_str(), param_text(p.min).c_str(),
                          param_text(p.max).c_str(), param_text(p.def).c_str());
      continue;
    }
    int v = int(it != req.config.params.end() ? it->second : p.def);
    if (auto named = req.config.param_choices.find(p.name); named != req.config.param_choices.end()) {
      const auto c = std::find(p.choices.begin(), p.choices.end(), named->second);
      if (c != p.choices.end()) v = int(c - p.choices.begin());
    }
    ImGui::SetNextItemWidth(field);
    if (!p.choices.empty()) {  // named choices (the input distribution...): a combo of their names
      const char* shown = v >= 0 && size_t(v) < p.choices.size() ? p.choices[size_t(v)].c_str() : "?";
      if (ImGui::BeginCombo(p.name.c_str(), shown)) {
        for (size_t c = 0; c < p.choices.size(); ++c)
          if (ImGui::Selectable(p.choices[c].c_str(), int(c) == v)) {
            r.config.params[p.name] = int64_t(c);
            r.config.param_choices.erase(p.name);
            changed = true;
          }
        ImGui::EndCombo();
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description.c_str());
      continue;
    }
    if (ImGui::InputInt(p.name.c_str(), &v, 1, 8, ImGuiInputTextFlags_EnterReturnsTrue)) {
      r.config.params[p.name] = std::clamp<double>(v, p.min, p.max);
      changed = true;
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\n(%s to %s, default %s)", p.description.c_str(), param_text(p.min).c_str(),
                        param_text(p.max).c_str(), param_text(p.def).c_str());
  }
  return changed;
}

// The run: progress, result, the verdict and its sentence; false when there is nothing more to
// show (nothing ran, or it was refused).
bool LabView::draw_run(Session& s, const SessionData* d) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  const std::string busy = s.busy_text();
  if (!busy.empty()) {
    // Long emulator runs (large n, every block recorded) can take seconds: they can be stopped.
    if (ImGui::SmallButton("Cancel")) s.cancel();
    ImGui::SameLine();
    ImGui::TextColored(vc.barrier, "%s", busy.c_str());
  }
  if (!d) {
    if (busy.empty()) ImGui::TextDisabled("Nothing has run yet: pick a variant.");
    return false;
  }
  const RunResult& res = d->result;
  const char* where = d->request.backend == BackendKind::Emu ? "on the emulator" : "on the GPU (recorded)";
  const Dim3 rb = d->resolved.block;
  const std::string shape = std::to_string(rb.x) + (rb.y > 1 || rb.z > 1 ? " x " + std::to_string(rb.y) : "") +
                            (rb.z > 1 ? " x " + std::to_string(rb.z) : "");
  ImGui::TextWrapped("Ran variant %s, n = %llu, block %s, %s: %zu launch%s, %.0f ms %s", d->resolved.variant.c_str(),
              static_cast<unsigned long long>(d->resolved.n), shape.c_str(), d->resolved.dtype.c_str(),
              res.launches.size(), res.launches.size() == 1 ? "" : "es", d->run_ms, where);
  if (!res.refused.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, vc.conflict);
    ImGui::TextWrapped("Refused: %s", res.refused.c_str());
    ImGui::PopStyleColor();
    return false;
  }
  if (!res.completed) {
    badge("FAULT", vc.conflict, *this, false);
    ImGui::PushStyleColor(ImGuiCol_Text, vc.conflict);
    ImGui::TextWrapped("%s", d->error.c_str());
    ImGui::PopStyleColor();
  } else {
    // One verdict for the run, the same as `warpscope run` prints: a race or a lockstep-only
    // hazard is not a pass, whatever the sum came to.
    const analysis::RunVerdict v = analysis::verdict(res.completed, res.passed, d->reports, res.errors);
    const ImVec4 color = v.verdict == analysis::Verdict::Pass           ? vc.ok
                         : v.verdict == analysis::Verdict::LockstepOnly ? vc.barrier
                                                                         : vc.conflict;
    badge(v.word, color, *this, v.ok());
    ImGui::SameLine(0, 0.6f * E);
    ImGui::BeginGroup();
    ImGui::Text("%s   (expected %s)", res.result.c_str(), res.expected.c_str());
    ImGui::TextDisabled("check: %s", res.check.c_str());
    ImGui::EndGroup();
    if (!v.sentence.empty() && v.first) {
      ImGui::PushStyleColor(ImGuiCol_Text, color);
      ImGui::TextWrapped("%s", v.sentence.c_str());
      ImGui::PopStyleColor();
      // The pair's first access in the views (the source view marks both lines).
      if (ImGui::SmallButton("show this pair")) s.select_hazard(*v.first);
    }
  }
  for (const std::string& n : res.notes) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("note: %s", n.c_str());
    ImGui::PopStyleColor();
  }

  return true;
}

// Key numbers of this run and of the other variants already run with the same launch.
void LabView::draw_key_numbers(Session& s, const RunRequest& req, const KernelSpec& spec, const SessionData* d) {
  const KeyNumbers k = key_numbers(*d);
  if (!k.valid) return;
  ImGui::Spacing();
  // Which blocks the numbers cover: the recorded ones; the grid column, when the GPU counted every
  // block (gpu-trace), covers them all.
  if (k.recorded_blocks >= k.total_blocks)
    ImGui::TextUnformatted("Key numbers (every block of every launch):");
  else
    ImGui::Text("Key numbers (%s of %s blocks recorded, every launch):", grouped(k.recorded_blocks).c_str(),
                grouped(k.total_blocks).c_str());
  bool any_grid = false;
  for (const VariantSpec& v : spec.variants) {
    RunConfig c = d->resolved;
    c.variant = v.id;
    auto it = s.history.find(Session::history_key(req.kernel, c));
    any_grid = any_grid || (it != s.history.end() && it->second.grid);
  }
  draw_key_table(s, req, spec, *d, any_grid);
  if (k.grid) {
    const std::string loads =
        k.grid_global_load_efficiency > 0 ? ", global loads " + percent(k.grid_global_load_efficiency) + " efficient" : "";
    ImGui::TextWrapped("Whole grid, every block counted (%s blocks): %s bank conflicts in %s shared wavefronts; "
                       "%s memory instructions, SIMD efficiency %s%s.",
                       grouped(k.total_blocks).c_str(), grouped(k.grid_shared_conflicts).c_str(),
                       grouped(k.grid_shared_wavefronts).c_str(), grouped(k.grid_instructions).c_str(),
                       percent(k.grid_simd_efficiency).c_str(), loads.c_str());
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("This run: %llu shared wavefronts, %llu warp instructions, %llu racing access pair%s, %llu "
                     "lockstep-only. Each variant run with this n, block, dtype and seed stays in the table for "
                     "comparison.",
                     static_cast<unsigned long long>(k.shared_wavefronts), static_cast<unsigned long long>(k.instructions),
                     static_cast<unsigned long long>(k.hazards), k.hazards == 1 ? "" : "s",
                     static_cast<unsigned long long>(k.lockstep_hazards));
  ImGui::PopStyleColor();
}

void LabView::draw_key_table(Session& s, const RunRequest& req, const KernelSpec& spec, const SessionData& data, bool any_grid) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const SessionData* d = &data;
  if (ImGui::BeginTable("##keys", any_grid ? 6 : 5, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("variant");
    ImGui::TableSetupColumn("bank confl.");
    if (any_grid) ImGui::TableSetupColumn("grid confl.");
    ImGui::TableSetupColumn("SIMD eff.");
    ImGui::TableSetupColumn("gld eff.");
    ImGui::TableSetupColumn("verdict");
    ImGui::TableHeadersRow();
    for (const VariantSpec& v : spec.variants) {
      RunConfig c = d->resolved;
      c.variant = v.id;
      auto it = s.history.find(Session::history_key(req.kernel, c));
      if (it == s.history.end()) continue;
      const KeyNumbers& h = it->second;
      const bool cur = v.id == d->resolved.variant;
      ImGui::TableNextRow();
      if (cur) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, ImGui::GetColorU32(ImGuiCol_Header));
      ImGui::TableNextColumn();
      ImGui::Text("%s%s", v.id.c_str(), cur ? "  (now)" : "");
      ImGui::TableNextColumn();
      if (h.shared_conflicts) ImGui::TextColored(vc.conflict, "%llu", static_cast<unsigned long long>(h.shared_conflicts));
      else ImGui::TextColored(vc.ok, "0");
      if (any_grid) {
        ImGui::TableNextColumn();
        if (!h.grid) ImGui::TextDisabled("-");
        else if (h.grid_shared_conflicts)
          ImGui::TextColored(vc.conflict, "%s", grouped(h.grid_shared_conflicts).c_str());
        else ImGui::TextColored(vc.ok, "0");
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("Shared-memory bank conflicts of every block, recorded or not, counted while the kernel\n"
                            "ran ('count every block'): the number Nsight Compute reports as\n"
                            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st,atom}.sum.");
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(percent(h.simd_efficiency).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(h.global_load_efficiency > 0 ? percent(h.global_load_efficiency).c_str() : "-");
      ImGui::TableNextColumn();
      ImGui::TextColored(h.verdict == analysis::Verdict::Pass           ? vc.ok
                         : h.verdict == analysis::Verdict::LockstepOnly ? vc.barrier
                                                                         : vc.conflict,
                         "%s", analysis::to_string(h.verdict));
    }
    ImGui::EndTable();
  }
}

// =================================================================================================
// [SECTION] The lab
// =================================================================================================

void LabView::draw(Session& s) {
  RunRequest req = s.last_request();
  if (req.kernel.empty()) req = default_request();
  const CatalogEntry* entry = sync_fields(req);
  if (!entry || !draw_kernel_picker(s, entry->spec)) return;
  draw_variants(s, req, entry->spec);
  draw_launch_controls(s, req, *entry);
  ImGui::Separator();
  const auto d = s.data();
  if (!draw_run(s, d.get())) return;
  draw_key_numbers(s, req, entry->spec, d.get());
}

}  // namespace ws::app
