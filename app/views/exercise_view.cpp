// Exercise panel: goals with live ✓/✗ and measured values, hints, restore.
#include "views/exercise_view.h"
#include "views/view_common.h"

#include "model/kernel_file_watch.h"
#include "lessons/exercise_session.h"
#include "model/session.h"

#include "ws/viz/colormap.h"

#include <chrono>
#include <filesystem>
#include <thread>

namespace ws::app {

namespace fs = std::filesystem;

std::string ExerciseView::prepare_picture(Session& s) {
  ExerciseSession& x = exercise_session();
  KernelFileWatch& w = kernel_file_watch();
  if (!x.is_open()) return {};
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < end) {
    w.wait(s);
    s.wait_idle();
    s.poll();
    x.poll(s, w);
    if (x.graded() || w.failed() || x.status().rfind("not graded", 0) == 0) return {};
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return "the exercise was not graded in time: " + x.status();
}

void ExerciseView::draw_goals(Session& s) {
  ExerciseSession& x = exercise_session();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const LessonStep& step = x.step();
  for (size_t i = 0; i < step.goals.size(); ++i) {
    ImGui::PushID(int(i));
    const grading::Goal& g = step.goals[i];
    const grading::GoalResult* r = i < x.results().size() ? &x.results()[i] : nullptr;
    if (!r) ImGui::TextDisabled("·");
    else if (r->skipped) ImGui::TextDisabled("–");
    else ImGui::TextColored(r->held ? vc.ok : vc.conflict, "%s", r->held ? "✓" : "✗");
    ImGui::SameLine();
    ImGui::TextWrapped("%s", g.says.c_str());
    ImGui::Indent(1.5f * em());
    if (r) {
      if (r->skipped) ImGui::TextDisabled("%s %s: %s", grading::info(g.metric).name, r->bound_text.c_str(), r->detail.c_str());
      else ImGui::TextDisabled("%s %s: measured %s", grading::info(g.metric).name, r->bound_text.c_str(), r->value_text.c_str());
      if (!r->held && !r->skipped && !r->detail.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, vc.conflict);
        const bool click = ImGui::Selectable(r->detail.c_str(), false);
        ImGui::PopStyleColor();
        if (r->line > 0 && ImGui::IsItemHovered())
          wrapped_tooltip("click: show line %u in the source view and select its instruction in every view", r->line);
        if (click && r->line > 0) {
          kernel_file_watch().focus_line(x.copy().string(), r->line);
          s.select_line(r->file, r->line);
        }
      }
    } else {
      ImGui::TextDisabled("%s %s", grading::info(g.metric).name, grading::bound_text(g).c_str());
    }
    ImGui::Unindent(1.5f * em());
    ImGui::PopID();
  }
}

void ExerciseView::draw_hints() {
  ExerciseSession& x = exercise_session();
  const std::vector<std::string>& hints = x.step().hints;
  if (hints.empty()) return;
  ImGui::Separator();
  for (size_t i = 0; i < x.hints_shown && i < hints.size(); ++i) ImGui::TextWrapped("Hint %zu: %s", i + 1, hints[i].c_str());
  if (x.hints_shown < hints.size() && controls) {
    const std::string label = "Show hint " + std::to_string(x.hints_shown + 1) + " of " + std::to_string(hints.size());
    if (ImGui::Button(label.c_str())) ++x.hints_shown;
  } else if (x.hints_shown < hints.size()) {
    ImGui::TextDisabled("%zu hints", hints.size() - x.hints_shown);
  }
}

void ExerciseView::draw_restore() {
  ExerciseSession& x = exercise_session();
  if (ImGui::Button("Restore the starting file (R)")) x.ask_restore = true;
  if (x.ask_restore) ImGui::OpenPopup("Restore?");
  if (ImGui::BeginPopupModal("Restore?", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("Replace %s with the exercise's starting file?", x.copy().filename().string().c_str());
    ImGui::TextDisabled("Your changes to it are lost.");
    if (ImGui::Button("Restore")) {
      restore_error = x.restore();
      x.ask_restore = false;
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Keep my file") || ImGui::IsKeyPressed(ImGuiKey_Escape)) {
      x.ask_restore = false;
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
  if (!restore_error.empty()) ImGui::TextColored(ws::viz::view_colors().conflict, "%s", restore_error.c_str());
}

void ExerciseView::draw(Session& s) {
  ExerciseSession& x = exercise_session();
  if (!x.is_open()) {
    ImGui::TextWrapped("No exercise is open: warpscope --exercise EXERCISE.toml (its starting file is copied to "
                       "your folder, and graded each time you save it).");
    return;
  }
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  ImGui::TextWrapped("%s", x.step().title.c_str());
  if (!x.step().caption.empty()) ImGui::TextWrapped("%s", x.step().caption.c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("Your copy: %s%s", x.copy().string().c_str(), x.copied() ? "" : " (kept: it was there)");
  ImGui::PopStyleColor();
  const bool done = x.done();
  ImGui::TextColored(done ? vc.ok : x.graded() ? vc.conflict : vc.barrier, "%s", x.status().c_str());
  ImGui::Separator();
  draw_goals(s);
  draw_hints();
  if (controls) {
    ImGui::Separator();
    draw_restore();
  }
}

}  // namespace ws::app
