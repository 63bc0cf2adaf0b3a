// PNG export: encoding round trip and atomic files (no half file, no temporary left behind).
#include "ws/viz/png.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const char* name) {
  fs::path d = fs::temp_directory_path() / ("ws-viz-" + std::string(name) + "-" + std::to_string(std::random_device{}()));
  fs::create_directories(d);
  return d;
}

ws::viz::Image gradient(int w, int h) {
  ws::viz::Image img{w, h, {}};
  img.rgba.resize(size_t(w) * h * 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t* p = img.rgba.data() + (size_t(y) * w + x) * 4;
      p[0] = uint8_t(x * 7), p[1] = uint8_t(y * 13), p[2] = uint8_t(x ^ y), p[3] = 255;
    }
  return img;
}

}  // namespace

TEST(Png, RoundTripKeepsEveryPixel) {
  fs::path dir = fresh_dir("roundtrip");
  ws::viz::Image img = gradient(37, 21);  // odd sizes: no row-alignment luck
  ASSERT_EQ(ws::viz::save_png(dir / "g.png", img), "");
  ws::viz::Image back;
  std::string err;
  ASSERT_TRUE(ws::viz::load_png(dir / "g.png", back, err)) << err;
  EXPECT_EQ(back.width, 37);
  EXPECT_EQ(back.height, 21);
  EXPECT_EQ(back.rgba, img.rgba);
  // Only the target: the temporary was renamed, not left next to it.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
  fs::remove_all(dir);
}

TEST(Png, UnwritablePathNamesPathAndLeavesNothing) {
  fs::path dir = fresh_dir("unwritable");
  fs::path target = dir / "missing-subdir" / "x.png";
  std::string err = ws::viz::save_png(target, gradient(4, 4));
  EXPECT_NE(err.find(target.string()), std::string::npos) << err;
  EXPECT_NE(err.find("No such file or directory"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(target));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 0);
  fs::remove_all(dir);
}

TEST(Png, FailedWriteKeepsThePreviousFile) {
  fs::path dir = fresh_dir("keep");
  fs::path target = dir / "slide.png";
  ASSERT_EQ(ws::viz::save_png(target, gradient(8, 8)), "");
  auto before = fs::file_size(target);
  // An empty image cannot be encoded: the old picture must survive untouched.
  EXPECT_NE(ws::viz::save_png(target, ws::viz::Image{}), "");
  EXPECT_EQ(fs::file_size(target), before);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
  fs::remove_all(dir);
}

TEST(Png, LoadReportsDamagedFile) {
  fs::path dir = fresh_dir("damaged");
  std::vector<uint8_t> bytes = ws::viz::encode_png(gradient(16, 16));
  bytes.resize(bytes.size() / 2);
  {
    std::FILE* f = std::fopen((dir / "half.png").c_str(), "wb");
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  ws::viz::Image img;
  std::string err;
  EXPECT_FALSE(ws::viz::load_png(dir / "half.png", img, err));
  EXPECT_NE(err.find("half.png"), std::string::npos);
  fs::remove_all(dir);
}
