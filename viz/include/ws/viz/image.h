// An RGBA8 image in memory, rows top to bottom (the order PNG and humans use; OpenGL reads
// bottom-up, framebuffer.cpp flips).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws::viz {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes

  const uint8_t* pixel(int x, int y) const { return rgba.data() + (std::size_t(y) * width + x) * 4; }
};

}  // namespace ws::viz
