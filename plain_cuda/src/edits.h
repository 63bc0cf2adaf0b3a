// Text edits that keep every untouched character at its line and column (see rewrite.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws::plain_cuda {

struct Edit {
  uint32_t begin = 0;  // byte offsets into the original text; begin == end inserts
  uint32_t end = 0;
  std::string text;
  uint32_t outer_end = 0;  // for insertions at one offset: the one spanning further goes first
};

struct Applied {
  std::string text;
  bool ok = true;
  uint32_t conflict_at = 0;  // two edits that overlap: the second one's offset
};

// Applies the edits. After an edit that changes the length of its line (or spans lines) and is
// followed by more text on its last line, that text continues on a new line that starts with
// `#line L "path"` and is indented (spaces, or the line's own tabs) to its old column.
Applied apply_edits(const std::string& text, const std::string& path, std::vector<Edit> edits);

}  // namespace ws::plain_cuda
