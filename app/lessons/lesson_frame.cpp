#include "lessons/lesson_frame.h"

#include "lessons/lesson_player.h"
#include "views/view.h"

#include "ws/run/catalog.h"
#include "ws/timing/timing.h"
#include "ws/viz/colormap.h"
#include "ws/viz/fonts.h"

#include <imgui_internal.h>  // the windows inside a view's window, to measure what it drew

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

namespace ws::app {

namespace {

// Draws what follows with the UI font at `zoom` times the size: the atlas's own font of that
// size when it has one (sharp), else the window's font scaled this frame while the player asks
// for that size (the look builds it for the next frame).
class ViewZoom {
 public:
  ViewZoom(LessonPlayer& p, float zoom) {
    if (zoom <= 1.0f) return;
    p.want_zoom(zoom);
    if (ImFont* f = ws::viz::zoom_font(zoom)) {
      ImGui::PushFont(f);
      pushed_ = true;
    } else {
      const float E = ImGui::GetFontSize();
      ImGui::SetWindowFontScale(std::round(E * zoom) / E);
      scaled_ = true;
    }
  }
  ~ViewZoom() {
    if (pushed_) ImGui::PopFont();
    if (scaled_) ImGui::SetWindowFontScale(1.0f);
  }
  ViewZoom(const ViewZoom&) = delete;
  ViewZoom& operator=(const ViewZoom&) = delete;

