// A kernel file's launch description: the TOML block that tells warpscope how to run the kernels
// above it. It sits in a comment that opens with "/* warpscope" and ends at the next "*/":
//
//   __global__ void saxpy(ws::global_array<const float> x, ws::global_array<float> y, float a, unsigned n) {...}
//
//   /* warpscope
//   kernel = "saxpy"
//   n = 4096                      # --n changes it
//   block = 256                   # or [16, 16]
//   args = ["x", "y", "2.0f", "n"]
//   [arrays.x]
//   type = "float"
//   size = "n"
//   fill = "random"               # random | iota | zeros | ones | a C++ expression of i
//   [arrays.y]
//   type = "float"
//   size = "n"
//   fill = "i % 7"
//   expect = "2.0f * x[i] + y[i]" # y[i] after the launch; names are the arrays before it
//   */
//
// Sizes, the grid, `args`, fills and `expect` are C++ expressions: they are compiled with the
// kernel, may call the file's own host functions, and see n (uint64_t), block and grid
// (ws::Dim3), i (in fills and expects) and the file's [params] by name (int64_t).
// A file without "kernel" or [[variants]] but with `entry = "MyEntry"` names a catalog-style
// entry struct (spec, validate, run) instead, and nothing else is read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ws/kernel_file/diagnostics.h"

namespace ws::kernel_file {

// An expression or value of the description, with the file line it came from (for #line, so
// that a compile error in it points at the description).
struct Expr {
  std::string text;
  uint32_t line = 0;
  uint32_t column = 0;  // of the text's first character in the file (0: unknown)
};

struct ArrayDesc {
  std::string name;         // the kernel argument's name in `args`, the allocation's in the views
  std::string type;         // a C++ type: float, int, unsigned, double, float4, a struct of the file
  Expr size;                // elements
  std::string fill = "zeros";  // random | iota | zeros | ones | expression (fill_expr)
  Expr fill_expr;
  double lo = 0, hi = 0;    // random's range (default: -1..1 for floating types, 0..9 otherwise)
  bool has_range = false;
  Expr expect;              // "" or the value element i must have after the launches
  double tolerance = -1;    // relative; <0: exact for integers, 1e-5 for floating types
  Expr row_length;          // "" or elements per row: the views draw it as a matrix
  uint32_t line = 0;
};

struct ParamDesc {
  std::string name, description;
  double min = 0, max = 0, def = 0;  // whole numbers unless `real`
  std::vector<std::string> choices;
  bool real = false;  // a number of min, max or default was written as a real one (0.0)
};

struct VariantDesc {
  std::string id, name, summary;
  Expr kernel;                  // the __global__ function (a template instance is fine: "reduce<256>")
  std::optional<Expr> grid[3];  // per axis; none: the description's grid
  std::optional<std::vector<Expr>> args;  // none: the description's args
  uint32_t block[3] = {0, 1, 1};          // x = 0: the description's block
  std::optional<Expr> shared;             // none: the description's dynamic shared memory
  std::vector<Expr> accepts;              // more conditions, for this variant
  uint32_t line = 0;
};

struct Description {
  std::string path;         // the file, absolute
  uint32_t line = 0;        // where the block starts (the "/* warpscope" line)
  std::string entry;        // catalog-style entry struct; the fields below are then unused
  std::string name;         // the kernel's name in the catalog (default: the file's stem)
  bool name_given = false;  // `name = ...` (else a stem that a built-in kernel has gets "_file")
  std::string title, description;
  uint64_t n = 1024;
  uint32_t block[3] = {256, 1, 1};
  Expr grid[3];             // "" on x: ceil(n / block.x); "" on y, z: 1
  Expr shared;              // dynamic shared memory bytes ("" = 0)
  std::vector<Expr> accepts;  // conditions on n, block and the parameters a launch must meet
  std::vector<Expr> args;
  std::vector<ArrayDesc> arrays;
  std::vector<ParamDesc> params;
  std::vector<VariantDesc> variants;  // one per kernel; a lone `kernel = ...` makes one
  std::string dtype = "float";        // shown in the labs; the arrays carry their own types
};

// Finds and parses the description in `text` (the file's contents, `path` its absolute path).
// Problems come back as diagnostics with the file's line and column; the result is empty when
// any of them is an error.
std::optional<Description> parse_description(const std::string& path, const std::string& text,
                                             std::vector<BuildDiagnostic>& problems);

// `text` under the launch description of `donor`: its own description (if any) blanked, every
// character but line breaks made a space so that every line keeps its number, and donor's
// appended after its end. An exercise grades a student's copy so: its launch, arrays and
// expectations are the exercise's, whatever the copy's comment says. "" when donor has none.
std::string with_description_of(const std::string& text, const std::string& donor);
// The file at `path` read (at most 4 MiB) and put under `donor`'s description as above; "" with
// `error` when it cannot be read or donor has no description.
std::string read_with_description_of(const std::string& path, const std::string& donor, std::string& error);

// "saxpy" for "/home/me/saxpy.cu": a catalog name made of the file's stem (letters, digits, -, _).
std::string name_from_path(const std::string& path);

}  // namespace ws::kernel_file
