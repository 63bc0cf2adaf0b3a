#include "ws/kernel_file/diagnostics.h"

#include <charconv>
#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>

namespace ws::kernel_file {

const char* to_string(BuildDiagnostic::Severity s) {
  switch (s) {
    case BuildDiagnostic::Severity::Error: return "error";
    case BuildDiagnostic::Severity::Warning: return "warning";
    case BuildDiagnostic::Severity::Note: return "note";
  }
  return "error";
}

std::string to_text(const BuildDiagnostic& d) {
  std::string out;
  if (!d.file.empty()) {
    out = d.file;
    if (d.line) out += ":" + std::to_string(d.line);
    if (d.line && d.column) out += ":" + std::to_string(d.column);
    out += ": ";
  }
  return out + to_string(d.severity) + ": " + d.message;
}

namespace {
uint32_t number(const std::string& digits) {
  uint32_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  return ec == std::errc() ? v : 0;  // (a line number past 2^32 is none)
}

// One line of compiler output: "file:line[:col]: severity: message" (gcc, clang) or
// "file(line): severity...: message" (nvcc's front end). Parsed by hand: lines of template errors
// run to many kilobytes, too long for libstdc++'s recursive regex.
bool parse_line(const std::string& line, BuildDiagnostic& d) {
  static const std::pair<const char*, BuildDiagnostic::Severity> kinds[] = {
      {"fatal error: ", BuildDiagnostic::Severity::Error}, {"error: ", BuildDiagnostic::Severity::Error},
      {"warning: ", BuildDiagnostic::Severity::Warning},   {"note: ", BuildDiagnostic::Severity::Note}};
  // gcc/clang: the first ":<digits>:" after a non-empty file part.
  for (size_t at = line.find(':'); at != std::string::npos && at > 0; at = line.find(':', at + 1)) {
    size_t p = at + 1, q = p;
    while (q < line.size() && std::isdigit(static_cast<unsigned char>(line[q]))) ++q;
    if (q == p || q >= line.size() || line[q] != ':') continue;
    const uint32_t ln = number(line.substr(p, q - p));
    uint32_t col = 0;
    size_t r = q + 1, t = r;
    while (t < line.size() && std::isdigit(static_cast<unsigned char>(line[t]))) ++t;
    if (t > r && t < line.size() && line[t] == ':') col = number(line.substr(r, t - r)), r = t + 1;
    while (r < line.size() && line[r] == ' ') ++r;
    for (const auto& [word, sev] : kinds)
      if (line.compare(r, std::strlen(word), word) == 0) {
        d.file = line.substr(0, at);
        d.line = ln;
        d.column = col;
        d.severity = sev;
        d.message = line.substr(r + std::strlen(word));
        return ln > 0;
      }
    return false;
  }
  // nvcc: "file(12): error: ..." or "file(12): error #20-D: ...".
  // The first "(digits): " (a path may hold other parentheses).
  size_t open = std::string::npos, close = std::string::npos;
  for (size_t at = line.find('('); at != std::string::npos && at > 0; at = line.find('(', at + 1)) {
    size_t q = at + 1;
    while (q < line.size() && std::isdigit(static_cast<unsigned char>(line[q]))) ++q;
    if (q > at + 1 && line.compare(q, 3, "): ") == 0) {
      open = at;
      close = q;
      break;
    }
  }
  if (open == std::string::npos) return false;
  const std::string digits = line.substr(open + 1, close - open - 1);
  const std::string rest = line.substr(close + 3);
  BuildDiagnostic::Severity sev;
  if (rest.rfind("error", 0) == 0) sev = BuildDiagnostic::Severity::Error;
  else if (rest.rfind("warning", 0) == 0 || rest.rfind("remark", 0) == 0) sev = BuildDiagnostic::Severity::Warning;
  else return false;
  const size_t colon = rest.find(": ");
  if (colon == std::string::npos) return false;
  d.file = line.substr(0, open);
  d.line = number(digits);
  d.column = 0;
  d.severity = sev;
  d.message = rest.substr(colon + 2);
  return d.line > 0;
}

}  // namespace

std::vector<BuildDiagnostic> parse_compiler_output(const std::string& output, size_t limit) {
  std::vector<BuildDiagnostic> out;
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line) && out.size() < limit) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    BuildDiagnostic d;
    if (parse_line(line, d) && d.file.size() < 4096) out.push_back(std::move(d));
  }
  return out;
}

}  // namespace ws::kernel_file