 private:
  bool pushed_ = false, scaled_ = false;
};

// The smallest text drawn into the current window since its vertex `first`, or 0.
float smallest_text_since(int first) {
  float least = 0;
  for (const ws::viz::DrawnText& t : ws::viz::drawn_text(*ImGui::GetWindowDrawList(), *ImGui::GetIO().Fonts, first))
    if (least == 0 || t.px < least) least = t.px;
  return least;
}

// What the current window (a view's, before its EndChild) and the windows inside it drew since
// its own vertex `first`: every text, the smallest, text cut off, and the picture's extent.
void measure_view_window(ViewReport& r, int first) {
  ImGuiWindow* self = ImGui::GetCurrentWindow();
  ImVec2 lo(FLT_MAX, FLT_MAX), hi(-FLT_MAX, -FLT_MAX);
  for (ImGuiWindow* w : GImGui->Windows) {
    bool inside = false;
    for (ImGuiWindow* p = w; p && !inside; p = p->ParentWindow) inside = p == self;
    if (!inside || !w->Active || w->Hidden) continue;
    const int from = w == self ? first : 0;
    const ImDrawList& dl = *w->DrawList;
    for (int i = from; i < dl.VtxBuffer.Size; ++i) {
      // (clipped to the box: a picture running past it is `scrolls`, not a larger fill)
      const ImVec2 q(std::clamp(dl.VtxBuffer[i].pos.x, r.box_min.x, r.box_max.x),
                     std::clamp(dl.VtxBuffer[i].pos.y, r.box_min.y, r.box_max.y));
      lo = ImVec2(std::min(lo.x, q.x), std::min(lo.y, q.y));
      hi = ImVec2(std::max(hi.x, q.x), std::max(hi.y, q.y));
    }
    for (ws::viz::DrawnText& t : ws::viz::drawn_text(dl, *ImGui::GetIO().Fonts, from)) {
      if (t.clipped) r.clipped.push_back(t.text);
      r.texts.push_back(std::move(t));
    }
  }
  for (const ws::viz::DrawnText& t : r.texts)
    if (r.smallest_px == 0 || t.px < r.smallest_px) r.smallest_px = t.px, r.smallest_text = t.text;
  if (hi.x >= lo.x) r.picture_min = lo, r.picture_max = hi;
}

struct Box {
  ImVec2 min, max;
  float w() const { return max.x - min.x; }
  float h() const { return max.y - min.y; }
};

// What a box asks for on the slide, at the slide's font: its natural size and the least it can
// do with (View::natural_size, least_size). 0 on an axis: any length will do.
struct Need {
  ImVec2 natural{0, 0}, least{0, 0};
};

// Heights for boxes that share `total`, one under another: each its natural height and the rest
// alike where all fit; else each its least and what is left in proportion to how far each is from
// its natural; else in proportion to the least. A box that takes any height counts as asking for
// an equal share.
std::vector<float> shares(float total, std::vector<Need> needs) {
  const size_t n = needs.size();
  for (Need& d : needs)
    if (d.natural.y <= 0) d.natural.y = d.least.y = total / float(n);
  float nat = 0, least = 0;
  for (const Need& d : needs) nat += d.natural.y, least += std::min(d.least.y, d.natural.y);
  std::vector<float> out(n);
  for (size_t i = 0; i < n; ++i) {
    const float lo = std::min(needs[i].least.y, needs[i].natural.y), hi = needs[i].natural.y;
    out[i] = nat <= total         ? hi + (total - nat) / float(n)
             : least <= total     ? lo + (total - least) * (hi - lo) / std::max(nat - least, 1.0f)
                                  : total * lo / std::max(least, 1.0f);
  }
  return out;
}

// `needs.size()` boxes in `area`: side by side (equal widths), one under another (heights as
// shares() gives them), or 2 x 2, with `gap` between them.
std::vector<Box> split(Box area, const std::vector<Need>& needs, LessonLayout layout, float gap) {
  std::vector<Box> out;
  const size_t n = needs.size();
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
  const float total = (across ? area.w() : area.h()) - gap * float(n - 1);
  const std::vector<float> len = across ? std::vector<float>(n, total / float(n)) : shares(total, needs);
  float at = 0;
  for (size_t i = 0; i < n; ++i) {
    const float a = std::floor(at), b = std::floor(at + len[i]);
    out.push_back(across ? Box{ImVec2(area.min.x + a, area.min.y), ImVec2(area.min.x + b, area.max.y)}
                         : Box{ImVec2(area.min.x, area.min.y + a), ImVec2(area.max.x, area.min.y + b)});
    at += len[i] + gap;
  }
  return out;
}

// What a view's box asks for: the view's sizes, its window's padding and its title line.
Need need_of(View& view, Session& s) {
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  const float title = ImGui::GetTextLineHeightWithSpacing();
  auto box = [&](ImVec2 v) { return ImVec2(v.x > 0 ? v.x + 2 * pad.x : 0.0f, v.y > 0 ? v.y + 2 * pad.y + title : 0.0f); };
  return Need{box(view.natural_size(s)), box(view.least_size(s))};
}

// A group's need (its caption over its views): side by side their widths add up and the tallest
// counts, one under another the reverse. A view that takes any height makes the group's 0.
Need group_need(const std::vector<Need>& views, LessonLayout layout, float caption_h, float gap) {
  Need out;
  bool any_h = true;
  for (const Need& v : views) {
    any_h = any_h && v.natural.y > 0;
    if (layout == LessonLayout::Column) {
      out.natural.x = std::max(out.natural.x, v.natural.x);
      out.natural.y += v.natural.y + gap;
      out.least.y += v.least.y + gap;
    } else {
      out.natural.x += v.natural.x + gap;
      out.natural.y = std::max(out.natural.y, v.natural.y);
      out.least.y = std::max(out.least.y, v.least.y);
    }
  }
  out.least.x = out.natural.x;
  if (!any_h) out.natural.y = out.least.y = 0;
  if (out.natural.y > 0) out.natural.y += caption_h, out.least.y += caption_h;
  return out;
}

// The layout the step asks for, unless its boxes would be narrower than a view needs to show its
// labels at the slide's size: then one under another, each as wide as the slide (the room decides
// the boxes, never the type).
LessonLayout fit_layout(LessonLayout wanted, Box area, const std::vector<Need>& needs, float gap) {
  if (wanted == LessonLayout::Column || needs.size() < 2) return wanted;
  const std::vector<Box> boxes = split(area, needs, wanted, gap);
  for (size_t i = 0; i < boxes.size(); ++i)
    if (needs[i].natural.x > boxes[i].w() + 0.5f) return LessonLayout::Column;
  return wanted;
}

// How much larger than the slide's font a view with `natural` box draws in `box`: as large as
// fits on both axes, in eighths, from 1 (never smaller: a view short of room shows less) to the
// caption's size (a picture's words never outgrow the caption over it; its cells and lines may
// still grow to fill the box).
float zoom_for(ImVec2 natural, Box box) {
  float z = ws::viz::kCaptionFactor;
  if (natural.x > 0) z = std::min(z, box.w() / natural.x);
  if (natural.y > 0) z = std::min(z, box.h() / natural.y);
  if (natural.x <= 0 && natural.y <= 0) z = 1.0f;
  return std::clamp(std::floor(z * 8.0f) / 8.0f, 1.0f, ws::viz::kCaptionFactor);
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

// One view in its box: a child window with the view's title, the view drawn at its zoom, and
// (measured) what it drew.
void draw_view(LessonPlayer& p, Box b, View& view, const LessonView* spec, Session& s, ImVec2 natural,
               LessonFrameLayout& out, bool measure) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  out.view_min.push_back(b.min);
  out.view_max.push_back(b.max);
  ImGui::SetCursorScreenPos(b.min);
  if (!ImGui::BeginChild("##view", ImVec2(b.w(), b.h()), true)) {
    out.view_clipped.push_back(false);
    ImGui::EndChild();
    return;
  }
  const ViewType* t = spec ? find_view_type(spec->id) : nullptr;
  if (t) ImGui::TextColored(vc.text_dim, "%s", t->title);
  const int first_vertex = ImGui::GetWindowDrawList()->VtxBuffer.Size;
  const float zoom = zoom_for(natural, b);
  {
    const ViewZoom z(p, zoom);
    view.draw(s);
  }
  out.view_clipped.push_back(ImGui::GetScrollMaxY() > 0.5f || ImGui::GetScrollMaxX() > 0.5f);
  if (measure) {
    ViewReport r;
    r.id = t ? t->id : "";
    r.box_min = b.min;
    r.box_max = b.max;
    r.zoom = zoom;
    r.natural = natural;
    r.left_out = view.left_out;
    r.scrolls = out.view_clipped.back();
    measure_view_window(r, first_vertex);
    out.report.views.push_back(std::move(r));
  }
  ImGui::EndChild();
}

// One group of views (the step's, or its comparison's) in `area`, with an optional caption line.
// Returns the layout it drew them in.
LessonLayout draw_group(LessonPlayer& p, Box area, const std::vector<std::unique_ptr<View>>& views,
                        const std::vector<LessonView>& specs, Session& s, LessonLayout layout,
                        const std::string& caption, const char* id, float gap, LessonFrameLayout& out, bool measure) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  if (!caption.empty()) {
    ImGui::SetCursorScreenPos(area.min);
    ImGui::PushTextWrapPos(area.max.x);
    ImGui::TextColored(vc.text, "%s", caption.c_str());
    ImGui::PopTextWrapPos();
    area.min.y = ImGui::GetCursorScreenPos().y + gap * 0.5f;
  }
  std::vector<Need> needs;
  for (const auto& v : views) needs.push_back(need_of(*v, s));
  layout = fit_layout(layout, area, needs, gap);
  const std::vector<Box> boxes = split(area, needs, layout, gap);
  ImGui::PushID(id);
  for (size_t i = 0; i < boxes.size(); ++i) {
    ImGui::PushID(int(i));
    draw_view(p, boxes[i], *views[i], i < specs.size() ? &specs[i] : nullptr, s, needs[i].natural, out, measure);
    ImGui::PopID();
  }
  ImGui::PopID();
  return layout;
}

const char* layout_name(LessonLayout l) {
  return l == LessonLayout::Row ? "row" : l == LessonLayout::Column ? "column" : "grid";
}

}  // namespace

