// Save -> load gives the same trace; damaged or foreign files are refused with a message.
#include <gtest/gtest.h>

#include <functional>

#include <set>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../backends/emu/emu_test_util.h"
#include "../backends/emu/test_kernels.cuh"
#include "ws/trace/trace_io.h"

using namespace ws;

namespace {

Trace reduction_trace() {
  emu::Memory mem;
  auto in = mem.upload<int>("g_idata", test::iota_input(128 * 2));
  auto out = mem.alloc<int>("g_odata", 2);
  LaunchInfo info;
  info.kernel = "test";
  info.variant = "seq";
  info.params = {{"n", "256"}};
  auto r = emu::launch(mem, test::options(2, 128), info, [=] { seq_reduce<128>(in, out); });
  EXPECT_TRUE(r.ok());
  return std::move(r.trace);
}

void expect_same(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.launch.kernel, b.launch.kernel);
  EXPECT_EQ(a.launch.params, b.launch.params);
  EXPECT_EQ(a.launch.block, b.launch.block);
  ASSERT_EQ(a.allocations.size(), b.allocations.size());
  for (size_t i = 0; i < a.allocations.size(); ++i) {
    EXPECT_EQ(a.allocations[i].name, b.allocations[i].name);
    EXPECT_EQ(a.allocations[i].base, b.allocations[i].base);
    EXPECT_EQ(a.allocations[i].extent, b.allocations[i].extent);
  }
  ASSERT_EQ(a.sites.size(), b.sites.size());
  for (size_t i = 0; i < a.sites.size(); ++i) {
    EXPECT_EQ(a.sites[i].text, b.sites[i].text);
    EXPECT_EQ(a.sites[i].line, b.sites[i].line);
    EXPECT_EQ(a.sites[i].rank, b.sites[i].rank);
  }
  ASSERT_EQ(a.events.size(), b.events.size());
  EXPECT_EQ(0, std::memcmp(a.events.data(), b.events.data(), a.events.size() * sizeof(Event)));
  EXPECT_EQ(a.lane_offsets, b.lane_offsets);
  EXPECT_EQ(a.recorded_blocks, b.recorded_blocks);
}

}  // namespace

TEST(TraceIo, SaveLoadRoundTrip) {
  Trace t = reduction_trace();
  ASSERT_GT(t.events.size(), 10u);
  const auto path = std::filesystem::temp_directory_path() / "ws_roundtrip.wst";
  ASSERT_EQ(save_trace(t, path), "");
  LoadResult r = load_trace(path);
  ASSERT_TRUE(r.ok()) << r.error;
  expect_same(t, r.trace);
  std::filesystem::remove(path);
}

// A matrix's row length survives the file; one longer than the matrix is a damaged file.
TEST(TraceIo, AMatrixKeepsItsShape) {
  Trace t = reduction_trace();
  t.allocations[0].row_length = uint32_t(t.allocations[0].extent / 4);
  LoadResult r = deserialize_trace(serialize_trace(t));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.trace.allocations[0].row_length, t.allocations[0].row_length);
  t.allocations[0].row_length = uint32_t(t.allocations[0].extent + 1);
  r = deserialize_trace(serialize_trace(t));
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("has rows of"), std::string::npos) << r.error;
}

TEST(TraceIo, TruncatedFileIsRefused) {
  const std::string bytes = serialize_trace(reduction_trace());
  for (size_t cut : {size_t(5), size_t(30), bytes.size() / 2, bytes.size() - 1}) {
    LoadResult r = deserialize_trace(bytes.substr(0, cut));
    EXPECT_FALSE(r.ok()) << "cut at " << cut;
    EXPECT_FALSE(r.error.empty());
  }
  EXPECT_NE(deserialize_trace(bytes.substr(0, bytes.size() - 1)).error.find("truncated"), std::string::npos);
}

