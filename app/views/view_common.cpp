// Pieces every view shares: the "why is it empty" text, the selection bar, legends.
#include "views/view_common.h"

#include "ws/analysis/views.h"

#include "ws/viz/colormap.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace ws::app {

namespace {

void dim_text(const std::string& s) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", s.c_str());
  ImGui::PopStyleColor();
}

}  // namespace

bool view_ready(Session& s, const char* what, bool brief) {
  auto d = s.data();
  const std::string busy = s.busy_text();
  if (!d) {
    dim_text(busy.empty() ? std::string("Nothing has run yet. Pick a kernel and variant in the Reduction lab; ") + what
                          : busy);
    return false;
  }
  if (!busy.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ws::viz::view_colors().barrier);
    ImGui::TextWrapped("%s", busy.c_str());
    ImGui::PopStyleColor();
  }
  const Trace* t = s.trace();
  if (!t) {
    if (!d->error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ws::viz::view_colors().conflict);
      ImGui::TextWrapped("No trace: %s", d->error.c_str());
      ImGui::PopStyleColor();
    } else {
      dim_text("This run recorded no launch (a GPU-fast run records nothing). " + std::string(what));
    }
    return false;
  }
  if (!d->error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ws::viz::view_colors().conflict);
    if (brief) {
      ImGui::TextWrapped("The kernel stopped at a fault; shown: what it recorded until then.");
    } else {
      const bool stop = d->error.back() == '.';
      ImGui::TextWrapped("%s%s What was recorded up to the fault is shown.", d->error.c_str(), stop ? "" : ".");
    }
    ImGui::PopStyleColor();
  }
  if (t->truncated) {
    ImGui::PushStyleColor(ImGuiCol_Text, ws::viz::view_colors().barrier);
    ImGui::TextWrapped("Truncated trace: the record cap was reached, %llu events were not stored.",
                       static_cast<unsigned long long>(t->dropped_events));
    ImGui::PopStyleColor();
  }
  if (t->events.empty()) {
    dim_text("The trace of this launch has no events: no block was recorded, or the kernel touched no "
             "recorded array before it stopped.");
    return false;
  }
  return true;
}

void wrapped_tooltip(const char* fmt, ...) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(std::min(50.0f * em(), 0.8f * ImGui::GetIO().DisplaySize.x));
  va_list args;
  va_start(args, fmt);
  ImGui::TextV(fmt, args);
  va_end(args);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

std::string site_label(const Trace& t, uint32_t site) {
  if (site >= t.sites.size()) return "?";
  const Site& s = t.sites[site];
  std::string f = s.file;
  if (auto p = f.rfind('/'); p != std::string::npos) f = f.substr(p + 1);
  std::string out = f + ":" + std::to_string(s.line);
  // Several sites on one line: the rank tells them apart (as `warpscope analyze` prints them).
  for (const Site& o : t.sites)
    if (&o != &s && o.file == s.file && o.line == s.line) return out + "#" + std::to_string(s.rank + 1);
  return out;
}

std::string grouped(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

void selection_bar(Session& s, bool warp) {
  auto d = s.data();
  const Trace* t = s.trace();
  if (!d || !t) return;
  const float w = 5.6f * em();
  if (d->result.launches.size() > 1) {
    ImGui::SetNextItemWidth(w * 1.35f);
    char label[96];
    std::snprintf(label, sizeof label, "%u: %s", s.sel.launch, t->launch.entry.c_str());
    if (ImGui::BeginCombo("##launch", label)) {
      for (uint32_t i = 0; i < d->result.launches.size(); ++i) {
        const Trace& l = d->result.launches[i];
        std::snprintf(label, sizeof label, "%u: %s  grid %u", i, l.launch.entry.c_str(), l.launch.grid.x);
        if (ImGui::Selectable(label, i == s.sel.launch)) {
          s.sel.launch = i;
          s.sel.block = 0;
          s.sel.event = -1;
          s.sel.cursor = -1;
          ++s.sel_version;
        }
      }
      ImGui::EndCombo();
    }
    ImGui::SameLine();
  }
  t = s.trace();
  if (!t) return;
  ImGui::SetNextItemWidth(w);
  char label[64];
  std::snprintf(label, sizeof label, "block %u", s.sel.block);
  if (ImGui::BeginCombo("##block", label)) {
    for (uint32_t b : t->recorded_blocks) {
      std::snprintf(label, sizeof label, "block %u", b);
      if (ImGui::Selectable(label, b == s.sel.block)) {
        s.sel.block = b;
        s.sel.cursor = -1;
        ++s.sel_version;
      }
    }
    ImGui::EndCombo();
  }
  if (warp) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    const uint32_t warps = uint32_t((t->launch.block.count() + 31) / 32);
    std::snprintf(label, sizeof label, "warp %u", s.sel.warp);
    if (ImGui::BeginCombo("##warp", label)) {
      for (uint32_t i = 0; i < warps; ++i) {
        std::snprintf(label, sizeof label, "warp %u", i);
        if (ImGui::Selectable(label, i == s.sel.warp)) {
          s.sel.warp = i;
          // Keep the same site if the warp has it, else its first access.
          auto [first, last] = analysis::block_events(*t, s.sel.block);
          int64_t pick = -1, any = -1;
          for (size_t k = first; k < last; ++k) {
            const Event& e = t->events[k];
            if (e.warp != i || e.type != EventType::Access) continue;
            if (any < 0) any = int64_t(k);
            if (e.site == s.sel.site && pick < 0) pick = int64_t(k);
          }
          if (pick < 0) pick = any;
          if (pick >= 0) s.select_event(pick);
          s.sel.warp = i;
          ++s.sel_version;
        }
      }
      ImGui::EndCombo();
    }
  }
}