float slide_scale(ImVec2 display) {
  if (display.x <= 0 || display.y <= 0) return 1.0f;
  const float k = std::min(display.x / kSlideWidth, display.y / kSlideHeight);
  // In steps of one pixel of the presentation font (24 px at 1080p).
  return std::clamp(std::round(k * 24.0f) / 24.0f, 0.25f, 4.0f);
}

LessonFrameLayout draw_lesson(LessonPlayer& p, ImVec2 display, const char* jump, bool measure) {
  const float pad = std::floor(0.6f * ImGui::GetFontSize());
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
  ImGui::Begin("##lesson", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::PopStyleVar();
  LessonFrameLayout L = draw_lesson_body(p, jump, measure);
  ImGui::End();
  L.report.size = display;
  return L;
}

namespace {

// The header band: the lesson's title and the step number on one line, the step's title, its
// caption, and what went wrong if something did. Returns its bottom.
float draw_header(LessonPlayer& p, const char* jump, ImVec2 origin, float right, LessonFrameLayout& L, bool measure) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const LessonStep& step = p.step();
  char index[48];
  if (jump && *jump)
    std::snprintf(index, sizeof index, "go to step %s_ (Enter)", jump);
  else
    std::snprintf(index, sizeof index, "%zu / %zu", p.index() + 1, p.lesson().steps.size());
  ImGui::TextColored(vc.text_dim, "%s", p.lesson().title.c_str());
  ImGui::SameLine(right - ImGui::GetWindowPos().x - ImGui::CalcTextSize(index).x);
  ImGui::TextColored(vc.text_dim, "%s", index);
  const float wrap = right - ImGui::GetWindowPos().x;
  ImGui::PushTextWrapPos(wrap);
  int first = ImGui::GetWindowDrawList()->VtxBuffer.Size;
  ImGui::PushFont(ws::viz::heading_font());
  ImGui::TextUnformatted(step.title.c_str());
  ImGui::PopFont();
  if (measure) L.report.title_px = smallest_text_since(first);
  // Where a CUDA GPU times the kernels, a step may say so in other words.
  const std::string& caption = !step.gpu_caption.empty() && timing::device().present ? step.gpu_caption : step.caption;
  ImGui::PushFont(ws::viz::caption_font());
  first = ImGui::GetWindowDrawList()->VtxBuffer.Size;
  if (!caption.empty()) ImGui::TextUnformatted(caption.c_str());
  if (measure) L.report.caption_px = smallest_text_since(first);
  if (!p.error().empty()) ImGui::TextColored(vc.conflict, "This step cannot show its instruction: %s", p.error().c_str());
  // A run that stopped at a fault says why once, here; its views say only that they show less.
  for (Session* s : {&p.session(), step.compare ? p.compare_session() : nullptr})
    if (const auto d = s ? s->data() : nullptr; d && !d->error.empty())
      ImGui::TextColored(vc.conflict, "FAULT: %s", d->error.c_str());
  ImGui::PopFont();
  ImGui::PopTextWrapPos();
  const float bottom = ImGui::GetCursorScreenPos().y;
  ImGui::GetWindowDrawList()->AddLine(ImVec2(origin.x, bottom), ImVec2(right, bottom), ImGui::GetColorU32(ImGuiCol_Separator));
  return bottom;
}

// The step's views and its comparison's, one launch beside or under the other (as the step says,
// unless the room says otherwise), each with its caption.
void draw_comparison(LessonPlayer& p, Box area, float gap, LessonFrameLayout& L, bool measure) {
  const LessonStep& step = p.step();
  Session* other = p.compare_session();
  const std::string first = launch_name(p.session()) +
                            (step.compare->first_caption.empty() ? "" : ": " + step.compare->first_caption);
  const std::string second =
      (other ? launch_name(*other) : std::string()) + (step.compare->caption.empty() ? "" : ": " + step.compare->caption);
  // Each half as large as its pictures ask for; side by side only where both fit so.
  auto needs = [&](std::vector<std::unique_ptr<View>>& views, Session* s, const std::string& caption, float width) {
    std::vector<Need> n;
    for (const auto& v : views) n.push_back(s ? need_of(*v, *s) : Need{});
    return group_need(n, step.layout, ImGui::CalcTextSize(caption.c_str(), nullptr, false, width).y + gap * 0.5f, gap);
  };
  LessonLayout layout = step.compare->layout;
  const float half_w = (area.w() - 2 * gap) / 2;
  std::vector<Need> halves_need = {needs(p.views(), &p.session(), first, half_w), needs(p.compare_views(), other, second, half_w)};
  layout = fit_layout(layout, area, halves_need, 2 * gap);
  if (layout == LessonLayout::Column)
    halves_need = {needs(p.views(), &p.session(), first, area.w()), needs(p.compare_views(), other, second, area.w())};
  L.report.compare_layout = layout_name(layout);
  const std::vector<Box> halves = split(area, halves_need, layout, 2 * gap);
  const LessonLayout inner = draw_group(p, halves[0], p.views(), step.views, p.session(), step.layout, first, "main", gap, L, measure);
  if (other) draw_group(p, halves[1], p.compare_views(), step.views, *other, step.layout, second, "other", gap, L, measure);
  L.report.layout = layout_name(inner);
  // The same view of both launches on one colour scale and one x scale (the next frame draws with
  // them).
  auto& a = p.views();
  auto& b = p.compare_views();
  for (size_t i = 0; other && i < std::min(a.size(), b.size()); ++i) {
    const float top = std::max(a[i]->scale_top, b[i]->scale_top);
    a[i]->common_scale_top = b[i]->common_scale_top = top;
    const float extent = std::max(a[i]->extent, b[i]->extent);
    a[i]->common_extent = b[i]->common_extent = extent;
  }
}

}  // namespace

LessonFrameLayout draw_lesson_body(LessonPlayer& p, const char* jump, bool measure) {
  LessonFrameLayout L;
  const float E = ImGui::GetFontSize();
  const float gap = std::floor(0.5f * E);
  p.poll();
  p.begin_frame();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float right = origin.x + avail.x, bottom = origin.y + avail.y;
  L.report.size = avail;
  L.report.group_views = p.views().size();
  L.header_min = origin;
  const float header_bottom = draw_header(p, jump, origin, right, L, measure);
  L.header_max = ImVec2(right, header_bottom);
  const Box area{ImVec2(origin.x, header_bottom + gap * 0.5f), ImVec2(right, bottom)};
  if (!p.step().compare)
    L.report.layout = layout_name(
        draw_group(p, area, p.views(), p.step().views, p.session(), p.step().layout, "", "main", gap, L, measure));
  else
    draw_comparison(p, area, gap, L, measure);
  return L;
}

}  // namespace ws::app
