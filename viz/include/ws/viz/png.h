// PNG encoding (stb_image_write, from Debian's libstb) and atomic PNG files.
//
//   std::string err = ws::viz::save_png("slide.png", image);   // "" on success
//
// The image is encoded in memory first and written with ws::write_file_atomic, so a failed
// write never leaves a half PNG behind.
#pragma once

#include "ws/viz/image.h"

#include <filesystem>
#include <string>

namespace ws::viz {

std::vector<uint8_t> encode_png(const Image& image);
// Returns "" on success, else a message naming the path and the reason.
std::string save_png(const std::filesystem::path& path, const Image& image);
// Decodes a PNG file into RGBA8 (for tests and tools). Returns false and sets `error` on failure.
bool load_png(const std::filesystem::path& path, Image& out, std::string& error);

}  // namespace ws::viz
