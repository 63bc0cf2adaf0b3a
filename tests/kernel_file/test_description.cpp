// The launch description's parser and the compiler-output parser, on text written here.
#include <gtest/gtest.h>

#include "ws/kernel_file/description.h"
#include "ws/kernel_file/diagnostics.h"
#include "ws/kernel_file/generate.h"

namespace {

using namespace ws::kernel_file;

const std::string kKernel =
    "__global__ void k(ws::global_array<float> a, unsigned n) {}\n"  // line 1
    "\n";                                                            // line 2

std::optional<Description> parse(const std::string& block, std::vector<BuildDiagnostic>& problems) {
  return parse_description("/tmp/k.cu", kKernel + "/* warpscope\n" + block + "*/\n", problems);
}

TEST(KernelFileDescription, ReadsEveryPart) {
  std::vector<BuildDiagnostic> p;
  auto d = parse(
      "kernel = \"k\"\nn = 100\nblock = [16, 8]\ngrid = [\"n / 16\", 3]\nargs = [\"a\", \"n\"]\n"
      "[params.s]\ndefault = 2\nmin = 1\nmax = 4\n"
      "[arrays.a]\ntype = \"float\"\nsize = \"n * s\"\nfill = \"i * 0.5f\"\nexpect = \"a[i]\"\ntolerance = 0.01\n",
      p);
  ASSERT_TRUE(d) << (p.empty() ? "" : to_text(p[0]));
  EXPECT_EQ(d->name, "k");  // the file's stem
  EXPECT_EQ(d->n, 100u);
  EXPECT_EQ(d->block[0], 16u);
  EXPECT_EQ(d->block[1], 8u);
  EXPECT_EQ(d->grid[0].text, "n / 16");
  EXPECT_EQ(d->grid[1].text, "3");
  EXPECT_EQ(d->grid[0].line, 7u);  // "/* warpscope" is line 3; grid is the block's 4th line
  ASSERT_EQ(d->variants.size(), 1u);
  EXPECT_EQ(d->variants[0].kernel.text, "k");
  ASSERT_EQ(d->arrays.size(), 1u);
  EXPECT_EQ(d->arrays[0].fill, "expression");
  EXPECT_EQ(d->arrays[0].fill_expr.text, "i * 0.5f");
  EXPECT_DOUBLE_EQ(d->arrays[0].tolerance, 0.01);
  ASSERT_EQ(d->params.size(), 1u);
  EXPECT_EQ(d->params[0].def, 2);
  EXPECT_EQ(d->params[0].max, 4);
}

// Each bad description: the message says what is wrong and the line is the offending one.
TEST(KernelFileDescription, BadDescriptionsSayWhatAndWhere) {
  struct Case {
    std::string block, says;
    uint32_t line;
  };
  const Case cases[] = {
      {"kernel = \"k\"\nblok = 256\n", "unknown key 'blok'", 5},
      {"kernel = \"k\"\nblock = 2048\n", "out of range [1, 1024]", 5},
      {"kernel = \"k\"\nblock = [64, 32]\n", "over the limit of 1024 threads", 5},
      {"n = 4\n", "names no kernel", 3},
      {"kernel = \"k\"\nargs = [\"a\"]\n[arrays.a]\nsize = \"n\"\n", "has no type", 6},
      {"kernel = \"k\"\nargs = [\"a\"]\n[arrays.n]\ntype = \"int\"\nsize = \"n\"\n", "must be a C++ identifier", 6},
      {"kernel = \"k\"\nn = \"many\"\n", "n must be a whole number", 5},
      {"kernel = \"k\"\n[params.p]\nmin = 5\nmax = 1\n", "needs min <= default <= max", 5},
      {"kernel = \"k\"\nn = = 3\n", "launch description", 5},
      {"kernel = \"k\"\n[arrays.a]\ntype = \"float\"\nsize = \"n\"\n", "args is missing", 3},
      {"kernel = \"k\"\n[arrays.a]\ntype = \"float\"\nsize = \"\"\n", "size is empty", 7},
  };
  for (const Case& c : cases) {
    std::vector<BuildDiagnostic> p;
    EXPECT_FALSE(parse(c.block, p)) << c.block;
    ASSERT_EQ(p.size(), 1u) << c.block;
    EXPECT_NE(p[0].message.find(c.says), std::string::npos) << c.block << " -> " << p[0].message;
    EXPECT_EQ(p[0].line, c.line) << c.block << " -> " << p[0].message;
    EXPECT_EQ(p[0].file, "/tmp/k.cu");
  }
}

TEST(KernelFileDescription, NoDescriptionOrNoEnd) {
  std::vector<BuildDiagnostic> p;
  EXPECT_FALSE(parse_description("/tmp/k.cu", kKernel, p));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].message.find("no launch description"), std::string::npos);
  p.clear();
  EXPECT_FALSE(parse_description("/tmp/k.cu", kKernel + "/* warpscope\nkernel = \"k\"\n", p));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].message.find("no closing */"), std::string::npos);
  EXPECT_EQ(p[0].line, 3u);
}

TEST(KernelFileDescription, EntryFormNeedsNothingElse) {
  std::vector<BuildDiagnostic> p;
  auto d = parse("entry = \"MyEntry\"\n", p);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->entry, "MyEntry");
}

