#include "lessons/lesson_frame.h"

#include "lessons/lesson_player.h"
#include "views/view.h"

#include "ws/run/catalog.h"
#include "ws/timing/timing.h"
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

// Lengths for boxes that share `total`: where every box says how tall it would be (wanted > 0)
// and they all fit, each gets that and the rest is shared alike; where they do not fit, each gets
// a share in proportion. A box that fills anything (wanted 0) makes the shares equal.
std::vector<float> shares(float total, const std::vector<float>& wanted, size_t n) {
  std::vector<float> out(n, total / float(n));
  if (wanted.size() != n || std::any_of(wanted.begin(), wanted.end(), [](float w) { return w <= 0; })) return out;
  float sum = 0;
  for (float w : wanted) sum += w;
  for (size_t i = 0; i < n; ++i) out[i] = sum <= total ? wanted[i] + (total - sum) / float(n) : total * wanted[i] / sum;
  return out;
}

// `n` boxes in `area`: side by side, one under another (heights as `wanted` asks, see shares()),
// or 2 x 2, with `gap` between them.
std::vector<Box> split(Box area, size_t n, LessonLayout layout, float gap, const std::vector<float>& wanted = {}) {
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
  const std::vector<float> len =
      shares((across ? area.w() : area.h()) - gap * float(n - 1), across ? std::vector<float>{} : wanted, n);
  float at = 0;
  for (size_t i = 0; i < n; ++i) {
    const float a = std::floor(at), b = std::floor(at + len[i]);
    out.push_back(across ? Box{ImVec2(area.min.x + a, area.min.y), ImVec2(area.min.x + b, area.max.y)}
                         : Box{ImVec2(area.min.x, area.min.y + a), ImVec2(area.max.x, area.min.y + b)});
    at += len[i] + gap;
  }
  return out;
}

// What a box of `view` would rather be tall: its content at full size and the window's bottom
// padding (0: it fills any box).
float box_wanted(const View& view) {
  return view.wanted_h > 0 ? view.wanted_h + ImGui::GetStyle().WindowPadding.y : 0.0f;
}

// A group's wanted height (its caption over its views): the views one under another add up, side
// by side the tallest counts. 0 when one of them fills any box.
float group_wanted(const std::vector<std::unique_ptr<View>>& views, LessonLayout layout, const std::string& caption,
                   float width, float gap) {
  float sum = 0, tallest = 0;
  for (const auto& v : views) {
    const float w = box_wanted(*v);
    if (w <= 0) return 0;
    sum += w, tallest = std::max(tallest, w);
  }
  const float head = caption.empty() ? 0 : ImGui::CalcTextSize(caption.c_str(), nullptr, false, width).y + gap * 0.5f;
  if (views.empty()) return 0;
  return head + (layout == LessonLayout::Column ? sum + gap * float(views.size() - 1) : tallest);
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
  std::vector<float> wanted;
  for (const auto& v : views) wanted.push_back(box_wanted(*v));
  const std::vector<Box> boxes = split(area, views.size(), layout, gap, wanted);
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
      out.view_clipped.push_back(ImGui::GetScrollMaxY() > 0.5f || ImGui::GetScrollMaxX() > 0.5f);
    } else {
      out.view_clipped.push_back(false);
    }
    ImGui::EndChild();
    ImGui::PopID();
    ImGui::PopID();
  }
}

}  // namespace

float slide_scale(ImVec2 display) {
  if (display.x <= 0 || display.y <= 0) return 1.0f;
  const float k = std::min(display.x / kSlideWidth, display.y / kSlideHeight);
  // In steps of one pixel of the presentation font (24 px at 1080p).
  return std::clamp(std::round(k * 24.0f) / 24.0f, 0.25f, 4.0f);
}

