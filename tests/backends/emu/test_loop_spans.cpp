// find_loops: the loops of a source text, as the scheduler needs them (keyword to end of body).
#include <gtest/gtest.h>

#include "loop_spans.h"

using ws::emu::find_loops;
using ws::emu::innermost_loop;
using ws::emu::LoopSpan;
using ws::emu::SourcePos;

namespace {
// "line:col-line:col" for each span, to compare in one line.
std::string spans_text(const std::vector<LoopSpan>& v) {
  std::string out;
  for (const LoopSpan& s : v) {
    if (!out.empty()) out += ' ';
    out += std::to_string(s.begin.line) + ":" + std::to_string(s.begin.column) + "-" + std::to_string(s.end.line) +
           ":" + std::to_string(s.end.column);
  }
  return out;
}
}  // namespace

TEST(LoopSpans, ABracedForWithAnIfElseInside) {
  const char* src =
      "__global__ void k(int* s, unsigned k) {\n"     // 1
      "  int v = 0;\n"                                 // 2
      "  for (unsigned i = 0; i < k; ++i) {\n"         // 3
      "    if (threadIdx.x % 2) v += s[i];\n"          // 4
      "    else v -= s[i + 1];\n"                      // 5
      "  }\n"                                          // 6
      "  s[0] = v;\n"                                  // 7
      "}\n";
  const auto spans = find_loops(src);
  EXPECT_EQ(spans_text(spans), "3:3-6:3");
  ASSERT_TRUE(innermost_loop(spans, {5, 10}));
  EXPECT_FALSE(innermost_loop(spans, {7, 3}));
  EXPECT_FALSE(innermost_loop(spans, {2, 3}));
}

TEST(LoopSpans, BodiesWithoutBracesEndAtTheirStatement) {
  const char* src =
      "for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(m, v, o);\n"    // 1
      "while (i < n)\n"                                                       // 2
      "  if (a[i] > 0) sum += a[i++];\n"                                      // 3
      "  else { i += 2; }\n"                                                  // 4
      "after();\n";                                                           // 5
  EXPECT_EQ(spans_text(find_loops(src)), "1:1-1:63 2:1-4:18");
}

TEST(LoopSpans, NestedLoopsAndTheInnermost) {
  const char* src =
      "for (int r = 0; r < R; ++r) {\n"   // 1
      "  for (int c = 0; c < C; ++c)\n"   // 2
      "    t[r][c] = m[c][r];\n"          // 3
      "  done[r] = 1;\n"                  // 4
      "}\n";                              // 5
  const auto spans = find_loops(src);
  EXPECT_EQ(spans_text(spans), "1:1-5:1 2:3-3:22");
  EXPECT_EQ(innermost_loop(spans, {3, 5})->begin, (SourcePos{2, 3}));
  EXPECT_EQ(innermost_loop(spans, {4, 3})->begin, (SourcePos{1, 1}));
}

TEST(LoopSpans, ADoWhileIsOneLoopAndItsWhileNotAnother) {
  const char* src =
      "do {\n"               // 1
      "  x = a[x];\n"        // 2
      "} while (x != 0);\n"  // 3
      "while (y) --y;\n";    // 4
  EXPECT_EQ(spans_text(find_loops(src)), "1:1-3:17 4:1-4:14");
}

TEST(LoopSpans, CommentsStringsAndPreprocessorLinesAreNotCode) {
  const char* src =
      "// for (;;) { in a comment\n"                  // 1
      "/* while (1) {\n"                              // 2
      "   } */ const char* s = \"for (;;) {\";\n"     // 3
      "char c = '{'; int big = 1'000;\n"              // 4
      "#pragma unroll\n"                              // 5
      "for (int i = 0; i < 4; ++i) { f(\"}\"); }\n"   // 6
      "auto r = R\"x(while ( { )x\";\n";              // 7
  EXPECT_EQ(spans_text(find_loops(src)), "6:1-6:39");
}

TEST(LoopSpans, ALambdaOrInitializerInsideTheBodyDoesNotEndIt) {
  const char* src =
      "for (auto& e : v) {\n"                           // 1
      "  auto f = [&](int k) { return k + e; };\n"      // 2
      "  int a[2] = {1, 2};\n"                          // 3
      "  e = f(a[0]);\n"                                // 4
      "}\n";                                            // 5
  EXPECT_EQ(spans_text(find_loops(src)), "1:1-5:1");
}

TEST(LoopSpans, AnAttributeBeforeABodyIsPartOfIt) {
  const char* src =
      "for (int i = 0; i < n; ++i) [[likely]] {\n"   // 1
      "  if (a[i]) [[unlikely]] { b(); }\n"           // 2
      "}\n"                                            // 3
      "c();\n";                                        // 4
  EXPECT_EQ(spans_text(find_loops(src)), "1:1-3:1");
}
