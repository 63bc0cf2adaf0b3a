// Source view: the kernel's source (embedded at build time, ws::source_text) with per-line numbers
// from the analysis in a gutter: warp instructions, bank conflicts, sectors per request, SIMD
// efficiency. Clicking a line selects its site in every view.
#include "views/source_view.h"
#include "views/view_common.h"

#include "model/kernel_file_watch.h"

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

namespace {

enum { kInstr, kConfl, kSect, kSimd, kRace, kColumns };
const char* const kHeads[kColumns] = {"instr", "confl", "sect", "simd", "race"};

}  // namespace

// Everything a line of the listing is drawn from: the file's lines, the gutter's numbers for
// each, which columns are shown and where, and the lines marked (selection, a racing pair, the
// kernel file's build notes, the line its panel picked).
struct SourceView::Listing {
  std::string file;
  std::vector<std::string> lines;
  std::vector<std::array<std::string, kColumns>> cells;
  std::vector<const analysis::LineMetrics*> metrics;
  bool shown[kColumns] = {};
  float col_x[kColumns + 1] = {};
  float ch = 0, gutter = 0, lh = 0;
  size_t line_digits = 4;
  uint32_t sel_line = 0, pair_first = 0, pair_second = 0;
  std::map<uint32_t, std::string> build_notes;
};

// The gutter's numbers for every line, then each column as wide as its widest value.
void SourceView::fill_gutter(const Trace& t, const analysis::Report* rep, Listing& L) {
  L.cells.assign(L.lines.size(), {});
  L.metrics.assign(L.lines.size(), nullptr);
  size_t width[kColumns];
  for (int c = 0; c < kColumns; ++c) width[c] = std::strlen(kHeads[c]);
  if (rep)
    for (const auto& m : rep->lines)
      if (m.file == L.file && m.line >= 1 && m.line <= L.lines.size()) L.metrics[m.line - 1] = &m;
  for (size_t i = 0; i < L.lines.size(); ++i) {
    const analysis::LineMetrics* lm = L.metrics[i];
    if (!lm) continue;
    std::array<std::string, kColumns>& c = L.cells[i];
    c[kInstr] = std::to_string(lm->instructions);
    c[kConfl] = std::to_string(lm->shared_conflicts);
    char b[32];
    if (lm->global_requests) std::snprintf(b, sizeof b, "%.1f", double(lm->global_sectors) / double(lm->global_requests));
    c[kSect] = lm->global_requests ? b : "-";
    double active = 0;
    uint64_t instr = 0;
    for (const auto& dv : rep->divergence)
      if (dv.site < t.sites.size() && t.sites[dv.site].line == i + 1 && t.sites[dv.site].file == L.file)
        active += double(dv.active_lanes), instr += dv.instructions;
    std::snprintf(b, sizeof b, "%.0f", instr ? 100 * active / (32.0 * double(instr)) : 0.0);
    c[kSimd] = instr ? b : "-";
    c[kRace] = lm->hazards ? std::to_string(lm->hazards) : lm->lockstep_hazards ? std::to_string(lm->lockstep_hazards) + "L" : "-";
    for (int k = 0; k < kColumns; ++k) width[k] = std::max(width[k], c[k].size());
  }
  // Without controls (a picture for the wall) a column that is empty for the whole file is left
  // out: no conflicts, no global loads, no races. The instruction count always stays.
  for (int c = 0; c < kColumns; ++c) {
    L.shown[c] = controls || c == kInstr;
    for (size_t i = 0; i < L.lines.size() && !L.shown[c]; ++i)
      L.shown[c] = L.metrics[i] && !L.cells[i][c].empty() && L.cells[i][c] != "-" && L.cells[i][c] != "0";
  }
  L.ch = ImGui::CalcTextSize("0").x;
  L.col_x[0] = 0;
  for (int c = 0; c < kColumns; ++c) L.col_x[c + 1] = L.col_x[c] + (L.shown[c] ? L.ch * float(width[c] + 1) : 0.0f);
  L.line_digits = std::max<size_t>(std::to_string(L.lines.size()).size(), 4);  // at least "line"
  L.gutter = L.col_x[kColumns] + L.ch * float(L.line_digits + 2);
  L.lh = ImGui::GetTextLineHeightWithSpacing();
}

