// The catalog's variant tables (kernels/common/variant_table.h): the spec, the rules and the launch
// of a variant all come from its row, and only the called row's launch runs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/variant_table.h"

using namespace ws;

namespace {

// A backend that only notes what was launched.
struct FakeBackend {
  std::vector<std::string> launched;
  bool launch(const std::string& entry) {
    launched.push_back(entry);
    return entry != "fails";
  }
};

struct Pass {
  unsigned block;
};

std::string even_blocks(const RunConfig& c) { return c.block.x % 2 ? "odd block " + std::to_string(c.block.x) : ""; }
Dim3 square(Dim3 b) { return {b.x, b.x, 1}; }

auto rows() {
  return std::make_tuple(
      row({.id = "a", .name = "first", .summary = "one", .grid = {.per_thread = 2}},
          [](auto& be, const Pass&) { return be.launch("a"); }),
      row({.id = "b", .name = "second", .summary = "two", .broken = true, .broken_note = "why", .order_dependent = true,
           .accepts = even_blocks, .shape = square},
          [](auto& be, const Pass& p) {
            return with_constant<8, 16>(p.block, [&](auto b) { return be.launch("b<" + std::to_string(decltype(b)::value) + ">"); });
          }),
      row({.id = "c", .name = "third", .summary = "three", .gpu_only = true}, 42,  // a row with data of its own
          [](auto& be, const Pass&) { return be.launch("fails"); }));
}

}  // namespace

TEST(VariantTable, SpecComesFromTheRowsInOrder) {
  const std::vector<VariantSpec> v = variant_specs(rows());
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].id, "a");
  EXPECT_EQ(v[1].name, "second");
  EXPECT_TRUE(v[1].broken);
  EXPECT_EQ(v[1].broken_note, "why");
  EXPECT_TRUE(v[1].order_dependent);
  EXPECT_FALSE(v[0].order_dependent);
  EXPECT_TRUE(v[2].gpu_only);
  EXPECT_FALSE(find_variant(rows(), "z").has_value());
  EXPECT_EQ(*variant_extra(std::make_tuple(std::get<2>(rows())), "c"), 42);
}

TEST(VariantTable, RulesSeeTheShapedBlock) {
  RunConfig c;
  c.variant = "a";
  c.block = {3, 1, 1};
  EXPECT_EQ(check_variant(rows(), c), "");  // no rule
  c.variant = "b";
  EXPECT_EQ(check_variant(rows(), c), "odd block 3");
  c.block = {8, 1, 1};
  EXPECT_EQ(check_variant(rows(), c), "");
  EXPECT_EQ(find_variant(rows(), "b")->block_for(c.block), (Dim3{8, 8, 1}));
  EXPECT_EQ(find_variant(rows(), "a")->block_for(c.block), (Dim3{8, 1, 1}));
  c.variant = "nope";
  EXPECT_NE(check_variant(rows(), c), "");
}

TEST(VariantTable, OnlyTheNamedRowLaunches) {
  FakeBackend be;
  EXPECT_TRUE(launch_variant(rows(), "b", be, Pass{16}));
  EXPECT_FALSE(launch_variant(rows(), "b", be, Pass{32}));  // no template for a block of 32
  EXPECT_FALSE(launch_variant(rows(), "c", be, Pass{8}));   // the launch failed
  EXPECT_FALSE(launch_variant(rows(), "z", be, Pass{8}));   // no such row
  EXPECT_EQ(be.launched, (std::vector<std::string>{"b<16>", "fails"}));
}

TEST(VariantTable, GridRules) {
  RunConfig c;
  EXPECT_EQ((GridRule{.per_thread = 1}.blocks(1000, 256, c)), 4u);
  EXPECT_EQ((GridRule{.per_thread = 2}.blocks(1000, 256, c)), 2u);
  EXPECT_EQ((GridRule{}.blocks(0, 256, c)), 1u);  // at least one block
  // Grid-stride: capped by max_blocks (64 unless set), or set by per_thread.
  EXPECT_EQ((GridRule{.grid_stride = true}.blocks(1 << 20, 256, c)), 64u);
  c.params["max_blocks"] = 7;
  EXPECT_EQ((GridRule{.grid_stride = true}.blocks(1 << 20, 256, c)), 7u);
  c.params["per_thread"] = 16;
  EXPECT_EQ((GridRule{.grid_stride = true}.blocks(100000, 128, c)), 49u);
  // 2D, over a 70 x 45 (rows x cols) matrix.
  EXPECT_EQ((GridRule{}.blocks_2d({32, 8, 1}, 70, 45)), (Dim3{2, 9, 1}));
  EXPECT_EQ((GridRule{.transposed = true}.blocks_2d({32, 8, 1}, 70, 45)), (Dim3{3, 6, 1}));
  EXPECT_EQ((GridRule{.square_tile = true}.blocks_2d({32, 8, 1}, 70, 45)), (Dim3{2, 3, 1}));
  EXPECT_EQ((GridRule{.per_thread = 8}.blocks_2d({8, 8, 1}, 130, 130)), (Dim3{3, 3, 1}));
}
