// A test fixture with a headless OpenGL context (EGL device, Mesa's llvmpipe in CI): views and
// panels drawn into framebuffers without a display.
#pragma once

#include "ws/viz/headless_context.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace wstest {

class HeadlessGl : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    ctx_ = ws::viz::HeadlessContext::create(err);
    ASSERT_TRUE(ctx_) << err;
  }
  std::unique_ptr<ws::viz::HeadlessContext> ctx_;
};

}  // namespace wstest
