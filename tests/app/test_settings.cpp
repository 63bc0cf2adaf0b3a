// Settings survive a round trip, bad or unknown lines never stop the viewer, and the location
// follows XDG_CONFIG_HOME.
#include "shell/settings.h"

#include <gtest/gtest.h>

#include <cstdlib>

TEST(Settings, RoundTrip) {
  ws::app::Settings s;
  s.user_scale = 1.75f;
  s.start_in_presentation = true;
  s.user_arranged = true;
  s.hidden = {"timing", "memory-lab"};
  ws::app::Settings back = ws::app::parse_settings(ws::app::format_settings(s));
  EXPECT_FLOAT_EQ(back.user_scale, 1.75f);
  EXPECT_TRUE(back.start_in_presentation);
  EXPECT_TRUE(back.presentation);  // a run starts in it
  EXPECT_TRUE(back.user_arranged);
  EXPECT_EQ(back.hidden, s.hidden);
}

// Presentation mode turned on for a run (F11, --lesson) is not what the next run starts with.
TEST(Settings, PresentationForARunIsNotKept) {
  ws::app::Settings s;
  s.presentation = true;
  EXPECT_FALSE(ws::app::parse_settings(ws::app::format_settings(s)).presentation);
}

TEST(Settings, BadValuesAreIgnored) {
  ws::app::Settings s = ws::app::parse_settings("scale = 99\nnonsense\nfuture_key = 3\nscale=abc\n");
  EXPECT_FLOAT_EQ(s.user_scale, 1.0f);
  EXPECT_FALSE(s.presentation);
}

TEST(Settings, FollowsXdgConfigHome) {
  const char* old = std::getenv("XDG_CONFIG_HOME");
  std::string saved = old ? old : "";
  ::setenv("XDG_CONFIG_HOME", "/tmp/ws-xdg", 1);
  EXPECT_EQ(ws::app::settings_path(), "/tmp/ws-xdg/warpscope/settings.ini");
  EXPECT_EQ(ws::app::imgui_ini_path(), "/tmp/ws-xdg/warpscope/imgui.ini");
  ::unsetenv("XDG_CONFIG_HOME");
  EXPECT_NE(ws::app::config_dir().string().find(".config/warpscope"), std::string::npos);
  if (old) ::setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
}

TEST(Settings, SaveCreatesTheFolderAndWritesAtomically) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "ws-settings-test" / "nested";
  std::filesystem::remove_all(dir.parent_path());
  EXPECT_EQ(ws::app::save_text(dir / "settings.ini", "scale = 2\n"), "");
  EXPECT_FLOAT_EQ(ws::app::load_settings(dir / "settings.ini").user_scale, 2.0f);
  std::filesystem::remove_all(dir.parent_path());
}
