// One set of rules for a launch typed on the command line or in a lesson: what is accepted, and
// the words of each refusal (a person reads them).
#include "ws/run/launch_text.h"

#include <gtest/gtest.h>

namespace {

std::string apply(ws::LaunchText t, ws::RunConfig& cfg) { return ws::apply_launch_text(t, cfg); }

}  // namespace

TEST(LaunchText, WhatIsGivenReachesTheConfigAndTheRestKeepsItsDefault) {
  ws::LaunchText t;
  t.variant = "3";
  t.n = "65536";
  t.block = "16,16";
  t.seed = "18446744073709551615";
  t.blocks = "0,5,4294967295";
  t.workers = "2";
  t.params = {"stride=33", "offset=-4", "tile=+8"};
  ws::RunConfig cfg;
  ASSERT_EQ(apply(t, cfg), "");
  EXPECT_EQ(cfg.variant, "3");
  EXPECT_EQ(cfg.n, 65536u);
  EXPECT_EQ(cfg.block, (ws::Dim3{16, 16, 1}));
  EXPECT_EQ(cfg.seed, 18446744073709551615ull);
  EXPECT_EQ(cfg.record.blocks, (std::vector<uint32_t>{0, 5, 4294967295u}));
  EXPECT_EQ(cfg.emu.workers, 2u);
  EXPECT_EQ(cfg.params.at("stride"), 33);
  EXPECT_EQ(cfg.params.at("offset"), -4);
  EXPECT_EQ(cfg.params.at("tile"), 8);
  EXPECT_EQ(cfg.record.max_events, ws::RunConfig{}.record.max_events);  // not given: unchanged
  EXPECT_EQ(cfg.grid, (ws::Dim3{0, 1, 1}));
  t = {};
  t.blocks = "all";
  cfg.record.blocks = {3};
  ASSERT_EQ(apply(t, cfg), "");
  EXPECT_TRUE(cfg.record.blocks.empty());
}

TEST(LaunchText, EachWrongValueIsRefusedWithWhatIsAllowed) {
  struct Case {
    ws::LaunchText t;
    std::string message;
  };
  auto with = [](auto set) {
    ws::LaunchText t;
    set(t);
    return t;
  };
  const Case cases[] = {
      {with([](auto& t) { t.n = "-5"; }), "n = -5: n is a whole number from 1 to 4294967295"},
      {with([](auto& t) { t.n = "0"; }), "n = 0: n is a whole number from 1 to 4294967295"},
      {with([](auto& t) { t.n = "4294967296"; }), "n = 4294967296: n is a whole number from 1 to 4294967295"},
      {with([](auto& t) { t.n = "1e6"; }), "n = 1e6: n is a whole number from 1 to 4294967295"},
      {with([](auto& t) { t.block = "0"; }),
       "block '0' is not a shape: write X, X,Y or X,Y,Z with whole numbers >= 1 (e.g. 256 or 16,16)"},
      {with([](auto& t) { t.block = "0,4"; }),
       "block '0,4' is not a shape: write X, X,Y or X,Y,Z with whole numbers >= 1 (e.g. 256 or 16,16)"},
      {with([](auto& t) { t.block = "16,16,1,1"; }),
       "block '16,16,1,1' is not a shape: write X, X,Y or X,Y,Z with whole numbers >= 1 (e.g. 256 or 16,16)"},
      {with([](auto& t) { t.block = "16,"; }),
       "block '16,' is not a shape: write X, X,Y or X,Y,Z with whole numbers >= 1 (e.g. 256 or 16,16)"},
      {with([](auto& t) { t.grid = "-1"; }),
       "grid '-1' is not a shape: write X, X,Y or X,Y,Z with whole numbers >= 1 (e.g. 256 or 16,16)"},
      {with([](auto& t) { t.seed = "-1"; }), "seed = -1: seed is a whole number >= 0"},
      {with([](auto& t) { t.max_events = "-1"; }), "max-events = -1: max-events is a whole number >= 1"},
      {with([](auto& t) { t.workers = "5000"; }), "workers = 5000: workers is a whole number from 0 to 1024"},
      {with([](auto& t) { t.blocks = "4294967296"; }),
       "blocks '4294967296' is not 'all' or a list of block indices from 0 to 4294967295 (e.g. 0,1,7)"},
      {with([](auto& t) { t.blocks = "1,,2"; }),
       "blocks '1,,2' is not 'all' or a list of block indices from 0 to 4294967295 (e.g. 0,1,7)"},
      {with([](auto& t) { t.params = {"stride"}; }), "parameter 'stride' is not NAME=VALUE (e.g. stride=8)"},
      // (8.5 is a number: whether stride takes it is the kernel's to say, Catalog::check)
      {with([](auto& t) { t.params = {"stride=1e999"}; }), "parameter stride = '1e999': the value is a number (8, -1, 2.5)"},
      {with([](auto& t) { t.params = {"stride=-"}; }), "parameter stride = '-': the value is a number (8, -1, 2.5)"},
      {with([](auto& t) { t.params = {"stride= 8"}; }), "parameter stride = ' 8': the value is a number (8, -1, 2.5)"},
      {with([](auto& t) { t.params = {"=8"}; }), "parameter '=8' is not NAME=VALUE (e.g. stride=8)"},
  };
  for (const Case& c : cases) {
    ws::RunConfig cfg;
    EXPECT_EQ(apply(c.t, cfg), c.message);
  }
}
