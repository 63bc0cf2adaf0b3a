#include "edits.h"

#include <algorithm>

namespace ws::plain_cuda {

namespace {

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

uint32_t line_start(const std::string& text, uint32_t at) {
  const size_t nl = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
  return nl == std::string::npos ? 0 : uint32_t(nl + 1);
}

uint32_t line_number(const std::string& text, uint32_t at) {
  return 1 + uint32_t(std::count(text.begin(), text.begin() + at, '\n'));
}

bool rest_of_line_has_text(const std::string& text, uint32_t at) {
  for (size_t k = at; k < text.size() && text[k] != '\n'; ++k)
    if (text[k] != ' ' && text[k] != '\t' && text[k] != '\r') return true;
  return false;
}

// A new line that continues the original at `at`: the line number, then the indentation that
// puts the next character at its old byte column (a tab stays a tab, anything else a space).
std::string continue_at(const std::string& text, const std::string& path, uint32_t at) {
  const uint32_t start = line_start(text, at);
  std::string indent;
  for (uint32_t k = start; k < at; ++k) indent += text[k] == '\t' ? '\t' : ' ';
  return "\n#line " + std::to_string(line_number(text, at)) + " " + quoted(path) + "\n" + indent;
}

}  // namespace

Applied apply_edits(const std::string& text, const std::string& path, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    const bool ai = a.begin == a.end, bi = b.begin == b.end;
    if (ai != bi) return ai;  // insertions before a replacement that starts there
    return a.outer_end > b.outer_end;
  });
  Applied out;
  uint32_t at = 0;
  for (const Edit& e : edits) {
    if (e.begin < at || e.end < e.begin || e.end > text.size()) {
      out.ok = false;
      out.conflict_at = e.begin;
      return out;
    }
    out.text.append(text, at, e.begin - at);
    out.text += e.text;
    at = e.end;
    const bool spans_lines = text.find('\n', e.begin) < e.end;
    const bool same_length = e.end - e.begin == e.text.size() && e.text.find('\n') == std::string::npos;
    if ((spans_lines || !same_length) && (spans_lines || rest_of_line_has_text(text, at))) {
      // Insertions that continue at the same offset are emitted before the break.
      out.text += continue_at(text, path, at);
    }
  }
  out.text.append(text, at, std::string::npos);
  return out;
}

}  // namespace ws::plain_cuda
