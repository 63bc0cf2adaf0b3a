// Kernel file panel: build status and compile errors of the open kernel file.
#include "views/kernel_file_view.h"
#include "views/view_common.h"

#include "model/kernel_file_watch.h"

#include "ws/viz/colormap.h"
#include "ws/viz/fonts.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace ws::app {

namespace fs = std::filesystem;
using kernel_file::BuildDiagnostic;

std::vector<std::string> example_kernel_files() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(WS_EXAMPLES_DIR, ec))
    if (e.path().extension() == ".cu") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

// Line `n` (1-based) of `text`, tabs as spaces.
std::string line_of(const std::string& text, uint32_t n) {
  std::istringstream in(text);
  std::string l;
  for (uint32_t k = 1; std::getline(in, l); ++k)
    if (k == n) {
      std::replace(l.begin(), l.end(), '\t', ' ');
      return l;
    }
  return {};
}

void open_field(KernelFileView& st, KernelFileWatch& w) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s", st.path_field.c_str());
  ImGui::SetNextItemWidth(std::max(8 * em(), ImGui::GetContentRegionAvail().x - 5 * em()));
  const bool enter = ImGui::InputTextWithHint("##kernel-path", "path/to/kernel.cu", buf, sizeof buf,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  st.path_field = buf;
  ImGui::SameLine();
  if ((ImGui::Button("Open") || enter) && !st.path_field.empty()) w.open(st.path_field);
}

}  // namespace

std::string KernelFileView::prepare_picture(Session& s) {
  KernelFileWatch& w = kernel_file_watch();
  if (w.is_open() && !w.wait(s)) return "the kernel file's build did not finish in time";
  return {};
}

void KernelFileView::draw(Session& s) {
  KernelFileWatch& w = kernel_file_watch();
  const ws::viz::ViewColors vc = ws::viz::view_colors();
  const float E = em();
  if (!w.is_open()) {
    ImGui::TextWrapped("Open a kernel file: a .cu with your kernel and a /* warpscope ... */ launch description "
                       "(docs/writing-kernels.md). It is compiled and run at once, and again each time you save it.");
    if (controls) open_field(*this, w);
    const auto examples = example_kernel_files();
    if (!examples.empty()) {
      ImGui::Spacing();
      ImGui::TextDisabled("Examples:");
      for (const std::string& f : examples)
        if (ImGui::Selectable(fs::path(f).filename().string().c_str())) w.open(f);
    }
    return;
  }
  // Status: the file, how the last build went.
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", w.path().c_str());
  ImGui::PopStyleColor();
  const ImVec4 color = w.building() ? vc.barrier : w.failed() ? vc.conflict : vc.ok;
  ImGui::TextColored(color, "%s", w.status().c_str());
  if (!w.kernel().empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("kernel '%s'", w.kernel().c_str());
  }
  if (controls) {
    if (ImGui::Button("Rebuild")) w.rebuild();
    ImGui::SameLine();
    if (!w.kernel().empty() && ImGui::Button("Run")) {
      RunRequest r = s.last_request();
      if (r.kernel != w.kernel()) {
        r = default_request();
        r.kernel = w.kernel();
        r.config.variant.clear();
        r.config.n = 0;
        r.config.block = {0, 1, 1};
        r.config.params.clear();
      }
      s.request(r);
    }
    if (!w.kernel().empty()) ImGui::SameLine();
    if (ImGui::Button("Close")) {
      w.close();
      return;
    }
  }
  // The errors (then warnings) of the last build: where, what, and the line with a caret.
  const kernel_file::Build& b = w.last();
  if (b.diagnostics.empty()) return;
  ImGui::Separator();
  const std::string text = b.text;
  ImGui::BeginChild("##diagnostics", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  int shown = 0;
  for (const BuildDiagnostic& d : b.diagnostics) {
    if (d.severity == BuildDiagnostic::Severity::Note) continue;
    if (++shown > 50) {
      ImGui::TextDisabled("(%zu more)", b.diagnostics.size() - 50);
      break;
    }
    ImGui::PushID(shown);
    const bool error = d.severity == BuildDiagnostic::Severity::Error;
    const bool here = d.file == b.path && d.line > 0;
    std::string where = here ? "line " + std::to_string(d.line) + (d.column ? ":" + std::to_string(d.column) : "")
                             : d.file.empty() ? std::string() : fs::path(d.file).filename().string() + ":" + std::to_string(d.line);
    ImGui::PushStyleColor(ImGuiCol_Text, error ? vc.conflict : vc.barrier);
    if (ImGui::Selectable((where + (where.empty() ? "" : "  ") + to_string(d.severity) + ":").c_str(), false) && here)
      w.focus_line(d.file, d.line);
    ImGui::PopStyleColor();
    if (here && ImGui::IsItemHovered()) wrapped_tooltip("click: show line %u in the source view", d.line);
    ImGui::Indent(E);
    ImGui::TextWrapped("%s", d.message.c_str());
    if (here) {
      const std::string code = line_of(text, d.line);
      if (!code.empty()) {
        ImGui::PushFont(ws::viz::mono_font());
        ImGui::TextUnformatted(code.c_str());
        if (d.column > 0 && d.column <= code.size() + 1) {
          const float x = ImGui::CalcTextSize(code.substr(0, d.column - 1).c_str()).x;
          ImGui::SetCursorPosX(ImGui::GetCursorPosX() + x);
          ImGui::TextColored(error ? vc.conflict : vc.barrier, "^");
        }
        ImGui::PopFont();
      }
    }
    ImGui::Unindent(E);
    ImGui::Spacing();
    ImGui::PopID();
  }
  ImGui::EndChild();
}

}  // namespace ws::app
