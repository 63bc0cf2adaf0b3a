// Which blocks a launch records of those asked for: the ones its grid has; the first launch says
// which it does not have, a later smaller one falls back to block 0.
#include "ws/run/recorded_blocks.h"

#include <gtest/gtest.h>

using ws::recorded_blocks;

TEST(RecordedBlocks, TheGridsBlocksAreKeptTheOthersSaid) {
  auto r = recorded_blocks({0, 3, 999}, 16, true);
  EXPECT_EQ(r.blocks, (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(r.note, "block 999 is not in the grid (16 blocks, 0 to 15): not recorded");
  r = recorded_blocks({999, 1000}, 16, true);
  EXPECT_EQ(r.blocks, (std::vector<uint32_t>{0}));
  EXPECT_EQ(r.note, "blocks 999, 1000 are not in the grid (16 blocks, 0 to 15): block 0 is recorded instead");
  // A multi-pass driver's second launch of one block: block 0, nothing to say.
  r = recorded_blocks({2, 5}, 1, false);
  EXPECT_EQ(r.blocks, (std::vector<uint32_t>{0}));
  EXPECT_EQ(r.note, "");
  // Nothing asked: every block, nothing to choose.
  r = recorded_blocks({}, 16, true);
  EXPECT_TRUE(r.blocks.empty());
  EXPECT_EQ(r.note, "");
}
