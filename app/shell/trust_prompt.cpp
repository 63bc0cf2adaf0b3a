// The trust prompt: a lesson that names kernel files, opened from a folder the user has not
// trusted, shows which files it would build and run and the start of each, and builds them only
// when the user trusts the folder (once per folder: the settings keep it). Until then the lesson
// is open with those steps saying they are not trusted.
#include "shell/shell.h"

#include "ws/util/atomic_file.h"
#include "ws/viz/fonts.h"

#include <filesystem>

namespace ws::app {

namespace {

constexpr int kPreviewLines = 14;

// The first lines of `file`, read with a size cap (a FIFO or a huge file is not read).
std::string preview_of(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return "  (not a regular file: it cannot be a kernel file)\n";
  std::string text, err;
  if (!read_file(file, text, err, 64 << 10)) return "  (" + err + ")\n";
  std::string out;
  int lines = 0;
  for (size_t at = 0; at < text.size() && lines < kPreviewLines; ++lines) {
    const size_t end = std::min(text.find('\n', at), text.size());
    out += "  " + text.substr(at, std::min<size_t>(end - at, 110)) + "\n";
    at = end + 1;
  }
  return out;
}

}  // namespace

void draw_trust_prompt(ShellState& s) {
  ShellState::TrustPrompt& t = *s.trust_prompt;
  if (t.preview.empty())
    for (const auto& f : t.files) t.preview += f.string() + ":\n" + preview_of(f) + "\n";
  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(52 * em, io.DisplaySize.x * 0.95f), std::min(34 * em, io.DisplaySize.y * 0.9f)));
  ImGui::SetNextWindowFocus();
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("This lesson runs code", nullptr, flags)) {
    std::error_code ec;
    const std::string folder = std::filesystem::weakly_canonical(t.lesson, ec).parent_path().string();
    ImGui::TextWrapped("%s builds and runs %zu kernel file%s: C++ that runs with your rights when its steps are shown. "
                       "Its other steps are shown; these are off until you trust its folder.",
                       t.lesson.string().c_str(), t.files.size(), t.files.size() == 1 ? "" : "s");
    const float buttons = ImGui::GetFrameHeightWithSpacing() * 2;
    if (ImGui::BeginChild("##preview", ImVec2(0, -buttons), true, ImGuiWindowFlags_HorizontalScrollbar)) {
      ImGui::PushFont(ws::viz::mono_font());
      ImGui::TextUnformatted(t.preview.c_str());
      ImGui::PopFont();
    }
    ImGui::EndChild();
    if (ImGui::Button(("Trust " + folder + " and run them").c_str())) {
      s.settings.trusted_folders.insert(folder);
      s.settings_dirty = true;
      const std::filesystem::path lesson = t.lesson;
      s.trust_prompt.reset();
      if (std::string err = open_lesson(s, lesson, true); !err.empty()) notify(s, err, true);
    } else {
      ImGui::SameLine();
      if (ImGui::Button("Not now")) s.trust_prompt.reset();
    }
  }
  ImGui::End();
}

}  // namespace ws::app
