// What the viewer remembers between runs (window path only; headless runs never read or write
// it, so screenshots are reproducible): UI scale, presentation mode, which panels are open,
// whether the user rearranged the windows. Window positions themselves live in imgui.ini next to it.
//
// Location: $XDG_CONFIG_HOME/warpscope/, else ~/.config/warpscope/.
#pragma once

#include <filesystem>
#include <set>
#include <string>

namespace ws::app {

inline constexpr float kMinUserScale = 0.5f;
inline constexpr float kMaxUserScale = 4.0f;

struct Settings {
  float user_scale = 1.0f;
  // Presentation mode now (F11, --presentation and --lesson change it for this run only), and
  // whether a run starts in it (the View menu's choice: the only one the file keeps).
  bool presentation = false;
  bool start_in_presentation = false;
  bool user_arranged = false;        // windows moved by hand: keep them, don't re-tile
  std::set<std::string> hidden;      // ids of closed panels
  // Folders whose lessons may build and run their kernel files (asked once per folder).
  std::set<std::string> trusted_folders;
};

std::filesystem::path config_dir();
std::filesystem::path settings_path();  // config_dir()/settings.ini
std::filesystem::path imgui_ini_path(); // config_dir()/imgui.ini

// Parses "key = value" lines; unknown keys and bad values are ignored (a newer or hand-edited
// file must never stop the viewer from starting).
Settings parse_settings(const std::string& text);
std::string format_settings(const Settings& s);

// Load: a missing file gives defaults. Save: creates the folder, writes atomically; returns "" or
// an error message.
Settings load_settings(const std::filesystem::path& path);
std::string save_text(const std::filesystem::path& path, const std::string& text);

}  // namespace ws::app
