// Running the compiler on a generated translation unit: the system C++ compiler for the
// emulator's build, nvcc for the GPU's. The program runs as a child process with its output
// captured, a time limit and a way to stop it early (the file was saved again meanwhile).
//
//   CompilerRun r = run_compiler({"/usr/bin/c++", "-shared", ..., "-o", "k.so", "k.cpp"}, 120, nullptr);
//   if (!r.ok) show(parse_compiler_output(r.output));
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "ws/util/program.h"

namespace ws::kernel_file {

using CompilerRun = ProgramRun;  // (the output is stdout and stderr together, at most 1 MiB)

// Runs argv[0] (a path, or a name looked up in PATH) with the arguments. `cancel` (may be null)
// stops it when it turns true. `tmpdir` (if given) is the child's TMPDIR.
CompilerRun run_compiler(const std::vector<std::string>& argv, double timeout_seconds, const std::atomic<bool>* cancel,
                         const std::string& tmpdir = {});

// What warpscope's own build knew about compiling against its headers: the compiler, its flags
// and include folders (found in the source tree it was built from). WARPSCOPE_CXX and
// WARPSCOPE_NVCC replace the compilers.
struct Toolchain {
  std::string cxx;                   // the C++ compiler of warpscope's build
  std::vector<std::string> cxx_flags;
  std::string nvcc;                  // "" without CUDA
  std::vector<std::string> nvcc_flags;
  std::vector<std::string> includes; // -I folders, the kernel file's own folder added per build
  bool gcc = false;                  // cxx is the GCC warpscope was built with (a precompiled prelude works)
  std::string missing;               // "" or why kernel files cannot be built (headers not found)
};
const Toolchain& toolchain();

}  // namespace ws::kernel_file
