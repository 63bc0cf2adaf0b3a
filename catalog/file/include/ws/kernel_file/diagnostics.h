// What went wrong building a kernel file, where: the compiler's errors and warnings and the
// description's problems, each with file, line and column so the viewer can open the source
// there.
//
//   /home/me/saxpy.cu:12:9: error: 'i' was not declared in this scope
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws::kernel_file {

struct BuildDiagnostic {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  std::string file;          // as the compiler named it; "" when the message is about no file
  uint32_t line = 0, column = 0;  // 1-based; 0 = unknown
  std::string message;       // without the "file:line:col: error:" prefix
};

const char* to_string(BuildDiagnostic::Severity s);  // "error", "warning", "note"

// "file:line:col: error: message" (the parts it has).
std::string to_text(const BuildDiagnostic& d);

// The diagnostics of a gcc, clang or nvcc run, from its combined output: lines of the form
// "file:line:col: error|warning|note: message" (also without the column, and nvcc's
// "file(line): error: message"). Lines that are none of these (the source excerpt, "In function",
// "compilation terminated") are dropped; an output with no such line but a failed run gives one
// diagnostic holding the output's first lines. At most `limit` come back.
std::vector<BuildDiagnostic> parse_compiler_output(const std::string& output, size_t limit = 200);

}  // namespace ws::kernel_file