// The marks: the selected line, the racing pair the lab showed, a kernel file's build notes and
// the line its panel picked (scrolled to once). Returns whether to scroll to the picked line.
bool SourceView::mark_lines(Session& s, const Trace& t, Listing& L) {
  L.sel_line = s.sel.site < t.sites.size() ? t.sites[s.sel.site].line : 0;
  const Session::HazardPair& hp = s.hazard_pair;
  auto pair_line = [&](uint32_t site) {
    return hp.valid() && hp.launch == s.sel.launch && site < t.sites.size() && t.sites[site].file == L.file
               ? t.sites[site].line
               : 0u;
  };
  L.pair_first = pair_line(hp.first_site);
  L.pair_second = pair_line(hp.second_site);
  const KernelFileWatch& kf = kernel_file_watch();
  bool scroll_to_focus = false;
  if (kf.focus.serial != focus_seen && kernel_relative_path(kf.focus.file) == L.file) {
    focus_seen = kf.focus.serial;
    focus_line = kf.focus.line;
    focus_version = s.sel_version;
    scroll_to_focus = true;
  }
  if (focus_version != s.sel_version) focus_line = 0;  // a new selection ends the outline
  if (kernel_relative_path(kf.last().path) == L.file)
    for (const auto& d : kf.last().diagnostics)
      if (d.file == kf.last().path && d.line > 0 && d.severity != kernel_file::BuildDiagnostic::Severity::Note) {
        std::string& n = L.build_notes[d.line];
        n += (n.empty() ? "" : "\n") + std::string(to_string(d.severity)) + ": " + d.message;
      }
  return scroll_to_focus;
}

// A line too long for the box on a wall is wrapped, its rest on rows of its own under the code
// (indented past the line's own indentation): what a step is about is never cut off.
std::vector<std::string> SourceView::wrapped(const Listing& L, int i, float row_w) const {
  const std::string& code = L.lines[size_t(i)];
  const size_t per_row = row_w > L.gutter + 8 * L.ch ? size_t((row_w - L.gutter) / L.ch) : 0;
  if (controls || per_row == 0 || code.size() <= per_row) return {code};
  const size_t own = code.find_first_not_of(' ') == std::string::npos ? 0 : code.find_first_not_of(' ');
  const size_t indent = std::min(std::min(own, per_row / 2) + 4, per_row - 4);
  std::vector<std::string> out;
  for (size_t at = 0; at < code.size();) {
    const size_t room = out.empty() ? per_row : per_row - indent;
    size_t take = std::min(room, code.size() - at);
    // at a space where there is one in the last third of the row
    if (at + take < code.size())
      if (const size_t sp = code.rfind(' ', at + take); sp != std::string::npos && sp > at + take * 2 / 3) take = sp + 1 - at;
    out.push_back((out.empty() ? "" : std::string(indent, ' ')) + code.substr(at, take));
    at += take;
  }
  return out;
}

// Clicking a line: an instruction of it, the selected warp's where it ran (Session::select_line).
void SourceView::select_line(Session& s, const Listing& L, uint32_t ln) { s.select_line(L.file, ln); }

