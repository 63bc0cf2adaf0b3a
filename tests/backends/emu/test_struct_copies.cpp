// A struct copy is recorded as the compiler makes it: member-wide accesses in order (a 12-byte
// struct of floats is three 4-byte loads), so the counts are Nsight Compute's: for a warp reading
// consecutive 12-byte structs, 3 requests of 12 sectors (measured with ncu on the kernel:
// 3 requests, 36 sectors). A vector type (float4) stays one 16-byte access.
#include <gtest/gtest.h>

#include "emu_test_util.h"
#include "ws/analysis/analysis.h"
#include "ws/kernel.cuh"

using namespace ws;

struct Vec3 {
  float x, y, z;
};
struct Pair {
  float a, b;
};

__global__ void copy_vec3(ws::global_array<const Vec3> pin, ws::global_array<Vec3> pout) {
  unsigned i = threadIdx.x;
  Vec3 p = pin[i];
  p.x += 1.0f;
  pout[i] = p;
}

__global__ void copy_pair(ws::global_array<const Pair> pin, ws::global_array<Pair> pout) {
  unsigned i = threadIdx.x;
  Pair p = pin[i];
  pout[i] = Pair{p.b, p.a};
}

// `in + 16`: the CUDA pointer arithmetic on a wrapper; the views still say in[16 + i].
__global__ void copy_from_offset(ws::global_array<const float> in, ws::global_array<float> out) {
  ws::global_array<const float> tail = in + 16;
  unsigned i = threadIdx.x;
  out[i] = tail[i];
}

__global__ void copy_float4(ws::global_array<const float4> in, ws::global_array<float4> out) {
  unsigned i = threadIdx.x;
  float4 v = in[i];
  out[i] = v;
}

namespace {

analysis::Report analyzed(const Trace& t) {
  analysis::Options o;
  o.per_event = false;
  o.heat_bins = 0;
  return analysis::analyze(t, o);
}

TEST(StructCopies, AStructOfThreeFloatsIsThreeLoadsAndThreeStores) {
  for (test::RunAhead mode : test::kRunAheadModes) {
    emu::Memory mem;
    std::vector<Vec3> input(32);
    for (int i = 0; i < 32; ++i) input[size_t(i)] = {float(i), float(2 * i), float(3 * i)};
    auto in = mem.upload<Vec3>("pin", input);
    auto out = mem.alloc<Vec3>("pout", 32);
    auto r = emu::launch(mem, test::options(1, 32, mode), {}, [=] { copy_vec3(in, out); });
    ASSERT_TRUE(r.ok()) << test::to_string(mode);
    const std::vector<Vec3> got = mem.download(out);
    for (int i = 0; i < 32; ++i) {
      EXPECT_EQ(got[size_t(i)].x, float(i) + 1.0f);
      EXPECT_EQ(got[size_t(i)].y, float(2 * i));
      EXPECT_EQ(got[size_t(i)].z, float(3 * i));
    }
    const auto loads = test::events_at(r.trace, "Vec3 p = pin[i]", EventType::Access, AccessKind::Load, 0, 0);
    ASSERT_EQ(loads.size(), 3u) << test::to_string(mode);
    for (const Event& e : loads) EXPECT_EQ(e.width, 4);
    EXPECT_EQ(test::events_at(r.trace, "pout[i] = p", EventType::Access, AccessKind::Store, 0, 0).size(), 3u);
    const analysis::Report rep = analyzed(r.trace);
    EXPECT_EQ(rep.totals.global[0].requests, 3u);
    EXPECT_EQ(rep.totals.global[0].sectors, 36u);  // 384 bytes = 12 sectors, touched by each member load
    EXPECT_EQ(rep.totals.global[1].requests, 3u);
    EXPECT_EQ(rep.totals.global[1].sectors, 36u);
  }
}

TEST(StructCopies, ASmallStructsStoreIsTwoPiecesWithTheirBytes) {
  emu::Memory mem;
  std::vector<Pair> input(32);
  for (int i = 0; i < 32; ++i) input[size_t(i)] = {float(i), -float(i)};
  auto in = mem.upload<Pair>("pin", input);
  auto out = mem.alloc<Pair>("pout", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { copy_pair(in, out); });
  ASSERT_TRUE(r.ok());
  const std::vector<Pair> got = mem.download(out);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(got[size_t(i)].a, -float(i));
    EXPECT_EQ(got[size_t(i)].b, float(i));
  }
  const auto stores = test::events_at(r.trace, "pout[i] = Pair{p.b, p.a}", EventType::Access, AccessKind::Store, 0, 0);
  ASSERT_EQ(stores.size(), 2u);
  EXPECT_EQ(stores[0].width, 4);
}

TEST(OffsetViews, AreElementsOfTheirAllocation) {
  emu::Memory mem;
  std::vector<float> input(64);
  for (int i = 0; i < 64; ++i) input[size_t(i)] = float(i) * 0.5f;
  auto in = mem.upload<float>("in", input);
  auto out = mem.alloc<float>("out", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { copy_from_offset(in, out); });
  ASSERT_TRUE(r.ok());
  const std::vector<float> got = mem.download(out);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(got[size_t(i)], input[size_t(16 + i)]);
  const auto loads = test::events_at(r.trace, "out[i] = tail[i]", EventType::Access, AccessKind::Load, 0, 0);
  ASSERT_EQ(loads.size(), 1u);
  const std::vector<uint64_t> offsets(r.trace.lanes(loads[0]).begin(), r.trace.lanes(loads[0]).end());
  ASSERT_EQ(offsets.size(), 32u);
  EXPECT_EQ(offsets[0], 16u * 4u);  // byte offset of in[16] in its allocation
  EXPECT_EQ(offsets[31], 47u * 4u);
  // Past the allocation's end through the view: a fault that names the allocation's element.
  auto out2 = mem.alloc<float>("out2", 64);
  auto bad = emu::launch(mem, test::options(1, 64), {}, [=] { copy_from_offset(in, out2); });
  EXPECT_FALSE(bad.ok());
}

TEST(StructCopies, AVectorTypeStaysOneWideAccess) {
  emu::Memory mem;
  std::vector<float4> input(32);
  for (int i = 0; i < 32; ++i) input[size_t(i)] = {float(i), 1, 2, 3};
  auto in = mem.upload<float4>("in", input);
  auto out = mem.alloc<float4>("out", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { copy_float4(in, out); });
  ASSERT_TRUE(r.ok());
  const auto loads = test::events_at(r.trace, "float4 v = in[i]", EventType::Access, AccessKind::Load, 0, 0);
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(loads[0].width, 16);
  static_assert(access_pieces<float4>::count == 1 && access_pieces<Vec3>::count == 3 && access_pieces<Vec3>::width == 4);
  static_assert(access_pieces<double>::count == 1 && access_pieces<Pair>::count == 2);
}

}  // namespace