void swatch(ImVec4 color, const char* label) {
  const float h = ImGui::GetTextLineHeight();
  ImVec2 p = ImGui::GetCursorScreenPos();
  // A swatch placed beside the last one that would run past the edge starts a new line instead.
  const float need = h + ImGui::CalcTextSize(label).x;
  if (p.x + need > ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x && p.x > ImGui::GetCursorStartPos().x + ImGui::GetWindowPos().x + 1) {
    ImGui::NewLine();
    p = ImGui::GetCursorScreenPos();
  }
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + h * 0.15f), ImVec2(p.x + h * 0.7f, p.y + h * 0.85f),
                                            ImGui::ColorConvertFloat4ToU32(color));
  ImGui::Dummy(ImVec2(h * 0.8f, h));
  ImGui::SameLine(0, h * 0.2f);
  ImGui::TextUnformatted(label);
}

void viridis_legend(float vmin, float vmax, const char* caption, bool integers, float max_width, bool log_scale) {
  // A strip of the color map drawn with the map's own colors (same function as the shader).
  const float h = ImGui::GetTextLineHeight();
  const float room = max_width > 0 ? std::min(max_width, ImGui::GetContentRegionAvail().x) : ImGui::GetContentRegionAvail().x;
  const float width = std::min(room, 16.0f * em());
  const float start_x = ImGui::GetCursorPosX();
  ImVec2 p = ImGui::GetCursorScreenPos();
  p.x = std::floor(p.x);
  p.y = std::floor(p.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int steps = 64;
  for (int i = 0; i < steps; ++i) {
    const float x0 = p.x + width * float(i) / steps, x1 = p.x + width * float(i + 1) / steps;
    dl->AddRectFilled(ImVec2(x0, p.y), ImVec2(x1 + 0.5f, p.y + h * 0.8f),
                      ImGui::ColorConvertFloat4ToU32(ws::viz::viridis((float(i) + 0.5f) / steps)));
  }
  // Ticks: the ends and the middle (integers: each integer when there are few).
  std::vector<float> ticks;
  if (log_scale) {
    // Powers of two above vmin, at most five of them, then the top.
    const float range = vmax - vmin;
    int step = 1;
    while (std::log2(1.0f + range) / float(step) > 5.0f) step *= 2;
    for (int k = 0; float((1u << k) - 1) < range * 0.85f && k < 31; k += step) ticks.push_back(vmin + float((1u << k) - 1));
    ticks.push_back(vmax);
  } else if (integers && vmax - vmin <= 8) {
    for (int v = int(std::ceil(vmin)); v <= int(vmax); ++v) ticks.push_back(float(v));
  } else {
    ticks = {vmin, (vmin + vmax) / 2, vmax};
  }
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  for (float v : ticks) {
    const float x = p.x + width * ws::viz::scale_position(v, vmin, vmax, log_scale);
    char buf[32];
    if (integers)
      std::snprintf(buf, sizeof buf, "%d", int(std::lround(v)));
    else
      std::snprintf(buf, sizeof buf, "%.3g", double(v));
    const float tw = ImGui::CalcTextSize(buf).x;
    dl->AddLine(ImVec2(x, p.y + h * 0.8f), ImVec2(x, p.y + h * 1.05f), text);
    dl->AddText(ImVec2(std::clamp(x - tw / 2, p.x, p.x + width - tw), p.y + h * 1.05f), text, buf);
  }
  ImGui::Dummy(ImVec2(width, h * 2.1f));
  if (caption && *caption) {
    // Beside the strip when there is room, else under it.
    if (room > width + ImGui::CalcTextSize(caption).x + em()) ImGui::SameLine(0, em() * 0.6f);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::PushTextWrapPos(start_x + room);
    ImGui::TextUnformatted(caption);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
}

}  // namespace ws::app