TEST(TraceIo, BitFlipIsRefused) {
  const std::string bytes = serialize_trace(reduction_trace());
  for (size_t pos : {size_t(40), bytes.size() / 3, bytes.size() - 3}) {
    std::string bad = bytes;
    bad[pos] ^= 0x10;
    LoadResult r = deserialize_trace(bad);
    ASSERT_FALSE(r.ok()) << "flip at " << pos;
    EXPECT_NE(r.error.find("checksum mismatch"), std::string::npos) << r.error;
  }
}

TEST(TraceIo, ForeignAndFutureFilesAreRefused) {
  EXPECT_NE(deserialize_trace("PNG\x89 not a trace at all, but long enough").error.find("not a warpscope trace"),
            std::string::npos);
  std::string bytes = serialize_trace(reduction_trace());
  bytes[8] = 99;  // version
  EXPECT_NE(deserialize_trace(bytes).error.find("version 99 is not supported"), std::string::npos);
  const auto missing = load_trace("/nonexistent/dir/x.wst");
  EXPECT_NE(missing.error.find("/nonexistent/dir/x.wst"), std::string::npos);
}

TEST(TraceIo, InstructionJsonListsLanesAndElements) {
  Trace t = reduction_trace();
  const auto j = nlohmann::json::parse(to_json(t));
  EXPECT_EQ(j["kernel"], "test");
  size_t accesses = 0;
  for (const Event& e : t.events) accesses += e.type == EventType::Access;
  ASSERT_EQ(j["instructions"].size(), accesses);
  const auto& first = j["instructions"][0];  // sdata[tid] = in[...]: the global load comes first
  EXPECT_EQ(first["allocation"], "g_idata");
  EXPECT_EQ(first["kind"], "load");
  EXPECT_EQ(first["mask"], "ffffffff");
  ASSERT_EQ(first["lanes"].size(), 32u);
  EXPECT_EQ(first["lanes"][5]["element"], "g_idata[5]");
  EXPECT_EQ(first["lanes"][5]["thread"][0], 5);
  EXPECT_EQ(first["lanes"][5]["address"].get<uint64_t>(), t.allocations[0].base + 20);
}

TEST(TraceIo, ChromeTraceHasOneSlicePerInstruction) {
  Trace t = reduction_trace();
  const auto j = nlohmann::json::parse(to_chrome_trace(t));
  size_t slices = 0;
  for (const auto& ev : j["traceEvents"]) slices += ev["ph"] == "X";
  EXPECT_EQ(slices, t.events.size());
}

// Every launch of a run, each block a process of its own named with its launch; an emulator's
// time axis is said to be issue steps, not time.
TEST(TraceIo, ChromeTraceHoldsEveryLaunchAndNamesItsTimeAxis) {
  std::vector<Trace> launches = {reduction_trace(), reduction_trace()};
  launches[1].launch.entry = "second";
  const auto j = nlohmann::json::parse(to_chrome_trace(launches));
  size_t slices = 0;
  std::set<uint64_t> pids;
  std::vector<std::string> names;
  for (const auto& ev : j["traceEvents"]) {
    if (ev["ph"] == "X") ++slices, pids.insert(ev["pid"].get<uint64_t>());
    if (ev["ph"] == "M" && ev["name"] == "process_name") names.push_back(ev["args"]["name"]);
  }
  EXPECT_EQ(slices, launches[0].events.size() + launches[1].events.size());
  EXPECT_EQ(pids.size(), launches[0].recorded_blocks.size() + launches[1].recorded_blocks.size());
  ASSERT_FALSE(names.empty());
  EXPECT_NE(names.back().find("launch 1 second, block"), std::string::npos) << names.back();
  EXPECT_NE(names.back().find("x = issue steps"), std::string::npos) << names.back();
  EXPECT_NE(j["otherData"]["time"].get<std::string>().find("issue steps"), std::string::npos);
}

// A file with a valid header and checksum can still hold impossible values; each is refused when
// it loads with what is wrong, so the analysis and the views never meet it (each of these crashed
// or hung them once: a division by an extent near 2^64, a block of zero threads, a lane at the top
// of the address space, a name that breaks JSON, warps a block cannot have).
SiteCounters counters(uint64_t instructions, uint64_t lanes) {
  SiteCounters c;
  c.site = 0;
  c.width = 4;
  c.instructions = instructions;
  c.lanes = lanes;
  return c;
}

