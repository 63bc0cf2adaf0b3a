// Timing recordings: a table written and read back is the same table (every field a slide shows),
// a damaged file says what is wrong, and every recording that ships loads and says where it was
// made.
#include "synthetic_table.h"

#include "ws/timing/recording.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace ws::timing;

namespace {

fs::path temp(const std::string& name) { return fs::temp_directory_path() / ("ws_recording_" + name); }

KernelTable kernel_table() {
  KernelTable t;
  t.kernel = "transpose";
  t.launch.name = "transpose naive, 8192 x 8192";
  t.launch.changes = {"n 96 -> 8192"};
  t.ceiling = ws::TimingSpec::Ceiling::Copy;
  t.same_size.ok = true;
  t.same_size.copy_gbps = 4000;
  t.same_size.read_gbps = 3800;
  for (const char* v : {"naive", "padded"}) {
    KernelRow r;
    r.m.variant = v;
    r.m.ok = true;
    r.m.passed = true;
    r.m.check = "exact (float)";
    r.m.samples = {1.0, 1.1, 0.9};
    r.m.stats = ws::analysis::summarize(r.m.samples);
    r.m.bytes = 2ull << 28;
    r.m.gbps = ws::analysis::gigabytes_per_second(r.m.bytes, r.m.stats.median);
    r.m.config.block = {32, 8, 1};
    r.m.config.params = {{"pad", 1}};
    t.rows.push_back(r);
  }
  KernelRow refused;
  refused.m.variant = "wide";
  refused.m.error = "block 32 is refused: wide takes 32x16";
  t.rows.push_back(refused);
  fill_ratios(t);
  return t;
}

}  // namespace

TEST(TimingRecording, WrittenAndReadBackUnchanged) {
  TimingRecording r;
  r.device = "test GPU";
  r.recorded = "2026-11-28 14:18 UTC";
  r.command = "warpscope bench -k transpose";
  r.reductions.push_back(wstest::synthetic_table());
  r.kernels.push_back(kernel_table());
  const fs::path p = temp("roundtrip.json");
  ASSERT_EQ(save_timing_recording(p, r), "");
  TimingRecording back;
  ASSERT_EQ(load_timing_recording(p, back), "");
  fs::remove(p);
  EXPECT_EQ(back.device, r.device);
  EXPECT_EQ(back.recorded, r.recorded);
  EXPECT_EQ(back.command, r.command);
  ASSERT_EQ(back.reductions.size(), 1u);
  const ReductionTable &a = r.reductions[0], &b = back.reductions[0];
  EXPECT_EQ(b.n, a.n);
  EXPECT_EQ(b.dtype, a.dtype);
  ASSERT_EQ(b.rows.size(), a.rows.size());
  for (size_t i = 0; i < a.rows.size(); ++i) {
    EXPECT_EQ(b.rows[i].m.variant, a.rows[i].m.variant);
    EXPECT_DOUBLE_EQ(b.rows[i].m.stats.median, a.rows[i].m.stats.median);
    EXPECT_DOUBLE_EQ(b.rows[i].m.gbps, a.rows[i].m.gbps);
    // The speedups are the times' ratios, as when they were measured.
    EXPECT_DOUBLE_EQ(b.rows[i].step_speedup, a.rows[i].step_speedup);
    EXPECT_DOUBLE_EQ(b.rows[i].cumulative_speedup, a.rows[i].cumulative_speedup);
    EXPECT_DOUBLE_EQ(b.rows[i].vs_cub, a.rows[i].vs_cub);
  }
  ASSERT_EQ(back.kernels.size(), 1u);
  const KernelTable &k = r.kernels[0], &kb = back.kernels[0];
  EXPECT_EQ(kb.kernel, k.kernel);
  EXPECT_EQ(kb.ceiling, k.ceiling);
  EXPECT_EQ(kb.launch.changes, k.launch.changes);
  ASSERT_EQ(kb.rows.size(), 3u);
  EXPECT_EQ(kb.rows[0].m.config.block, (ws::Dim3{32, 8, 1}));
  EXPECT_EQ(kb.rows[0].m.config.params, k.rows[0].m.config.params);
  EXPECT_DOUBLE_EQ(kb.rows[1].pct_of_ceiling, k.rows[1].pct_of_ceiling);
  EXPECT_FALSE(kb.rows[2].m.ok);
  EXPECT_EQ(kb.rows[2].m.error, "block 32 is refused: wide takes 32x16");
  EXPECT_EQ(back.kernel_table("transpose"), &back.kernels[0]);
  EXPECT_EQ(back.kernel_table("matmul"), nullptr);
}

