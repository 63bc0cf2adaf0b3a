// Source view: the kernel's source (embedded at build time, ws::source_text) with per-line numbers
// from the analysis in a gutter: warp instructions, bank conflicts, sectors per request, SIMD
// efficiency. Clicking a line selects its site in every view.
#include "views/source_view.h"
#include "views/view_common.h"

#include "kernel_file_watch.h"

#include "ws/analysis/views.h"

#include "ws/trace/sources.h"
#include "ws/viz/canvas.h"
#include "ws/viz/colormap.h"
#include "ws/viz/fonts.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>

namespace ws::app {

void SourceView::draw(Session& s) {
  SourceView& st = *this;
  if (!view_ready(s, "the source view shows the kernel with per-line numbers.", !controls)) return;
  const Trace& t = *s.trace();
  const analysis::Report* rep = s.report();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  // The file: the selected site's, else the first site's.
  std::string file;
  if (s.sel.site < t.sites.size()) file = t.sites[s.sel.site].file;
  else if (!t.sites.empty()) file = t.sites.front().file;
  if (file.empty()) {
    ImGui::TextDisabled("The trace names no source file (no site was recorded).");
    return;
  }
  const std::string text = ws::source_text(file);
  if (text.empty()) {
    ImGui::TextWrapped("The source of %s is not embedded in this build and not readable from disk.", file.c_str());
    return;
  }
  std::vector<std::string> lines;
  {
    std::stringstream in(text);
    std::string l;
    while (std::getline(in, l)) lines.push_back(l);
  }
  const uint32_t sel_line = s.sel.site < t.sites.size() ? t.sites[s.sel.site].line : 0;
  // The hazard pair the lab showed: both of its lines are marked.
  const Session::HazardPair& hp = s.hazard_pair;
  auto pair_line = [&](uint32_t site) {
    return hp.valid() && hp.launch == s.sel.launch && site < t.sites.size() && t.sites[site].file == file
               ? t.sites[site].line
               : 0u;
  };
  const uint32_t pair_first = pair_line(hp.first_site), pair_second = pair_line(hp.second_site);
  // A kernel file's build: the line its panel picked (scrolled to once), its errors and warnings.
  const KernelFileWatch& kf = kernel_file_watch();
  bool scroll_to_focus = false;
  if (kf.focus.serial != st.focus_seen && kernel_relative_path(kf.focus.file) == file) {
    st.focus_seen = kf.focus.serial;
    st.focus_line = kf.focus.line;
    st.focus_version = s.sel_version;
    scroll_to_focus = true;
  }
  if (st.focus_version != s.sel_version) st.focus_line = 0;  // a new selection ends the outline
  std::map<uint32_t, std::string> build_notes;
  if (kernel_relative_path(kf.last().path) == file)
    for (const auto& d : kf.last().diagnostics)
      if (d.file == kf.last().path && d.line > 0 && d.severity != kernel_file::BuildDiagnostic::Severity::Note) {
        std::string& n = build_notes[d.line];
        n += (n.empty() ? "" : "\n") + std::string(to_string(d.severity)) + ": " + d.message;
      }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  // A catalog kernel by its place in kernels/, a kernel file by its name (the path on hover).
  const bool absolute = file.rfind('/', 0) == 0;
  const std::string label = absolute ? file.substr(file.rfind('/') + 1) : "kernels/" + file;
  ImGui::TextWrapped("%s (recorded blocks of launch %u)", label.c_str(), s.sel.launch);
  ImGui::PopStyleColor();
  if (absolute && ImGui::IsItemHovered()) wrapped_tooltip("%s", file.c_str());

  // The gutter's numbers for every line, then each column as wide as its widest value.
  enum { kInstr, kConfl, kSect, kSimd, kRace, kColumns };
  static const char* const kHeads[kColumns] = {"instr", "confl", "sect", "simd", "race"};
  std::vector<std::array<std::string, kColumns>> cells(lines.size());
  std::vector<const analysis::LineMetrics*> metrics(lines.size(), nullptr);
  size_t width[kColumns];
  for (int c = 0; c < kColumns; ++c) width[c] = std::strlen(kHeads[c]);
  if (rep)
    for (const auto& m : rep->lines)
      if (m.file == file && m.line >= 1 && m.line <= lines.size()) metrics[m.line - 1] = &m;
  for (size_t i = 0; i < lines.size(); ++i) {
    const analysis::LineMetrics* lm = metrics[i];
    if (!lm) continue;
    std::array<std::string, kColumns>& c = cells[i];
    c[kInstr] = std::to_string(lm->instructions);
    c[kConfl] = std::to_string(lm->shared_conflicts);
    char b[32];
    if (lm->global_requests) std::snprintf(b, sizeof b, "%.1f", double(lm->global_sectors) / double(lm->global_requests));
    c[kSect] = lm->global_requests ? b : "-";
    double active = 0;
    uint64_t instr = 0;
    for (const auto& dv : rep->divergence)
      if (dv.site < t.sites.size() && t.sites[dv.site].line == i + 1 && t.sites[dv.site].file == file)
        active += double(dv.active_lanes), instr += dv.instructions;
    std::snprintf(b, sizeof b, "%.0f", instr ? 100 * active / (32.0 * double(instr)) : 0.0);
    c[kSimd] = instr ? b : "-";
    c[kRace] = lm->hazards ? std::to_string(lm->hazards) : lm->lockstep_hazards ? std::to_string(lm->lockstep_hazards) + "L" : "-";
    for (int k = 0; k < kColumns; ++k) width[k] = std::max(width[k], c[k].size());
  }
  // Without controls (a picture for the wall) a column that is empty for the whole file is left
  // out: no conflicts, no global loads, no races. The instruction count always stays.
  bool shown[kColumns];
  for (int c = 0; c < kColumns; ++c) {
    shown[c] = st.controls || c == kInstr;
    for (size_t i = 0; i < lines.size() && !shown[c]; ++i)
      shown[c] = metrics[i] && !cells[i][c].empty() && cells[i][c] != "-" && cells[i][c] != "0";
  }
  ImGui::PushFont(ws::viz::mono_font());
  const float ch = ImGui::CalcTextSize("0").x;
  float col_x[kColumns + 1];
  col_x[0] = 0;
  for (int c = 0; c < kColumns; ++c) col_x[c + 1] = col_x[c] + (shown[c] ? ch * float(width[c] + 1) : 0.0f);
  const size_t line_digits = std::max<size_t>(std::to_string(lines.size()).size(), 4);  // at least "line"
  const float gutter = col_x[kColumns] + ch * float(line_digits + 2);
  // Column heads over the gutter, right-aligned like the numbers.
  {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int c = 0; c < kColumns; ++c)
      if (shown[c])
        dl->AddText(ImVec2(p.x + col_x[c + 1] - ch * float(std::strlen(kHeads[c]) + 1), p.y),
                    ImGui::GetColorU32(ImGuiCol_TextDisabled), kHeads[c]);
    dl->AddText(ImVec2(p.x + gutter - ch * 5, p.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), "line");
    ImGui::Dummy(ImVec2(gutter, ImGui::GetTextLineHeight()));
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("instr: warp instructions on the line\nconfl: shared-memory bank conflicts\n"
                      "sect: global 32-byte sectors per request (4 = coalesced 4-byte loads)\n"
                      "simd: active lanes / 32, in percent\n"
                      "race: shared-memory access pairs with an access on this line (L: only inside a warp, right in\n"
                      "lockstep); a pair of two lines counts on both, so the lines add up to more than the run's pairs");
  const float lh = ImGui::GetTextLineHeightWithSpacing();
  // One line of the file: gutter numbers, line number, code; hover and click.
  // A line too long for the box on a wall is wrapped, its rest on rows of its own under the code
  // (indented past the line's own indentation): what a step is about is never cut off.
  auto wrapped = [&](int i, float row_w) {
    std::vector<std::string> out;
    const std::string& code = lines[size_t(i)];
    const size_t per_row = row_w > gutter + 8 * ch ? size_t((row_w - gutter) / ch) : 0;
    if (st.controls || per_row == 0 || code.size() <= per_row) return std::vector<std::string>{code};
    const size_t indent = std::min(code.find_first_not_of(' ') == std::string::npos ? 0 : code.find_first_not_of(' '), per_row / 2) + 4;
    size_t at = 0;
    while (at < code.size()) {
      const size_t room = out.empty() ? per_row : per_row - std::min(indent, per_row - 4);
      size_t take = std::min(room, code.size() - at);
      // at a space where there is one in the last third of the row
      if (at + take < code.size())
        if (const size_t sp = code.rfind(' ', at + take); sp != std::string::npos && sp > at + take * 2 / 3) take = sp + 1 - at;
      out.push_back((out.empty() ? "" : std::string(std::min(indent, per_row - 4), ' ')) + code.substr(at, take));
      at += take;
    }
    return out;
  };
  auto draw_line = [&](int i, float row_w) {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const uint32_t ln = uint32_t(i + 1);
        const analysis::LineMetrics* lm = metrics[size_t(i)];
        ImGui::PushID(i);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const bool selected = ln == sel_line;
        const std::vector<std::string> rows_of = wrapped(i, row_w);
        const float text_h = ImGui::GetTextLineHeight() + float(rows_of.size() - 1) * lh;
        if (ImGui::Selectable("##line", selected, ImGuiSelectableFlags_SpanAllColumns, ImVec2(row_w, text_h)) && lm) {
          // The line's first site with a recorded instruction; the selected warp's instance of it.
          for (uint32_t k = 0; k < t.sites.size(); ++k)
            if (t.sites[k].file == file && t.sites[k].line == ln) {
              auto [first, last] = analysis::block_events(t, s.sel.block);
              int64_t pick = -1, any = -1;
              for (size_t e = first; e < last; ++e)
                if (t.events[e].site == k) {
                  if (any < 0) any = int64_t(e);
                  if (t.events[e].warp == s.sel.warp && pick < 0) pick = int64_t(e);
                }
              if (pick < 0) pick = any;
              if (pick < 0) continue;
              s.select_event(pick);
              break;
            }
        }
        const float row_h = ImGui::GetTextLineHeight();
        if (lm) {
          const std::array<std::string, kColumns>& c = cells[size_t(i)];
          if (lm->shared_conflicts)
            dl->AddRectFilled(ImVec2(p.x + col_x[kConfl], p.y), ImVec2(p.x + col_x[kConfl + 1] - ch * 0.5f, p.y + row_h),
                              ImGui::ColorConvertFloat4ToU32(ImVec4(vc.conflict.x, vc.conflict.y, vc.conflict.z, 0.35f)));
          if (lm->hazards || lm->lockstep_hazards) {
            const ImVec4 rc = lm->hazards ? vc.conflict : vc.barrier;
            dl->AddRectFilled(ImVec2(p.x + col_x[kRace], p.y), ImVec2(p.x + col_x[kRace + 1] - ch * 0.5f, p.y + row_h),
                              ImGui::ColorConvertFloat4ToU32(ImVec4(rc.x, rc.y, rc.z, 0.45f)));
          }
          for (int k = 0; k < kColumns; ++k)
            if (shown[k])
              dl->AddText(ImVec2(p.x + col_x[k + 1] - ch * float(c[k].size() + 1), p.y), ImGui::GetColorU32(ImGuiCol_Text),
                        c[k].c_str());
        }
        // The two lines of the hazard pair the lab showed: outlined, the earlier access first.
        if (ln == pair_first || ln == pair_second) {
          const ImU32 mark = ImGui::ColorConvertFloat4ToU32(vc.conflict);
          dl->AddRect(ImVec2(p.x + gutter - ch * 0.5f, p.y - 1),
                      ImVec2(p.x + gutter + ImGui::CalcTextSize(lines[size_t(i)].c_str()).x + ch * 5, p.y + row_h + 1), mark,
                      2.0f, 0, 2.0f);
          const char* tag = ln == pair_first && ln == pair_second ? "<- 1, 2" : ln == pair_first ? "<- 1" : "<- 2";
          dl->AddText(ImVec2(p.x + gutter + ImGui::CalcTextSize(lines[size_t(i)].c_str()).x + ch, p.y), mark, tag);
        }
        // A build error or warning on this line (the file changed since this run was built:
        // the panel's line numbers are the file's as saved).
        if (auto note = build_notes.find(ln); note != build_notes.end()) {
          const bool err = note->second.rfind("error", 0) == 0;
          dl->AddRectFilled(ImVec2(p.x + gutter - ch * float(line_digits + 1.5), p.y), ImVec2(p.x + gutter - ch * 0.5f, p.y + row_h),
                            ImGui::ColorConvertFloat4ToU32(err ? vc.conflict : vc.barrier));
          if (ImGui::IsItemHovered()) wrapped_tooltip("%s", note->second.c_str());
        }
        if (ln == st.focus_line)
          dl->AddRect(ImVec2(p.x + gutter - ch * 0.5f, p.y - 1), ImVec2(p.x + std::max(row_w, gutter + ImGui::CalcTextSize(lines[size_t(i)].c_str()).x + ch), p.y + row_h + 1),
                      ImGui::ColorConvertFloat4ToU32(vc.selection), 2.0f, 0, 2.0f);
        char num[16];
        std::snprintf(num, sizeof num, "%*u", int(line_digits), ln);
        dl->AddText(ImVec2(p.x + gutter - ch * float(line_digits + 1), p.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), num);
        for (size_t r = 0; r < rows_of.size(); ++r)
          dl->AddText(ImVec2(p.x + gutter, p.y + float(r) * lh), ImGui::GetColorU32(ImGuiCol_Text), rows_of[r].c_str());
        if (lm && ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          ImGui::Text("line %u: %llu warp instructions, %llu shared wavefronts (%llu bank conflicts)\n"
                      "global: %llu requests, %llu sectors, %llu of %llu bytes used\n"
                      "warps split here %llu times, reconverged %llu times",
                      ln, static_cast<unsigned long long>(lm->instructions), static_cast<unsigned long long>(lm->shared_wavefronts),
                      static_cast<unsigned long long>(lm->shared_conflicts), static_cast<unsigned long long>(lm->global_requests),
                      static_cast<unsigned long long>(lm->global_sectors), static_cast<unsigned long long>(lm->global_bytes_requested),
                      static_cast<unsigned long long>(lm->global_bytes_moved), static_cast<unsigned long long>(lm->splits),
                      static_cast<unsigned long long>(lm->reconverges));
          // The same line over every block of the launch, from the per-site counters (the gutter
          // shows the recorded blocks).
          if (rep->grid.present) {
            uint64_t instr = 0, wavefronts = 0, conflicts = 0, requests = 0, sectors = 0;
            for (const analysis::SiteMetrics& g : rep->grid.sites)
              if (g.site < t.sites.size() && t.sites[g.site].line == ln && t.sites[g.site].file == file) {
                instr += g.instructions, wavefronts += g.wavefronts, conflicts += g.conflicts;
                if (g.space == MemSpace::Global) requests += g.instructions, sectors += g.sectors;
              }
            ImGui::Text("whole grid (%s blocks): %s memory instructions, %s shared wavefronts (%s bank conflicts),\n"
                        "%s global requests, %s sectors",
                        grouped(rep->grid.blocks).c_str(), grouped(instr).c_str(), grouped(wavefronts).c_str(),
                        grouped(conflicts).c_str(), grouped(requests).c_str(), grouped(sectors).c_str());
          }
          ImGui::TextDisabled("click: select this line's site everywhere");
          ImGui::EndTooltip();
        }
        // Keep the horizontal extent for the scrollbar (a picture clips long lines instead).
        if (row_w == 0) {
          ImGui::SameLine(gutter + ImGui::CalcTextSize(lines[size_t(i)].c_str()).x);
          ImGui::Dummy(ImVec2(1, ImGui::GetTextLineHeight()));
        }
        ImGui::PopID();
  };
  if (!st.controls) {
    // A picture: as many lines as fit, the selected one 40% down, nothing to scroll. Without a
    // selection, from the first line that ran.
    const int rows = std::max(1, int((ImGui::GetContentRegionAvail().y + ImGui::GetStyle().ItemSpacing.y) / lh));
    int focus = st.focus_line > 0 ? int(st.focus_line) - 1 : sel_line > 0 ? int(sel_line) - 1 : 0;
    if (sel_line == 0)
      for (size_t i = 0; i < lines.size(); ++i)
        if (metrics[i]) {
          focus = int(i);
          break;
        }
    const float row_w = ImGui::GetContentRegionAvail().x;
    // From 40% of the rows above the focus (wrapped lines take more than one), as many lines as fit.
    int first = focus, used = int(wrapped(focus, row_w).size());
    while (first > 0 && used + int(wrapped(first - 1, row_w).size()) <= int(float(rows) * 0.4f))
      used += int(wrapped(--first, row_w).size());
    int last = focus + 1;
    while (last < int(lines.size()) && used + int(wrapped(last, row_w).size()) <= rows) used += int(wrapped(last++, row_w).size());
    while (first > 0 && used + int(wrapped(first - 1, row_w).size()) <= rows) used += int(wrapped(--first, row_w).size());
    for (int i = first; i < last; ++i) draw_line(i, row_w);
  } else if (ImGui::BeginChild("##source", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar)) {
    const uint64_t want = ws::viz::hash_mix(s.sel_version, s.sel.site);
    if (scroll_to_focus) {
      ImGui::SetScrollY(std::max(0.0f, (float(st.focus_line) - 1) * lh - ImGui::GetWindowHeight() * 0.4f));
    } else if (st.scrolled_for != want && sel_line > 0) {
      st.scrolled_for = want;
      ImGui::SetScrollY(std::max(0.0f, (float(sel_line) - 1) * lh - ImGui::GetWindowHeight() * 0.4f));
    }
    ImGuiListClipper clip;
    clip.Begin(int(lines.size()), lh);
    while (clip.Step())
      for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) draw_line(i, 0.0f);
  }
  if (st.controls) ImGui::EndChild();
  ImGui::PopFont();
}

}  // namespace ws::app