TEST(TraceIo, ImpossibleValuesAreRefusedWhenTheFileLoads) {
  const Trace good = reduction_trace();
  ASSERT_TRUE(deserialize_trace(serialize_trace(good)).ok());
  size_t shared_access = good.events.size();
  for (size_t i = 0; i < good.events.size(); ++i)
    if (good.events[i].type == EventType::Access && good.events[i].space == MemSpace::Shared) shared_access = i;
  ASSERT_LT(shared_access, good.events.size());
  struct Damage {
    const char* what;
    std::function<void(Trace&)> apply;
  };
  const std::vector<Damage> damages = {
      {"too large", [](Trace& t) { t.allocations[0].extent = ~uint64_t(0) - 7; }},
      {"elements of 0 bytes", [](Trace& t) { t.allocations[0].elem_size = 0; }},
      {"is not a CUDA block", [](Trace& t) { t.launch.block.y = 0; }},
      {"is not a CUDA block", [](Trace& t) { t.launch.block = {2048, 1, 1}; }},
      {"is not a CUDA grid", [](Trace& t) { t.launch.grid.x = 0; }},
      {"past any address",
       [&](Trace& t) { t.lane_offsets[t.events[shared_access].lane_begin] = ~uint64_t(0) - 2; }},
      {"not valid UTF-8", [](Trace& t) { t.sites[0].text = "sdata[\xff\xfe]"; }},
      {"not valid UTF-8", [](Trace& t) { t.allocations[0].name = "\xc0\x80"; }},
      {"is in warp", [](Trace& t) { t.events[0].warp = 200; }},
      {"is in block", [](Trace& t) { t.events[0].block = 1u << 30; }},
      {"outside the grid", [](Trace& t) { t.recorded_blocks.push_back(99); }},
      {"bytes a lane", [&](Trace& t) { t.events[shared_access].width = 0; }},
      {"blocks ran in a grid", [](Trace& t) { t.total_blocks = t.launch.grid.count() + 1; }},
      // Whole-grid counters (gpu-trace's), damaged: more lanes, wavefronts or sectors than the
      // instructions allow, a zero width.
      {"more lanes than 32", [](Trace& t) { t.site_counters = {counters(10, 321)}; }},
      {"impossible wavefronts", [](Trace& t) { SiteCounters c = counters(10, 320); c.wavefronts = 1; c.ideal_wavefronts = 10; t.site_counters = {c}; }},
      {"impossible wavefronts", [](Trace& t) { SiteCounters c = counters(10, 320); c.wavefronts = 320 * 16 + 1; t.site_counters = {c}; }},
      {"impossible sectors", [](Trace& t) { SiteCounters c = counters(10, 320); c.sectors = 961; t.site_counters = {c}; }},
      {"impossible sectors", [](Trace& t) { SiteCounters c = counters(10, 320); c.sectors = 5; c.lines = 6; t.site_counters = {c}; }},
      {"bytes a lane (1 to 64)", [](Trace& t) { SiteCounters c = counters(10, 320); c.width = 0; t.site_counters = {c}; }},
      {"instructions: too many", [](Trace& t) { SiteCounters c = counters(uint64_t(1) << 60, 0); t.site_counters = {c}; }},
  };
  {
    Trace t = good;
    t.site_counters = {counters(10, 320)};  // what a real count looks like loads
    t.site_counters[0].sectors = 40, t.site_counters[0].lines = 10;
    EXPECT_TRUE(deserialize_trace(serialize_trace(t)).ok()) << deserialize_trace(serialize_trace(t)).error;
  }
  for (const Damage& d : damages) {
    Trace t = good;
    d.apply(t);
    const LoadResult r = deserialize_trace(serialize_trace(t));
    EXPECT_FALSE(r.ok()) << d.what;
    EXPECT_NE(r.error.find(d.what), std::string::npos) << "expected '" << d.what << "', got: " << r.error;
  }
}
