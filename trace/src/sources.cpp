#include "ws/trace/sources.h"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace ws {

namespace {

struct Store {
  std::mutex mutex;
  std::map<std::string, std::string, std::less<>> files;
};

Store& store() {
  static Store s;
  return s;
}

}  // namespace

std::string kernel_relative_path(const std::string& path) {
  const std::string marker = "/kernels/";
  const auto pos = path.rfind(marker);
  return pos == std::string::npos ? path : path.substr(pos + marker.size());
}

void register_source(const std::string& relative_path, std::string_view text) {
  Store& s = store();
  std::lock_guard lock(s.mutex);
  s.files[relative_path] = std::string(text);
}

std::string source_text(const std::string& relative_path, const std::string& fallback_path) {
  Store& s = store();
  {
    std::lock_guard lock(s.mutex);
    auto it = s.files.find(relative_path);
    if (it != s.files.end()) return it->second;
  }
  if (fallback_path.empty()) return {};
  std::ifstream in(fallback_path, std::ios::binary);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = std::move(ss).str();
  std::lock_guard lock(s.mutex);
  s.files[relative_path] = text;  // cache: later lookups of the same file are cheap
  return text;
}

std::string source_line(const std::string& relative_path, uint32_t line,
                        const std::string& fallback_path) {
  if (line == 0) return {};
  const std::string text = source_text(relative_path, fallback_path);
  size_t pos = 0;
  for (uint32_t l = 1; l < line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return {};
    ++pos;
  }
  if (pos >= text.size()) return {};
  size_t end = text.find('\n', pos);
  if (end == std::string::npos) end = text.size();
  std::string out = text.substr(pos, end - pos);
  if (!out.empty() && out.back() == '\r') out.pop_back();
  return out;
}

}  // namespace ws
