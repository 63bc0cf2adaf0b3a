// The block layout's grid without a window: every thread in a cell of its own, in the block's
// real shape (x across, y down), cut into pieces of whole warps only where it does not fit.
#include "views/block_layout.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace {

// The cells of warp `w`: their columns and rows.
std::set<std::pair<int, int>> warp_cells(const ws::app::BlockGrid& g, int w) {
  std::set<std::pair<int, int>> cells;
  for (int l = 0; l < 32; ++l) cells.insert({g.col[size_t(32 * w + l)], g.row[size_t(32 * w + l)]});
  return cells;
}

void expect_one_cell_each(const ws::app::BlockGrid& g, ws::Dim3 b) {
  std::set<std::pair<int, int>> used;
  ASSERT_EQ(g.col.size(), b.count());
  for (size_t t = 0; t < g.col.size(); ++t) {
    EXPECT_GE(g.col[t], 0);
    EXPECT_LT(g.col[t], g.cols);
    EXPECT_GE(g.row[t], 0);
    EXPECT_LT(g.row[t], g.rows);
    EXPECT_TRUE(used.insert({g.col[t], g.row[t]}).second) << "thread " << t;
  }
}

}  // namespace

// dim3(16,16): a warp is 16 threads across and 2 rows down; dim3(128,2): 32 across, 1 row.
TEST(BlockGrid, SixteenBySixteenAndOneTwentyEightByTwoHaveDifferentWarps) {
  const auto square = ws::app::block_grid({16, 16, 1}, 200, 200);
  expect_one_cell_each(square, {16, 16, 1});
  EXPECT_EQ(square.cols, 16);
  EXPECT_EQ(square.rows, 16);
  std::set<std::pair<int, int>> want;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 16; ++c) want.insert({c, r});
  EXPECT_EQ(warp_cells(square, 0), want);

  const auto strip = ws::app::block_grid({128, 2, 1}, 200, 200);
  expect_one_cell_each(strip, {128, 2, 1});
  EXPECT_EQ(strip.cols, 128);
  EXPECT_EQ(strip.rows, 2);
  want.clear();
  for (int c = 32; c < 64; ++c) want.insert({c, 0});
  EXPECT_EQ(warp_cells(strip, 1), want);
  EXPECT_TRUE(strip.caption.empty());
}

// 1024 x 1 cut into pieces of whole warps with an empty row between them: not the 32 x 32
// square, which has no empty rows.
TEST(BlockGrid, ALongRowIsCutIntoPiecesNotFoldedIntoASquare) {
  const auto row = ws::app::block_grid({1024, 1, 1}, 140, 200);
  expect_one_cell_each(row, {1024, 1, 1});
  EXPECT_EQ(row.x_piece, 128);  // whole warps: 140 cells fit, 4 warps of 32
  EXPECT_EQ(row.x_pieces, 8);
  EXPECT_EQ(row.rows, 8 + 7);   // 8 pieces and an empty row between each two
  EXPECT_EQ(row.caption, "x cut into 8 pieces of 128 threads, one under another");
  const auto square = ws::app::block_grid({32, 32, 1}, 140, 200);
  EXPECT_EQ(square.rows, 32);
  EXPECT_NE(row.rows, square.rows);
  // A warp is never cut: thread 127 ends a row piece, 128 starts the next one, two rows down.
  EXPECT_EQ(row.col[127], 127);
  EXPECT_EQ(row.col[128], 0);
  EXPECT_EQ(row.row[128], 2);
}

// A tall column is cut into pieces side by side, each a whole number of warps tall; z planes sit
// side by side when they fit.
TEST(BlockGrid, ATallColumnIsCutSideBySideAndPlanesFollowEachOther) {
  const auto tall = ws::app::block_grid({2, 512, 1}, 100, 40);
  expect_one_cell_each(tall, {2, 512, 1});
  EXPECT_EQ(tall.y_piece % 16, 0);  // 16 rows of 2 threads: one warp
  EXPECT_LE(tall.rows, 40);
  const auto cube = ws::app::block_grid({8, 8, 4}, 100, 100);
  expect_one_cell_each(cube, {8, 8, 4});
  EXPECT_TRUE(cube.planes_across);
  EXPECT_EQ(cube.cols, 4 * 8 + 3);
  EXPECT_EQ(cube.rows, 8);
  EXPECT_EQ(cube.col[64], 9);  // thread (0,0,1): the second plane, after an empty column
}
