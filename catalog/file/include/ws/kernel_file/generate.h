// The C++ translation unit that turns a kernel file into a catalog entry for one backend: the
// prelude (ws/kernel_file/prelude.h), the file inside a namespace of its own, a driver made from
// the launch description (sizes, fills, the launch of each variant, the `expect` check) and one
// extern "C" function that hands the entry to warpscope:
//
//   extern "C" void ws_kernel_file_entry_emu(ws::CatalogEntry* out);   // also _gpu_fast, _gpu_trace
//
// #line directives map the file's lines and each expression of the description back to the file,
// so compile errors point at what the user wrote.
#pragma once

#include <string>

#include "ws/kernel_file/description.h"

namespace ws::kernel_file {

enum class Flavor { Emu, GpuFast, GpuTrace };
const char* to_string(Flavor f);      // "emu", "gpu_fast", "gpu_trace"
std::string entry_symbol(Flavor f);   // "ws_kernel_file_entry_emu"
inline constexpr const char* kAbiSymbol = "ws_kernel_file_abi";

// The value ws_kernel_file_abi() returns in a library built from headers that lay out the
// catalog's types as this program does (a library built by another warpscope is refused).
unsigned abi_stamp();

// `text` is the file's contents (read once: the sites and the source view use the same text);
// `unique` makes the namespace and symbols of this build differ from every other loaded build.
std::string translation_unit(const Description& d, const std::string& text, Flavor flavor, const std::string& unique);

// One `#include` line of the kernel file at `file`, as the generated source must write it so that
// it finds what nvcc would find for the file itself: "x.h" that is beside the file (or an absolute
// path) becomes that file's absolute path; one that is not becomes <x.h> (the include path: the
// project's headers), never a header of the folder the build runs in (the shared temporary
// folder, for "../x.h"). <header> lines are kept.
std::string include_as_nvcc_finds_it(const std::string& line, const std::string& file);

}  // namespace ws::kernel_file