TEST(KernelFileDescription, GeneratedCodeMapsExpressionsToTheirLines) {
  std::vector<BuildDiagnostic> p;
  auto d = parse("kernel = \"k\"\nargs = [\"a\", \"n\"]\n[arrays.a]\ntype = \"float\"\nsize = \"n + 1\"\n", p);
  ASSERT_TRUE(d);
  const std::string tu = translation_unit(*d, kKernel, Flavor::Emu, "t");
  // The file's own lines start at 1 under its name; the size expression is at line 8 of the file,
  // column 9 (after `size = "`): a compile error's caret lands under it.
  EXPECT_NE(tu.find("#line 1 \"/tmp/k.cu\"\n__global__ void k"), std::string::npos);
  EXPECT_NE(tu.find("#line 8 \"/tmp/k.cu\"\n        n + 1\n"), std::string::npos);
  EXPECT_NE(tu.find(entry_symbol(Flavor::Emu)), std::string::npos);
}

TEST(KernelFileDescription, IncludesGoAboveTheFilesNamespace) {
  std::vector<BuildDiagnostic> p;
  const std::string text = "// k\n#include <unordered_map>\n  # include \"mine.h\"\n__global__ void k() {}\n/* warpscope\nkernel = \"k\"\n*/\n";
  auto d = parse_description("/tmp/k.cu", text, p);
  ASSERT_TRUE(d);
  const std::string tu = translation_unit(*d, text, Flavor::Emu, "t");
  const size_t ns = tu.find("namespace ws_file_t_emu {");
  ASSERT_NE(ns, std::string::npos);
  EXPECT_LT(tu.find("#line 2 \"/tmp/k.cu\"\n#include <unordered_map>"), ns);
  // ("mine.h" is not beside /tmp/k.cu: the include path's, never the build folder's)
  EXPECT_LT(tu.find("#line 3 \"/tmp/k.cu\"\n  # include <mine.h>"), ns);
  // Inside, the file keeps its line numbers: blank lines where the includes were.
  EXPECT_NE(tu.find("#line 1 \"/tmp/k.cu\"\n// k\n\n\n__global__ void k() {}", ns), std::string::npos);
}

TEST(KernelFileDescription, KeywordsAndTheDriversNamesAreRefused) {
  for (const char* name : {"new", "int", "std", "ws", "ws_size", "__x", "threadIdx", "n", "grid"}) {
    std::vector<BuildDiagnostic> p;
    EXPECT_FALSE(parse("kernel = \"k\"\nargs = [\"x\"]\n[arrays." + std::string(name) + "]\ntype = \"int\"\nsize = \"4\"\n", p)) << name;
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NE(p[0].message.find("not a keyword"), std::string::npos) << p[0].message;
  }
  std::vector<BuildDiagnostic> p;
  EXPECT_FALSE(parse("kernel = \"k\"\nblock = [8, 8, 4]\n", p));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].message.find("block z must be 1"), std::string::npos) << p[0].message;
}

TEST(KernelFileDiagnostics, ParsesGccClangAndNvcc) {
  const std::string out =
      "In file included from /tmp/x.cpp:3:\n"
      "/home/me/k.cu: In function 'void k()':\n"
      "/home/me/k.cu:12:9: error: 'q' was not declared in this scope\n"
      "   12 |   q = 1;\n"
      "      |   ^\n"
      "/home/me/k.cu:4:1: warning: unused variable 'z' [-Wunused-variable]\n"
      "/home/me/k.cu:5: note: declared here\n"
      "/home/me/k.cu(30): error: identifier \"w\" is undefined\n"
      "cc1plus: fatal error: /nope.cpp: No such file or directory\n"
      "compilation terminated.\n";
  const std::vector<BuildDiagnostic> d = parse_compiler_output(out);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].file, "/home/me/k.cu");
  EXPECT_EQ(d[0].line, 12u);
  EXPECT_EQ(d[0].column, 9u);
  EXPECT_EQ(d[0].severity, BuildDiagnostic::Severity::Error);
  EXPECT_EQ(d[0].message, "'q' was not declared in this scope");
  EXPECT_EQ(d[1].severity, BuildDiagnostic::Severity::Warning);
  EXPECT_EQ(d[2].severity, BuildDiagnostic::Severity::Note);
  EXPECT_EQ(d[2].column, 0u);
  EXPECT_EQ(d[3].line, 30u);
  EXPECT_EQ(d[3].message, "identifier \"w\" is undefined");
  EXPECT_EQ(to_text(d[0]), "/home/me/k.cu:12:9: error: 'q' was not declared in this scope");
  // nvcc's line after a path with parentheses (the driver's "(warpscope driver)").
  const std::vector<BuildDiagnostic> e = parse_compiler_output("/k.cu (warpscope driver)(7): error: expected a \";\"\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].file, "/k.cu (warpscope driver)");
  EXPECT_EQ(e[0].line, 7u);
  // A line number too large for 32 bits is none, not a wrapped one.
  EXPECT_TRUE(parse_compiler_output("/a.cu:99999999999999:1: error: x\n").empty());
}

}  // namespace
