#include "shell/settings.h"

#include "ws/util/atomic_file.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace ws::app {

namespace {
std::string trim(std::string s) {
  const char* ws = " \t\r\n";
  s.erase(0, s.find_first_not_of(ws));
  s.erase(s.find_last_not_of(ws) + 1);
  return s;
}
}  // namespace

std::filesystem::path config_dir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "warpscope";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".config" / "warpscope";
  return std::filesystem::path(".warpscope");
}

std::filesystem::path settings_path() { return config_dir() / "settings.ini"; }
std::filesystem::path imgui_ini_path() { return config_dir() / "imgui.ini"; }

Settings parse_settings(const std::string& text) {
  Settings s;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (key == "scale") {
      char* end = nullptr;
      float v = std::strtof(value.c_str(), &end);
      if (end && *end == '\0' && v >= kMinUserScale && v <= kMaxUserScale) s.user_scale = v;
    } else if (key == "presentation") {
      s.presentation = s.start_in_presentation = value == "1" || value == "true";
    } else if (key == "user_arranged") {
      s.user_arranged = value == "1" || value == "true";
    } else if (key == "trusted") {
      // Folders, separated by '|' (a path may hold commas); only absolute ones are taken.
      std::istringstream dirs(value);
      std::string dir;
      while (std::getline(dirs, dir, '|')) {
        dir = trim(dir);
        if (!dir.empty() && dir[0] == '/') s.trusted_folders.insert(dir);
      }
    } else if (key == "hidden") {
      std::istringstream ids(value);
      std::string id;
      while (std::getline(ids, id, ',')) {
        id = trim(id);
        if (!id.empty()) s.hidden.insert(id);
      }
    }
  }
  return s;
}

std::string format_settings(const Settings& s) {
  std::ostringstream out;
  out << "# warpscope settings (window positions are in imgui.ini)\n";
  out << "scale = " << s.user_scale << "\n";
  out << "# presentation: start in presentation mode (F11 turns it on and off for one run)\n";
  out << "presentation = " << (s.start_in_presentation ? 1 : 0) << "\n";
  out << "user_arranged = " << (s.user_arranged ? 1 : 0) << "\n";
  out << "# trusted: folders whose lessons may build and run their kernel files\n";
  out << "trusted = ";
  bool first_dir = true;
  for (const std::string& dir : s.trusted_folders) out << (std::exchange(first_dir, false) ? "" : "|") << dir;
  out << "\n";
  out << "hidden = ";
  bool first = true;
  for (const std::string& id : s.hidden) {
    out << (first ? "" : ",") << id;
    first = false;
  }
  out << "\n";
  return out.str();
}

Settings load_settings(const std::filesystem::path& path) {
  std::string text, error;
  if (!ws::read_file(path, text, error)) return Settings{};
  return parse_settings(text);
}

std::string save_text(const std::filesystem::path& path, const std::string& text) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return "cannot create " + path.parent_path().string() + ": " + ec.message();
  return ws::write_file_atomic(path, text);
}

}  // namespace ws::app