void SourceView::line_tooltip(Session& s, const Trace& t, const Listing& L, const analysis::LineMetrics& lm, uint32_t ln) {
  const analysis::Report* rep = s.report();
  ImGui::BeginTooltip();
  ImGui::Text("line %u: %llu warp instructions, %llu shared wavefronts (%llu bank conflicts)\n"
              "global: %llu requests, %llu sectors, %llu of %llu bytes used\n"
              "warps split here %llu times, reconverged %llu times",
              ln, static_cast<unsigned long long>(lm.instructions), static_cast<unsigned long long>(lm.shared_wavefronts),
              static_cast<unsigned long long>(lm.shared_conflicts), static_cast<unsigned long long>(lm.global_requests),
              static_cast<unsigned long long>(lm.global_sectors), static_cast<unsigned long long>(lm.global_bytes_requested),
              static_cast<unsigned long long>(lm.global_bytes_moved), static_cast<unsigned long long>(lm.splits),
              static_cast<unsigned long long>(lm.reconverges));
  // The same line over every block of the launch, from the per-site counters (the gutter shows
  // the recorded blocks).
  if (rep && rep->grid.present) {
    uint64_t instr = 0, wavefronts = 0, conflicts = 0, requests = 0, sectors = 0;
    for (const analysis::SiteMetrics& g : rep->grid.sites)
      if (g.site < t.sites.size() && t.sites[g.site].line == ln && t.sites[g.site].file == L.file) {
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

// The marks of line `ln` at `p`: its gutter numbers (conflicts and races shaded), a racing pair's
// outline, a build note's flag, the picked line's outline.
void SourceView::paint_marks(const Listing& L, int i, ImVec2 p, float row_w) {
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const uint32_t ln = uint32_t(i + 1);
  const float row_h = ImGui::GetTextLineHeight();
  const std::string& code = L.lines[size_t(i)];
  if (const analysis::LineMetrics* lm = L.metrics[size_t(i)]) {
    const std::array<std::string, kColumns>& c = L.cells[size_t(i)];
    if (lm->shared_conflicts)
      dl->AddRectFilled(ImVec2(p.x + L.col_x[kConfl], p.y), ImVec2(p.x + L.col_x[kConfl + 1] - L.ch * 0.5f, p.y + row_h),
                        ImGui::ColorConvertFloat4ToU32(ImVec4(vc.conflict.x, vc.conflict.y, vc.conflict.z, 0.35f)));
    if (lm->hazards || lm->lockstep_hazards) {
      const ImVec4 rc = lm->hazards ? vc.conflict : vc.barrier;
      dl->AddRectFilled(ImVec2(p.x + L.col_x[kRace], p.y), ImVec2(p.x + L.col_x[kRace + 1] - L.ch * 0.5f, p.y + row_h),
                        ImGui::ColorConvertFloat4ToU32(ImVec4(rc.x, rc.y, rc.z, 0.45f)));
    }
    for (int k = 0; k < kColumns; ++k)
      if (L.shown[k])
        dl->AddText(ImVec2(p.x + L.col_x[k + 1] - L.ch * float(c[k].size() + 1), p.y), ImGui::GetColorU32(ImGuiCol_Text), c[k].c_str());
  }
  // The two lines of the hazard pair the lab showed: outlined, the earlier access first.
  if (ln == L.pair_first || ln == L.pair_second) {
    const ImU32 mark = ImGui::ColorConvertFloat4ToU32(vc.conflict);
    const float code_w = ImGui::CalcTextSize(code.c_str()).x;
    dl->AddRect(ImVec2(p.x + L.gutter - L.ch * 0.5f, p.y - 1), ImVec2(p.x + L.gutter + code_w + L.ch * 5, p.y + row_h + 1), mark,
                2.0f, 0, 2.0f);
    const char* tag = ln == L.pair_first && ln == L.pair_second ? "<- 1, 2" : ln == L.pair_first ? "<- 1" : "<- 2";
    dl->AddText(ImVec2(p.x + L.gutter + code_w + L.ch, p.y), mark, tag);
  }
  // A build error or warning on this line (the file changed since this run was built: the
  // panel's line numbers are the file's as saved).
  if (auto note = L.build_notes.find(ln); note != L.build_notes.end()) {
    const bool err = note->second.rfind("error", 0) == 0;
    dl->AddRectFilled(ImVec2(p.x + L.gutter - L.ch * float(L.line_digits + 1.5), p.y), ImVec2(p.x + L.gutter - L.ch * 0.5f, p.y + row_h),
                      ImGui::ColorConvertFloat4ToU32(err ? vc.conflict : vc.barrier));
    if (ImGui::IsItemHovered()) wrapped_tooltip("%s", note->second.c_str());
  }
  if (ln == focus_line)
    dl->AddRect(ImVec2(p.x + L.gutter - L.ch * 0.5f, p.y - 1),
                ImVec2(p.x + std::max(row_w, L.gutter + ImGui::CalcTextSize(code.c_str()).x + L.ch), p.y + row_h + 1),
                ImGui::ColorConvertFloat4ToU32(vc.selection), 2.0f, 0, 2.0f);
}

// One line of the file: gutter numbers, line number, code (wrapped on a wall); hover and click.
void SourceView::draw_line(Session& s, const Trace& t, const Listing& L, int i, float row_w) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const uint32_t ln = uint32_t(i + 1);
  const analysis::LineMetrics* lm = L.metrics[size_t(i)];
  ImGui::PushID(i);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const std::vector<std::string> rows = wrapped(L, i, row_w);
  const float text_h = ImGui::GetTextLineHeight() + float(rows.size() - 1) * L.lh;
  if (ImGui::Selectable("##line", ln == L.sel_line, ImGuiSelectableFlags_SpanAllColumns, ImVec2(row_w, text_h)) && lm)
    select_line(s, L, ln);
  paint_marks(L, i, p, row_w);
  char num[16];
  std::snprintf(num, sizeof num, "%*u", int(L.line_digits), ln);
  dl->AddText(ImVec2(p.x + L.gutter - L.ch * float(L.line_digits + 1), p.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), num);
  for (size_t r = 0; r < rows.size(); ++r)
    dl->AddText(ImVec2(p.x + L.gutter, p.y + float(r) * L.lh), ImGui::GetColorU32(ImGuiCol_Text), rows[r].c_str());
  if (lm && ImGui::IsItemHovered()) line_tooltip(s, t, L, *lm, ln);
  // Keep the horizontal extent for the scrollbar (a picture wraps long lines instead).
  if (row_w == 0) {
    ImGui::SameLine(L.gutter + ImGui::CalcTextSize(L.lines[size_t(i)].c_str()).x);
    ImGui::Dummy(ImVec2(1, ImGui::GetTextLineHeight()));
  }
  ImGui::PopID();
}

// The column heads over the gutter, right-aligned like the numbers.
void SourceView::draw_heads(const Listing& L) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int c = 0; c < kColumns; ++c)
    if (L.shown[c])
      dl->AddText(ImVec2(p.x + L.col_x[c + 1] - L.ch * float(std::strlen(kHeads[c]) + 1), p.y),
                  ImGui::GetColorU32(ImGuiCol_TextDisabled), kHeads[c]);
  dl->AddText(ImVec2(p.x + L.gutter - L.ch * 5, p.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), "line");
  ImGui::Dummy(ImVec2(L.gutter, ImGui::GetTextLineHeight()));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("instr: warp instructions on the line\nconfl: shared-memory bank conflicts\n"
                      "sect: global 32-byte sectors per request (4 = coalesced 4-byte loads)\n"
                      "simd: active lanes / 32, in percent\n"
                      "race: shared-memory access pairs with an access on this line (L: only inside a warp, right in\n"
                      "lockstep); a pair of two lines counts on both, so the lines add up to more than the run's pairs");
}

