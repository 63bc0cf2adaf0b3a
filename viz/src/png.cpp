#include "ws/viz/png.h"

#include "ws/util/atomic_file.h"

#include <stb_image.h>
#include <stb_image_write.h>

namespace ws::viz {

std::vector<uint8_t> encode_png(const Image& image) {
  std::vector<uint8_t> out;
  if (image.width <= 0 || image.height <= 0) return out;
  auto append = [](void* ctx, void* data, int size) {
    auto* v = static_cast<std::vector<uint8_t>*>(ctx);
    auto* p = static_cast<const uint8_t*>(data);
    v->insert(v->end(), p, p + size);
  };
  int ok = stbi_write_png_to_func(append, &out, image.width, image.height, 4, image.rgba.data(),
                                  image.width * 4);
  if (!ok) out.clear();
  return out;
}

std::string save_png(const std::filesystem::path& path, const Image& image) {
  std::vector<uint8_t> bytes = encode_png(image);
  if (bytes.empty()) return "cannot encode " + path.string() + " as PNG (empty image)";
  return ws::write_file_atomic(path, bytes);
}

bool load_png(const std::filesystem::path& path, Image& out, std::string& error) {
  int w = 0, h = 0, n = 0;
  unsigned char* data = stbi_load(path.c_str(), &w, &h, &n, 4);
  if (!data) {
    error = "cannot read PNG " + path.string() + ": " + stbi_failure_reason();
    return false;
  }
  out.width = w;
  out.height = h;
  out.rgba.assign(data, data + size_t(w) * h * 4);
  stbi_image_free(data);
  return true;
}

}  // namespace ws::viz
