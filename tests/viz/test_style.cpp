// Themes and fonts: scaling from a fresh style, sharp fonts at the requested pixel size, and a
// missing font reported rather than silently replaced.
#include "ws/util/atomic_file.h"
#include "ws/viz/fonts.h"
#include "ws/viz/look.h"
#include "ws/viz/theme.h"

#include <gtest/gtest.h>

#include <fstream>

TEST(Style, ScalingStartsFromAFreshStyleEveryTime) {
  ImGuiStyle one = ws::viz::make_style(ws::viz::Theme::Dark, 1.0f);
  ImGuiStyle two = ws::viz::make_style(ws::viz::Theme::Dark, 2.0f);
  ImGuiStyle two_again = ws::viz::make_style(ws::viz::Theme::Dark, 2.0f);
  EXPECT_FLOAT_EQ(two.FramePadding.y, 2 * one.FramePadding.y);
  EXPECT_FLOAT_EQ(two.WindowPadding.x, 2 * one.WindowPadding.x);
  EXPECT_FLOAT_EQ(two_again.FramePadding.y, two.FramePadding.y);  // no compounding
}

TEST(Style, HighContrastIsBlackAndWhite) {
  ImGuiStyle s = ws::viz::make_style(ws::viz::Theme::HighContrast, 1.0f);
  EXPECT_EQ(s.Colors[ImGuiCol_WindowBg].x, 0.0f);
  EXPECT_EQ(s.Colors[ImGuiCol_Text].x, 1.0f);
  ImGuiStyle d = ws::viz::make_style(ws::viz::Theme::Dark, 1.0f);
  // Title bars must be told apart from the menu bar and from each other in screenshots.
  EXPECT_NE(d.Colors[ImGuiCol_TitleBg].z, d.Colors[ImGuiCol_TitleBgActive].z);
  EXPECT_NE(d.Colors[ImGuiCol_TitleBg].z, d.Colors[ImGuiCol_MenuBarBg].z);
}

TEST(Look, PresentationEnlargesTheFont) {
  ws::viz::Look normal{1.5f, false}, talk{1.5f, true};
  EXPECT_FLOAT_EQ(normal.font_px(), ws::viz::kBaseFontPx * 1.5f);
  EXPECT_FLOAT_EQ(talk.font_px(), normal.font_px() * ws::viz::kPresentationFontFactor);
  EXPECT_EQ(talk.theme(), ws::viz::Theme::HighContrast);
}

TEST(Fonts, TrueTypeAtTheRequestedPixelSize) {
  ws::viz::FontPaths paths = ws::viz::default_font_paths();
  ASSERT_FALSE(paths.ui.empty()) << "configure found no UI font (fonts-dejavu-core)";
  ImFontAtlas atlas;
  EXPECT_EQ(ws::viz::build_fonts(atlas, 24.0f, paths), "");
  ASSERT_EQ(atlas.Fonts.Size, 4);  // UI, mono, and the UI font for headings and captions
  EXPECT_FLOAT_EQ(atlas.Fonts[2]->FontSize, 45.0f);
  EXPECT_FLOAT_EQ(atlas.Fonts[3]->FontSize, 36.0f);
  EXPECT_FLOAT_EQ(atlas.Fonts[0]->FontSize, 24.0f);
  EXPECT_FLOAT_EQ(atlas.Fonts[1]->FontSize, 24.0f);
  EXPECT_NE(atlas.Fonts[0]->FindGlyphNoFallback(0x25B8), nullptr);  // the menu arrow we write
}

TEST(Fonts, MissingFontIsReportedWithThePackageToInstall) {
  ImFontAtlas atlas;
  std::string warning = ws::viz::build_fonts(atlas, 20.0f, {"/nonexistent/Sans.ttf", "/nonexistent/Mono.ttf"});
  EXPECT_NE(warning.find("/nonexistent/Sans.ttf"), std::string::npos) << warning;
  EXPECT_NE(warning.find("fonts-dejavu-core"), std::string::npos) << warning;
  EXPECT_GE(atlas.Fonts.Size, 1);  // something to draw the warning with
}

// The font check holds a real font to the sfnt layout and refuses what is not one, or is cut off.
TEST(Fonts, AFontFileIsCheckedBeforeImGuiReadsIt) {
  std::string bytes, error;
  ASSERT_TRUE(ws::read_file(ws::viz::default_font_paths().ui, bytes, error)) << error;
  EXPECT_EQ(ws::viz::font_file_problem(bytes), "");
  EXPECT_NE(ws::viz::font_file_problem("this is not a font, whatever its name says"), "");
  EXPECT_NE(ws::viz::font_file_problem(std::string(4096, '\0')), "");
  // Cut anywhere after its table directory, a table ends past the file.
  EXPECT_NE(ws::viz::font_file_problem(bytes.substr(0, bytes.size() / 2)), "");
  EXPECT_NE(ws::viz::font_file_problem(bytes.substr(0, 200)), "");
}

// A font whose table directory is sound but whose contents lie (the character map points 2 GB
// past the file): ImGui's rasteriser trusts the contents and would read there. The font is tried
// in a child process first, so the viewer goes on with the bitmap font and says why.
TEST(Fonts, AFontThatWouldCrashTheRasteriserIsRefused) {
  std::string bytes, error;
  ASSERT_TRUE(ws::read_file(ws::viz::default_font_paths().ui, bytes, error)) << error;
  auto be32 = [&](size_t at) {
    return uint32_t(uint8_t(bytes[at])) << 24 | uint32_t(uint8_t(bytes[at + 1])) << 16 |
           uint32_t(uint8_t(bytes[at + 2])) << 8 | uint32_t(uint8_t(bytes[at + 3]));
  };
  const uint32_t tables = uint32_t(uint8_t(bytes[4])) << 8 | uint8_t(bytes[5]);
  size_t cmap = 0;
  for (uint32_t k = 0; k < tables; ++k)
    if (be32(12 + k * 16) == 0x636d6170u) cmap = be32(12 + k * 16 + 8);
  ASSERT_NE(cmap, 0u);
  const uint32_t subtables = uint32_t(uint8_t(bytes[cmap + 2])) << 8 | uint8_t(bytes[cmap + 3]);
  for (uint32_t k = 0; k < subtables; ++k) {  // every encoding record's offset: 0x7ffffff0
    const size_t at = cmap + 4 + k * 8 + 4;
    bytes[at] = char(0x7f), bytes[at + 1] = char(0xff), bytes[at + 2] = char(0xff), bytes[at + 3] = char(0xf0);
  }
  ASSERT_EQ(ws::viz::font_file_problem(bytes), "");  // (its directory still holds)
  const std::string path = ::testing::TempDir() + "/lying_cmap.ttf";
  std::ofstream(path, std::ios::binary) << bytes;
  ImFontAtlas atlas;
  const std::string warning = ws::viz::build_fonts(atlas, 20.0f, {path, ws::viz::default_font_paths().mono});
  EXPECT_NE(warning.find(path), std::string::npos) << warning;
  EXPECT_NE(warning.find("crashed"), std::string::npos) << warning;
  EXPECT_GE(atlas.Fonts.Size, 1);
}
