// Where the tests find warpscope and their kernel files: the build's paths, or (on the GPU
// machine, where the binaries are carried elsewhere) $WARPSCOPE_TEST_EXE and $WARPSCOPE_TEST_FILES.
#pragma once

#include <cstdlib>
#include <string>

namespace ws::isolation::test {

inline std::string warpscope_exe() {
  const char* env = std::getenv("WARPSCOPE_TEST_EXE");
  return env && *env ? env : WARPSCOPE_EXE;
}

inline std::string test_file(const std::string& name) {
  const char* env = std::getenv("WARPSCOPE_TEST_FILES");
  return std::string(env && *env ? env : WS_TEST_FILES) + "/" + name;
}

}  // namespace ws::isolation::test