// A picture: as many lines as fit (a wrapped line takes more than one row), the focus 40% down,
// nothing to scroll. Without a selection, from the first line that ran.
void SourceView::draw_picture(Session& s, const Trace& t, const Listing& L) {
  const int rows = std::max(1, int((ImGui::GetContentRegionAvail().y + ImGui::GetStyle().ItemSpacing.y) / L.lh));
  int focus = focus_line > 0 ? int(focus_line) - 1 : L.sel_line > 0 ? int(L.sel_line) - 1 : 0;
  if (L.sel_line == 0)
    for (size_t i = 0; i < L.lines.size(); ++i)
      if (L.metrics[i]) {
        focus = int(i);
        break;
      }
  focus = std::clamp(focus, 0, std::max(0, int(L.lines.size()) - 1));
  const float row_w = ImGui::GetContentRegionAvail().x;
  auto height = [&](int i) { return int(wrapped(L, i, row_w).size()); };
  int first = focus, used = height(focus);
  while (first > 0 && used + height(first - 1) <= int(float(rows) * 0.4f)) used += height(--first);
  int last = focus + 1;
  while (last < int(L.lines.size()) && used + height(last) <= rows) used += height(last++);
  while (first > 0 && used + height(first - 1) <= rows) used += height(--first);
  for (int i = first; i < last; ++i) draw_line(s, t, L, i, row_w);
}

