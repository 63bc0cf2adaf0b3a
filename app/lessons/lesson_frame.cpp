#include "lessons/lesson_frame.h"

#include "lessons/lesson_player.h"
#include "views/view.h"

#include "ws/run/catalog.h"
#include "ws/viz/colormap.h"
#include "ws/viz/fonts.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ws::app {

namespace {

struct Box {
  ImVec2 min, max;
  float w() const { return max.x - min.x; }
  float h() const { return max.y - min.y; }
};

// `n` boxes in `area`: side by side, one under another, or 2 x 2, with `gap` between them.
std::vector<Box> split(Box area, size_t n, LessonLayout layout, float gap) {
  std::vector<Box> out;
  if (n == 0) return out;
  if (layout == LessonLayout::Grid && n > 2) {
    const float w = (area.w() - gap) / 2, h = (area.h() - gap) / 2;
    for (size_t i = 0; i < n; ++i) {
      const float x = area.min.x + float(i % 2) * (w + gap), y = area.min.y + float(i / 2) * (h + gap);
      out.push_back({ImVec2(x, y), ImVec2(x + w, y + h)});
    }
    return out;
  }
  const bool across = layout != LessonLayout::Column;
  const float len = ((across ? area.w() : area.h()) - gap * float(n - 1)) / float(n);
  for (size_t i = 0; i < n; ++i) {
    const float at = float(i) * (len + gap);
    out.push_back(across ? Box{ImVec2(area.min.x + at, area.min.y), ImVec2(area.min.x + at + len, area.max.y)}
                         : Box{ImVec2(area.min.x, area.min.y + at), ImVec2(area.max.x, area.min.y + at + len)});
  }
  return out;
}

// The name of a launch for a comparison's heading: "reduce 3 (sequential addressing), block 256".
std::string launch_name(const Session& s) {
  const auto d = s.data();
  if (!d) return "running...";
  std::string name = d->request.kernel + " " + d->resolved.variant;
  if (const CatalogEntry* e = Catalog::instance().find(d->request.kernel))
    if (const VariantSpec* v = e->spec.variant(d->resolved.variant)) name += " (" + v->name + ")";
  const Dim3 b = d->resolved.block;
  name += ", block " + std::to_string(b.x) + (b.y > 1 || b.z > 1 ? "x" + std::to_string(b.y) : "") +
          (b.z > 1 ? "x" + std::to_string(b.z) : "");
  return name;
}

// One group of views (the step's, or its comparison's) in `area`, with an optional caption line.
void draw_group(Box area, const std::vector<std::unique_ptr<View>>& views, const std::vector<LessonView>& specs,
                Session& s, LessonLayout layout, const std::string& caption, const char* id, float gap,
                LessonFrameLayout& out) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  if (!caption.empty()) {
    ImGui::SetCursorScreenPos(area.min);
    ImGui::PushTextWrapPos(area.max.x);
    ImGui::TextColored(vc.text, "%s", caption.c_str());
    ImGui::PopTextWrapPos();
    area.min.y = ImGui::GetCursorScreenPos().y + gap * 0.5f;
  }
  const std::vector<Box> boxes = split(area, views.size(), layout, gap);
  for (size_t i = 0; i < boxes.size(); ++i) {
    const Box& b = boxes[i];
    out.view_min.push_back(b.min);
    out.view_max.push_back(b.max);
    ImGui::SetCursorScreenPos(b.min);
    ImGui::PushID(id);
    ImGui::PushID(int(i));
    if (ImGui::BeginChild("##view", ImVec2(b.w(), b.h()), true)) {
      const ViewType* t = i < specs.size() ? find_view_type(specs[i].id) : nullptr;
      if (t) ImGui::TextColored(vc.text_dim, "%s", t->title);
      views[i]->draw(s);
    }
    ImGui::EndChild();
    ImGui::PopID();
    ImGui::PopID();
  }
}

}  // namespace

LessonFrameLayout draw_lesson(LessonPlayer& p, ImVec2 display, const char* jump) {
  LessonFrameLayout L;
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = ImGui::GetFontSize();
  const float pad = std::floor(0.6f * E), gap = std::floor(0.5f * E);
  p.poll();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
  ImGui::Begin("##lesson", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::PopStyleVar();
  const LessonStep& step = p.step();
  const size_t count = p.lesson().steps.size();

  // Header band: lesson title and the step number on one line, the step's title, its caption.
  L.header_min = ImGui::GetCursorScreenPos();
  char index[48];
  if (jump && *jump)
    std::snprintf(index, sizeof index, "go to step %s_ (Enter)", jump);
  else
    std::snprintf(index, sizeof index, "%zu / %zu", p.index() + 1, count);
  ImGui::TextColored(vc.text_dim, "%s", p.lesson().title.c_str());
  ImGui::SameLine(display.x - pad - ImGui::CalcTextSize(index).x);
  ImGui::TextColored(vc.text_dim, "%s", index);
  ImGui::PushFont(ws::viz::heading_font());
  ImGui::PushTextWrapPos(display.x - pad);
  ImGui::TextUnformatted(step.title.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  if (!step.caption.empty()) {
    ImGui::PushTextWrapPos(display.x - pad);
    ImGui::TextUnformatted(step.caption.c_str());
    ImGui::PopTextWrapPos();
  }
  if (!p.error().empty()) {
    ImGui::PushTextWrapPos(display.x - pad);
    ImGui::TextColored(vc.conflict, "This step cannot show its instruction: %s", p.error().c_str());
    ImGui::PopTextWrapPos();
  }
  L.header_max = ImVec2(display.x - pad, ImGui::GetCursorScreenPos().y);
  ImGui::GetWindowDrawList()->AddLine(ImVec2(pad, L.header_max.y), ImVec2(display.x - pad, L.header_max.y),
                                      ImGui::GetColorU32(ImGuiCol_Separator));

  // The views: the step's group, and the comparison's beside it or under it.
  Box area{ImVec2(pad, L.header_max.y + gap * 0.5f), ImVec2(display.x - pad, display.y - pad)};
  if (!step.compare) {
    draw_group(area, p.views(), step.views, p.session(), step.layout, "", "main", gap, L);
  } else {
    const std::vector<Box> halves = split(area, 2, step.compare->layout, 2 * gap);
    Session* other = p.compare_session();
    const std::string first = launch_name(p.session()) +
                              (step.compare->first_caption.empty() ? "" : ": " + step.compare->first_caption);
    const std::string second =
        (other ? launch_name(*other) : std::string()) + (step.compare->caption.empty() ? "" : ": " + step.compare->caption);
    draw_group(halves[0], p.views(), step.views, p.session(), step.layout, first, "main", gap, L);
    if (other) draw_group(halves[1], p.compare_views(), step.views, *other, step.layout, second, "other", gap, L);
  }
  ImGui::End();
  return L;
}

}  // namespace ws::app
