// Fuzz target: a font file (a setting or WARPSCOPE_UI_FONT may name any file) through the font
// check and the atlas: a damaged font must come back as a warning and ImGui's bitmap font, never
// a crash of the process that draws (fonts.cpp rasterises each font in a child process first).
//
// Run by replay.cpp over the font warpscope is built with and seeded mutations of it; the
// sanitizer fuzz build cannot link ImGui's atlas here (it lives in the viewer's libraries).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "ws/viz/fonts.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const struct Scratch {
    std::string path = "/tmp/ws_fuzz_font_" + std::to_string(::getpid()) + ".ttf";
    ~Scratch() { ::unlink(path.c_str()); }
  } scratch;
  const std::string& path = scratch.path;
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), std::streamsize(size));
  ImFontAtlas atlas;
  const std::string warning = ws::viz::build_fonts(atlas, 16.0f, {path, path});
  if (atlas.Fonts.Size < 1) __builtin_trap();  // something to draw the warning with, always
  if (!warning.empty() && warning.find(path) == std::string::npos && warning.find("bitmap") == std::string::npos)
    __builtin_trap();  // a refusal names the file
  return 0;
}
