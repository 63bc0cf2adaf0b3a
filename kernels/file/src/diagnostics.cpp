#include "ws/kernel_file/diagnostics.h"

#include <charconv>
#include <regex>
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
}  // namespace

std::vector<BuildDiagnostic> parse_compiler_output(const std::string& output, size_t limit) {
  // gcc/clang: "path:12:9: error: ...", "path:12: error: ..."; gcc's "fatal error" is an error.
  static const std::regex gnu(R"(^(.+?):(\d+):(?:(\d+):)?\s*(fatal error|error|warning|note):\s*(.*)$)");
  // nvcc's front end: "path(12): error: ..." (also "error #20: ...").
  static const std::regex edg(R"(^(.+?)\((\d+)\):\s*(error|warning|remark)[^:]*:\s*(.*)$)");
  std::vector<BuildDiagnostic> out;
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line) && out.size() < limit) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch m;
    BuildDiagnostic d;
    if (std::regex_match(line, m, gnu)) {
      d.file = m[1];
      d.line = number(m[2]);
      d.column = m[3].matched ? number(m[3]) : 0;
      const std::string sev = m[4];
      d.severity = sev == "warning" ? BuildDiagnostic::Severity::Warning
                   : sev == "note"  ? BuildDiagnostic::Severity::Note
                                    : BuildDiagnostic::Severity::Error;
      d.message = m[5];
    } else if (std::regex_match(line, m, edg)) {
      d.file = m[1];
      d.line = number(m[2]);
      const std::string sev = m[3];
      d.severity = sev == "error" ? BuildDiagnostic::Severity::Error : BuildDiagnostic::Severity::Warning;
      d.message = m[4];
    } else {
      continue;
    }
    if (d.line > 0 && d.file.size() < 4096) out.push_back(std::move(d));
  }
  return out;
}

}  // namespace ws::kernel_file
