// Plain CUDA in: a kernel as it stands on a slide or in a code base (`int *g_idata`,
// `extern __shared__ int sdata[];`, `__shared__ float tile[32][33];`, `volatile int*`,
// `reinterpret_cast<float4*>(p)`, `auto v = a[i];`) rewritten so that every access it makes goes
// through warpscope's recorded pointer types (ws::ptr, ws::shared_array, ws::dynamic_shared,
// ws::shared_matrix), before the emulator's build compiles it.
//
// Clang's own parser reads the file (libclang, parsing it as CUDA), so the rewrite knows which
// declarations are pointers, which arrays are shared and what `auto` deduces to; a hand-written
// parser would not. Only the device code is touched, and every character that is not rewritten
// keeps its line and column: after an edit that changes a line's length the rest of the line is
// moved to a line of its own behind a `#line` directive, indented to its old column. So the
// sites warpscope records (file, line, column), the compiler's messages and the source view all
// name the user's text exactly as written.
//
// Worked example: the lecture's reduce0,
//
//     __global__ void reduce0(int *g_idata, int *g_odata) {
//         extern __shared__ int sdata[];
//
// becomes (the `#line` lines put the rest of each line back at its column)
//
//     __global__ void reduce0(ws::ptr<int> g_idata, ws::ptr<int> g_odata) {
//         ws::dynamic_shared<int, "sdata"> sdata;
//
// What cannot be instrumented faithfully is refused with its line, column and what to write
// instead (a pointer kept in a struct, a `__device__` global array, a pointer to a pointer, ...),
// never compiled into silently wrong counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws::plain_cuda {

struct Refusal {
  uint32_t line = 0;
  uint32_t column = 0;
  std::string message;  // what was found and what to write instead
};

struct Rewritten {
  std::string text;               // the file to compile (the input when nothing was rewritten)
  bool rewritten = false;         // false: a file in warpscope's wrapped dialect, taken as written
  std::vector<Refusal> refusals;  // non-empty: the file cannot be instrumented as it stands
  uint32_t edits = 0;             // how many places were rewritten
};

// `#include <x.h>` or `#include "x.h"` -> "x.h"; "" for any other line.
std::string included_header(const std::string& line);

// Whether `name` is one of the CUDA toolkit's runtime headers (cuda_runtime.h, cuda.h,
// device_launch_parameters.h, ...): the emulator's build provides what they declare and leaves
// them out; nvcc's builds include them.
bool is_cuda_toolkit_header(const std::string& name);
// <cooperative_groups.h> (and its reduce.h): the emulator and gpu-trace build ws/kernel/cooperative_groups.h
// in its place, whose calls are recorded; gpu-fast compiles NVIDIA's.
bool is_cooperative_groups_header(const std::string& name);

// Whether the file is written for warpscope itself (it names `ws::`: the wrappers ws::global_array,
// ws::shared_array, ws::dynamic_shared, or a catalog entry): such a file is compiled as it stands.
bool uses_wrapped_dialect(const std::string& text);

// Rewrites `text`, the file at `path` (used in the `#line` directives and to find the headers
// beside it). A file in the wrapped dialect comes back unchanged.
Rewritten rewrite(const std::string& text, const std::string& path);

}  // namespace ws::plain_cuda
