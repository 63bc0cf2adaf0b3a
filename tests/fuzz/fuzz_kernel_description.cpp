// Fuzz target: a kernel file (its /* warpscope */ launch description) through the parser and the
// code generator. Nothing may crash or hang; a bad description is diagnostics with a line inside
// the file; a description that parses generates a translation unit that holds the file.
//
// Built with clang's libFuzzer by scripts/fuzz.sh; with the project's compiler, replay.cpp runs the
// corpus (examples/, and tests/fuzz/corpus/kernel_files: broken ones, every crash found) as a test.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ws/kernel_file/description.h"
#include "ws/kernel_file/generate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<ws::kernel_file::BuildDiagnostic> problems;
  const auto d = ws::kernel_file::parse_description("/fuzz/k.cu", text, problems);
  const uint32_t lines = 1 + uint32_t(std::count(text.begin(), text.end(), '\n'));
  if (!d) {
    if (problems.empty()) __builtin_trap();  // refused without saying why
    for (const auto& p : problems)
      if (p.line > lines) __builtin_trap();  // a line the file does not have
    return 0;
  }
  for (auto flavor : {ws::kernel_file::Flavor::Emu, ws::kernel_file::Flavor::GpuTrace}) {
    const std::string tu = ws::kernel_file::translation_unit(*d, text, flavor, "fuzz");
    if (tu.size() < text.size()) __builtin_trap();  // the file is in it (its #include lines above)
  }
  return 0;
}