void SourceView::draw_scrolling(Session& s, const Trace& t, const Listing& L, bool scroll_to_focus) {
  if (!ImGui::BeginChild("##source", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar)) {
    ImGui::EndChild();
    return;
  }
  const uint64_t want = ws::viz::hash_mix(s.sel_version, s.sel.site);
  if (scroll_to_focus) {
    ImGui::SetScrollY(std::max(0.0f, (float(focus_line) - 1) * L.lh - ImGui::GetWindowHeight() * 0.4f));
  } else if (scrolled_for != want && L.sel_line > 0) {
    scrolled_for = want;
    ImGui::SetScrollY(std::max(0.0f, (float(L.sel_line) - 1) * L.lh - ImGui::GetWindowHeight() * 0.4f));
  }
  ImGuiListClipper clip;
  clip.Begin(int(L.lines.size()), L.lh);
  while (clip.Step())
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) draw_line(s, t, L, i, 0.0f);
  ImGui::EndChild();
}

void SourceView::draw(Session& s) {
  if (!view_ready(s, "the source view shows the kernel with per-line numbers.", !controls)) return;
  const Trace& t = *s.trace();
  // The file: the selected site's, else the first site's.
  Listing L;
  if (s.sel.site < t.sites.size()) L.file = t.sites[s.sel.site].file;
  else if (!t.sites.empty()) L.file = t.sites.front().file;
  if (L.file.empty()) {
    ImGui::TextDisabled("The trace names no source file (no site was recorded).");
    return;
  }
  const std::string text = ws::source_text(L.file);
  if (text.empty()) {
    ImGui::TextWrapped("The source of %s is not embedded in this build and not readable from disk.", L.file.c_str());
    return;
  }
  std::stringstream in(text);
  for (std::string l; std::getline(in, l);) L.lines.push_back(l);
  const bool scroll_to_focus = mark_lines(s, t, L);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  // A catalog kernel by its place in kernels/, a kernel file by its name (the path on hover).
  const bool absolute = L.file.rfind('/', 0) == 0;
  const std::string label = absolute ? L.file.substr(L.file.rfind('/') + 1) : "kernels/" + L.file;
  ImGui::TextWrapped("%s (recorded blocks of launch %u)", label.c_str(), s.sel.launch);
  ImGui::PopStyleColor();
  if (absolute && ImGui::IsItemHovered()) wrapped_tooltip("%s", L.file.c_str());
  ImGui::PushFont(ws::viz::mono_font());
  fill_gutter(t, s.report(), L);
  draw_heads(L);
  if (controls) draw_scrolling(s, t, L, scroll_to_focus);
  else draw_picture(s, t, L);
  ImGui::PopFont();
}

}  // namespace ws::app