TEST(TimingRecording, ADamagedFileSaysWhatIsWrong) {
  const fs::path p = temp("damaged.json");
  auto load_text = [&](const std::string& text) {
    std::ofstream(p) << text;
    TimingRecording r;
    return load_timing_recording(p, r);
  };
  EXPECT_NE(load_text("{\"format\": 0}").find("not a warpscope timing recording"), std::string::npos);
  EXPECT_NE(load_text("[1, 2").find(p.string()), std::string::npos);
  EXPECT_NE(load_text("{\"format\": \"warpscope-timing\", \"version\": 7}").find("version 7"), std::string::npos);
  const std::string no_rows = R"({"format": "warpscope-timing", "version": 1, "device": "x", "recorded": "y",
    "command": "z", "reduction_tables": [{"n": 4, "dtype": "int", "block": 256}], "kernel_tables": []})";
  EXPECT_NE(load_text(no_rows).find("rows"), std::string::npos);
  const std::string bad_rate = R"({"format": "warpscope-timing", "version": 1, "device": "x", "recorded": "y",
    "command": "z", "reduction_tables": [], "kernel_tables": [{"kernel": "k", "rows": [{"variant": "a", "ok": true,
    "passed": true, "time": {"count": 1, "median_ms": 1, "p10_ms": 1, "p90_ms": 1, "min_ms": 1, "max_ms": 1,
    "mean_ms": 1, "outliers": 0}, "bytes": 4, "gbps": -5}]}]})";
  EXPECT_NE(load_text(bad_rate).find("not a number of 0 or more"), std::string::npos);
  fs::remove(p);
  TimingRecording r;
  EXPECT_NE(load_timing_recording("/dev/zero", r).find("not a regular file"), std::string::npos);
}

TEST(TimingRecording, TheShippedRecordingsLoadAndSayWhereTheyWereMade) {
  std::vector<std::string> errors;
  const std::vector<TimingRecording> all = shipped_timing_recordings(&errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  ASSERT_GE(all.size(), 4u);
  bool reduce = false, matmul = false;
  for (const TimingRecording& r : all) {
    EXPECT_NE(r.device.find("NVIDIA"), std::string::npos);
    EXPECT_FALSE(r.recorded.empty());
    EXPECT_EQ(r.command.rfind("warpscope bench", 0), 0u) << r.command;
    EXPECT_FALSE(r.reductions.empty() && r.kernels.empty());
    for (const ReductionTable& t : r.reductions) {
      reduce = true;
      for (const TableRow& row : t.rows) EXPECT_TRUE(row.m.ok && row.m.passed) << row.m.variant;
    }
    if (const KernelTable* t = r.kernel_table("matmul")) {
      matmul = true;
      EXPECT_EQ(t->reference, "cublas");
    }
  }
  EXPECT_TRUE(reduce);
  EXPECT_TRUE(matmul);
}

// The run process's answer about the GPU, and a recording's statistics: each field of their lists
// (ws/timing/timing.h, ws/analysis/timing.h), changed alone, comes back through the byte codec
// and the JSON a recording keeps.
#include "../isolation/field_list_check.h"
#include "ws/trace/json_fields.h"

TEST(TimingRecords, EveryFieldOfTheDeviceListTravelsAlone) {
  ws::test::expect_every_leaf_travels_alone<Device>(
      [](const Device& d) {
        ws::ByteWriter w;
        ws::put_field(w, d);
        return w.take();
      },
      [](const std::string& bytes) {
        ws::ByteReader r(bytes, "a test message");
        Device d;
        ws::get_field(r, d);
        EXPECT_TRUE(r.done() && !r.failed()) << r.error();
        return d;
      });
  EXPECT_EQ(sizeof(Device), 120u) << "Device has a field timing.h does not list";
}

TEST(TimingRecords, EveryFieldOfTheStatsListIsWrittenAndReadBack) {
  ws::test::expect_every_leaf_travels_alone<ws::analysis::TimingStats>(
      [](const ws::analysis::TimingStats& s) { return ws::to_json_fields(s).dump(); },
      [](const std::string& text) {
        ws::analysis::TimingStats s;
        EXPECT_EQ(ws::from_json_fields(nlohmann::json::parse(text), s), "");
        return s;
      });
}
