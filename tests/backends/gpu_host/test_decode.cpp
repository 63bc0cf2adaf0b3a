// The host side of gpu-trace, on the CPU: records built here are decoded into a Trace, and the
// cross-check compares traces of the two backends.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "../emu/emu_test_util.h"
#include "../emu/test_kernels.cuh"
#include "ws/analysis/crosscheck.h"
#include "ws/gpu/decode.h"

using namespace ws;

namespace {

gpu_trace::Record access(uint32_t block, uint16_t warp, uint32_t line, uint32_t mask, uint8_t kind, uint8_t space,
                         uint64_t alloc, std::initializer_list<uint64_t> offsets) {
  gpu_trace::Record r{};
  r.time = 1000 + line;
  r.file = 0xabc;
  r.alloc = alloc;
  r.line = line;
  r.column = 7;
  r.block = block;
  r.mask = mask;
  r.warp = warp;
  r.type = gpu_trace::kRecordAccess;
  r.kind = kind;
  r.width = 4;
  r.space = space;
  r.elem_size = 4;
  auto it = offsets.begin();
  for (uint32_t m = mask; m; m &= m - 1) r.offsets[std::countr_zero(m)] = *it++;
  return r;
}

gpu::DecodeInput base_input() {
  gpu::DecodeInput in;
  in.launch.kernel = "reduce";
  in.launch.backend = "gpu-trace";
  Allocation g;
  g.name = "g_idata";
  g.elem_size = 4;
  g.extent = 64;
  g.base = 0x7000;
  in.globals = {g};
  in.capacity = 100;
  in.full_blocks = {0, 1};
  in.total_blocks = 2;
  in.read_string = [](uint64_t address) {
    return address == 0xabc ? std::string("/home/u/warpscope/kernels/reduction/reduce.cuh") : std::string();
  };
  return in;
}

}  // namespace

TEST(GpuDecode, RecordsBecomeEventsByBlockThenIssueOrder) {
  gpu::DecodeInput in = base_input();
  in.records.push_back(access(1, 0, 20, 0x0000000f, 0, 0, 0, {0, 4, 8, 12}));
  gpu_trace::Record shared = access(0, 1, 30, 0x00000006, 1, 1, 0, {4, 8});
  shared.shared_base = 128;
  shared.extent = 256;
  std::strcpy(shared.name, "sdata");
  in.records.push_back(shared);
  gpu_trace::Record bar{};
  bar.type = gpu_trace::kRecordBarrier;
  bar.block = 0;
  bar.warp = 1;
  bar.mask = 0xffffffff;
  bar.file = 0xabc;
  bar.line = 31;
  bar.time = 2000;
  in.records.push_back(bar);
  in.reserved = in.records.size();

  const Trace t = gpu::decode(in);
  ASSERT_EQ(t.events.size(), 3u);
  // Block 0 first (its store, then its barrier), then block 1.
  EXPECT_EQ(t.events[0].block, 0u);
  EXPECT_EQ(t.events[0].kind, AccessKind::Store);
  EXPECT_EQ(t.events[0].space, MemSpace::Shared);
  EXPECT_EQ(t.events[0].step, 0u);
  EXPECT_EQ(t.events[1].type, EventType::Barrier);
  EXPECT_EQ(t.events[1].step, 1u);
  EXPECT_EQ(t.events[2].block, 1u);
  // The shared array got an allocation named from its record, at its real shared address.
  const Allocation& sdata = t.allocations.at(t.events[0].alloc);
  EXPECT_EQ(sdata.name, "sdata");
  EXPECT_EQ(sdata.base, 128u);
  EXPECT_EQ(sdata.extent, 256u);
  EXPECT_EQ(element_name(sdata, t.lanes(t.events[0])[1]), "sdata[2]");
  // Lanes in lane order, addresses from the global allocation's base.
  auto lanes = t.lanes(t.events[2]);
  ASSERT_EQ(lanes.size(), 4u);
  EXPECT_EQ(t.address(t.events[2], lanes[3]), 0x7000u + 12);
  EXPECT_EQ(t.sites.at(t.events[2].site).file, "reduction/reduce.cuh");
  EXPECT_EQ(t.sites.at(t.events[2].site).line, 20u);
  EXPECT_FALSE(t.truncated);
}

