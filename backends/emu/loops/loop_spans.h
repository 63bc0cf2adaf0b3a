// Where the loops of a C++ source file begin and end, for the emulator's reconvergence: lanes
// that split at an if/else inside a loop meet again at the end of each iteration on a GPU (the
// compiler's reconvergence point is inside the loop), which the scheduler can only honour if it
// knows that the lanes waiting at the `else` side are inside the loop that the `if` side's lanes
// have just gone round.
//
// It reads tokens, not C++: comments, string and character literals and preprocessor lines are
// skipped, and a loop is a `for`, `while` or `do` keyword with its parenthesised header and its
// body: a braced block, or one statement (itself possibly an if/else, a loop or a switch). That
// is enough for kernel code; anything it cannot follow (a macro that expands to a loop) is simply
// not a loop here, and the scheduler then falls back to plain source order.
//
// Example:
//   for (unsigned i = 0; i < k; ++i) {      // line 3: a span from (3, 3) ...
//     if (threadIdx.x % 2) v += s[tid];
//     else v -= s[tid + 1];
//   }                                        // ... to (6, 3), the closing brace
//   innermost_loop(spans, 5, 10) is that span; innermost_loop(spans, 7, 1) is none.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ws::emu {

struct SourcePos {
  uint32_t line = 0;    // 1-based
  uint32_t column = 0;  // 1-based
  friend auto operator<=>(const SourcePos&, const SourcePos&) = default;
};

// One loop: from its keyword to the last character of its body (for a `do`, of its `while (...);`).
struct LoopSpan {
  SourcePos begin, end;
  bool contains(SourcePos p) const { return begin <= p && p <= end; }
};

// Every loop of `source`, in the order their keywords appear.
std::vector<LoopSpan> find_loops(std::string_view source);

// The innermost of `spans` that contains `p`, if any.
std::optional<LoopSpan> innermost_loop(const std::vector<LoopSpan>& spans, SourcePos p);

}  // namespace ws::emu