LessonFrameLayout draw_lesson(LessonPlayer& p, ImVec2 display, const char* jump) {
  const float pad = std::floor(0.6f * ImGui::GetFontSize());
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
  ImGui::Begin("##lesson", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::PopStyleVar();
  const LessonFrameLayout L = draw_lesson_body(p, jump);
  ImGui::End();
  return L;
}

LessonFrameLayout draw_lesson_body(LessonPlayer& p, const char* jump) {
  LessonFrameLayout L;
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = ImGui::GetFontSize();
  const float gap = std::floor(0.5f * E);
  p.poll();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float right = origin.x + avail.x, bottom = origin.y + avail.y;
  const LessonStep& step = p.step();
  const size_t count = p.lesson().steps.size();

  // Header band: lesson title and the step number on one line, the step's title, its caption.
  L.header_min = origin;
  char index[48];
  if (jump && *jump)
    std::snprintf(index, sizeof index, "go to step %s_ (Enter)", jump);
  else
    std::snprintf(index, sizeof index, "%zu / %zu", p.index() + 1, count);
  ImGui::TextColored(vc.text_dim, "%s", p.lesson().title.c_str());
  ImGui::SameLine(right - ImGui::GetWindowPos().x - ImGui::CalcTextSize(index).x);
  ImGui::TextColored(vc.text_dim, "%s", index);
  ImGui::PushFont(ws::viz::heading_font());
  ImGui::PushTextWrapPos(right - ImGui::GetWindowPos().x);
  ImGui::TextUnformatted(step.title.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  ImGui::PushTextWrapPos(right - ImGui::GetWindowPos().x);
  // Where a CUDA GPU times the kernels, a step may say so in other words.
  const std::string& caption = !step.gpu_caption.empty() && timing::device().present ? step.gpu_caption : step.caption;
  if (!caption.empty()) ImGui::TextUnformatted(caption.c_str());
  if (!p.error().empty()) ImGui::TextColored(vc.conflict, "This step cannot show its instruction: %s", p.error().c_str());
  // A run that stopped at a fault says why once, here; its views say only that they show less.
  for (Session* s : {&p.session(), step.compare ? p.compare_session() : nullptr})
    if (const auto d = s ? s->data() : nullptr; d && !d->error.empty())
      ImGui::TextColored(vc.conflict, "FAULT: %s", d->error.c_str());
  ImGui::PopTextWrapPos();
  L.header_max = ImVec2(right, ImGui::GetCursorScreenPos().y);
  ImGui::GetWindowDrawList()->AddLine(ImVec2(origin.x, L.header_max.y), ImVec2(right, L.header_max.y),
                                      ImGui::GetColorU32(ImGuiCol_Separator));

  // The views: the step's group, and the comparison's beside it or under it.
  Box area{ImVec2(origin.x, L.header_max.y + gap * 0.5f), ImVec2(right, bottom)};
  if (!step.compare) {
    draw_group(area, p.views(), step.views, p.session(), step.layout, "", "main", gap, L);
  } else {
    Session* other = p.compare_session();
    const std::string first = launch_name(p.session()) +
                              (step.compare->first_caption.empty() ? "" : ": " + step.compare->first_caption);
    const std::string second =
        (other ? launch_name(*other) : std::string()) + (step.compare->caption.empty() ? "" : ": " + step.compare->caption);
    // One launch over the other: each half as tall as its pictures would rather be.
    const std::vector<float> wanted = {group_wanted(p.views(), step.layout, first, area.w(), gap),
                                       group_wanted(p.compare_views(), step.layout, second, area.w(), gap)};
    const std::vector<Box> halves = split(area, 2, step.compare->layout, 2 * gap, wanted);
    draw_group(halves[0], p.views(), step.views, p.session(), step.layout, first, "main", gap, L);
    if (other) draw_group(halves[1], p.compare_views(), step.views, *other, step.layout, second, "other", gap, L);
    // The same view of both launches on one colour scale (the next frame draws with it).
    auto& a = p.views();
    auto& b = p.compare_views();
    for (size_t i = 0; other && i < std::min(a.size(), b.size()); ++i) {
      const float top = std::max(a[i]->scale_top, b[i]->scale_top);
      a[i]->common_scale_top = b[i]->common_scale_top = top;
    }
  }
  return L;
}

}  // namespace ws::app
