// The emulator backend's read-only analysis. A lane may read an allocation ahead of its warp's
// turn only when no argument of the launch can write it; otherwise it would miss a store that
// another warp issues before the load's turn comes.
#include <gtest/gtest.h>

#include <vector>

#include "ws/emu/backend.h"

using namespace ws;

namespace {

// Warp 0 writes what warp 1 reads after the barrier, through another view of the same memory.
__global__ void publish_then_read(ws::global_array<const int> in, ws::global_array<int> out,
                                  ws::global_array<int> res) {
  const unsigned tid = threadIdx.x;
  if (tid < 32) out[tid + 32] = 7;
  __syncthreads();
  if (tid >= 32) res[tid - 32] = in[tid];
}

}  // namespace

TEST(EmuBackend, AllocationWrittenThroughAnotherArgumentWaitsForItsTurn) {
  RunConfig cfg;
  RunResult out;
  EmuBackend be("test", cfg, out);
  auto a = be.upload<int>("a", std::vector<int>(64, 1));
  auto res = be.alloc<int>("res", 32);
  EXPECT_EQ(be.read_only_allocations(publish_then_read, a, a, res), (std::vector<uint8_t>{0, 0}));
  ASSERT_TRUE(be.launch("publish_then_read", {1, 1, 1}, {64, 1, 1}, 0, publish_then_read, a, a, res));
  EXPECT_EQ(be.download(res), std::vector<int>(32, 7));
}

TEST(EmuBackend, AllocationSeenOnlyAsConstIsReadAhead) {
  RunConfig cfg;
  RunResult out;
  EmuBackend be("test", cfg, out);
  auto in = be.upload<int>("in", std::vector<int>(64, 1));
  auto other = be.alloc<int>("other", 64);
  auto res = be.alloc<int>("res", 32);
  EXPECT_EQ(be.read_only_allocations(publish_then_read, in, other, res), (std::vector<uint8_t>{1, 0, 0}));
  ASSERT_TRUE(be.launch("publish_then_read", {1, 1, 1}, {64, 1, 1}, 0, publish_then_read, in, other, res));
  EXPECT_EQ(be.download(res), std::vector<int>(32, 1));
  // The trace is that of lockstep: warp 1 issues its read of `in` after the barrier.
  const Trace& t = out.launches.at(0);
  int barrier_seen = 0;
  for (const Event& e : t.events) {
    if (e.warp != 1) continue;
    if (e.type == EventType::Barrier) ++barrier_seen;
    if (e.type == EventType::Access && e.kind == AccessKind::Load) {
      EXPECT_EQ(barrier_seen, 1);
      EXPECT_EQ(e.mask, 0xffffffffu);
    }
  }
}

TEST(EmuBackend, AnythingButAPlainKernelFunctionLeavesEveryAllocationWritable) {
  RunConfig cfg;
  RunResult out;
  EmuBackend be("test", cfg, out);
  auto in = be.upload<int>("in", std::vector<int>(64, 1));
  auto functor = [](ws::global_array<const int>) {};
  EXPECT_EQ(be.read_only_allocations(functor, in), (std::vector<uint8_t>{0}));
}
