// The headless EGL device context: a GL 3.3 core context without display or surface, rendering
// into a framebuffer whose pixels come back top-down.
#include "ws/viz/framebuffer.h"
#include "ws/viz/gl.h"
#include "ws/viz/headless_context.h"

#include <gtest/gtest.h>

TEST(Headless, ContextIsOpenGL33Core) {
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  ASSERT_TRUE(ctx) << err;
  EXPECT_FALSE(ctx->renderer().empty());
  GLint major = 0, minor = 0, profile = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
  EXPECT_GE(major * 10 + minor, 33);
  EXPECT_TRUE(profile & GL_CONTEXT_CORE_PROFILE_BIT);
}

TEST(Headless, FramebufferReadsTopDown) {
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  ASSERT_TRUE(ctx) << err;
  ws::viz::Framebuffer fb;
  ASSERT_TRUE(fb.resize(64, 32, err)) << err;
  fb.bind();
  glClearColor(0, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  // Red in the top 8 rows only (GL's y runs upwards, so the scissor sits at y = 24).
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 24, 64, 8);
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  ws::viz::Image img = fb.read();
  ASSERT_EQ(img.width, 64);
  ASSERT_EQ(img.height, 32);
  EXPECT_EQ(img.pixel(10, 0)[0], 255);   // top row: red
  EXPECT_EQ(img.pixel(10, 0)[2], 0);
  EXPECT_EQ(img.pixel(10, 31)[2], 255);  // bottom row: blue
  EXPECT_EQ(img.pixel(10, 31)[3], 255);
}

TEST(Headless, RejectsImpossibleSizes) {
  std::string err;
  auto ctx = ws::viz::HeadlessContext::create(err);
  ASSERT_TRUE(ctx) << err;
  ws::viz::Framebuffer fb;
  EXPECT_FALSE(fb.resize(0, 10, err));
  EXPECT_NE(err.find("0x10"), std::string::npos) << err;
}