TEST(GpuDecode, FullBufferIsReportedNotSilent) {
  gpu::DecodeInput in = base_input();
  in.capacity = 2;
  in.reserved = 10;
  in.records.push_back(access(0, 0, 20, 1, 0, 0, 0, {0}));
  in.records.push_back(access(0, 0, 21, 1, 0, 0, 0, {4}));
  const Trace t = gpu::decode(in);
  EXPECT_TRUE(t.truncated);
  EXPECT_EQ(t.dropped_events, 8u);
  EXPECT_EQ(t.events.size(), 2u);
  ASSERT_FALSE(t.diagnostics.empty());
  EXPECT_EQ(t.diagnostics.back().code, "truncated");
}

TEST(GpuDecode, UnknownAllocationIsSkippedWithAWarning) {
  gpu::DecodeInput in = base_input();
  in.records.push_back(access(0, 0, 20, 1, 0, 0, 7, {0}));
  in.reserved = 1;
  const Trace t = gpu::decode(in);
  EXPECT_TRUE(t.events.empty());
  ASSERT_EQ(t.diagnostics.size(), 1u);
  EXPECT_EQ(t.diagnostics[0].code, "unknown-allocation");
}

TEST(GpuDecode, SiteCountersAreSummedOverSms) {
  gpu::DecodeInput in = base_input();
  for (int sm = 0; sm < 2; ++sm) {
    gpu_trace::SiteCounter c{};
    c.key = 0x1235;
    c.file = 0xabc;
    c.line = 40;
    c.column = 3;
    c.kind = 0;
    c.space = 1;
    c.width = 4;
    c.instructions = 10 + sm;
    c.lanes = 320;
    c.wavefronts = 20;
    c.ideal_wavefronts = 10;
    in.counters.push_back(c);
  }
  in.counters.push_back(gpu_trace::SiteCounter{});  // a free slot
  const Trace t = gpu::decode(in);
  ASSERT_EQ(t.site_counters.size(), 1u);
  EXPECT_EQ(t.site_counters[0].instructions, 21u);
  EXPECT_EQ(t.site_counters[0].wavefronts, 40u);
  EXPECT_EQ(t.site_counters[0].space, MemSpace::Shared);
  EXPECT_EQ(t.sites.at(t.site_counters[0].site).line, 40u);
}

TEST(Crosscheck, SameAccessesDifferentGroupingIsIdenticalWithATable) {
  emu::Memory mem;
  auto in = mem.upload<int>("in", test::iota_input(64));
  auto out = mem.alloc<int>("out", 1);
  auto r = emu::launch(mem, test::options(1, 64), {}, [=] { seq_reduce<64>(in, out); });
  ASSERT_TRUE(r.ok());
  Trace gpu = r.trace;
  // The "hardware" issued the first instruction as two halves.
  Event first = gpu.events.front();
  ASSERT_EQ(first.mask, 0xffffffffu);
  Event low = first, high = first;
  low.mask = 0x0000ffff;
  high.mask = 0xffff0000;
  high.lane_begin = first.lane_begin + 16;
  gpu.events.erase(gpu.events.begin());
  gpu.events.insert(gpu.events.begin(), {low, high});
  analysis::Crosscheck c = analysis::crosscheck(r.trace, gpu);
  EXPECT_TRUE(c.identical);
  EXPECT_EQ(c.emu_accesses, c.gpu_accesses);
  EXPECT_EQ(c.grouping_differences, 1u);
  EXPECT_EQ(c.grouping.front().gpu_instructions, c.grouping.front().emu_instructions + 1);

  // A lane the GPU never recorded is a difference, named.
  Trace missing = r.trace;
  missing.events.front().mask = 0x7fffffff;
  analysis::Crosscheck d = analysis::crosscheck(r.trace, missing);
  EXPECT_FALSE(d.identical);
  ASSERT_FALSE(d.differences.empty());
  EXPECT_NE(d.differences[0].find("only the emulator: block 0 thread 31"), std::string::npos) << d.differences[0];
}
