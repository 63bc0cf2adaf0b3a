// The catalog's reduction kernels through the analysis library, pinned to numbers derived by hand
// from the lecture (seed 003): what Nsight Compute would report for the same launch.
#include <gtest/gtest.h>

#include "ws/analysis/analysis.h"
#include "ws/run/catalog.h"

using namespace ws;
using analysis::kLd;
using analysis::kSt;

namespace {

analysis::Report run_and_analyze(const std::string& variant, uint64_t n, uint32_t block) {
  RunConfig cfg;
  cfg.variant = variant;
  cfg.n = n;
  cfg.block = {block, 1, 1};
  cfg.emu.workers = 2;
  RunResult r = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  EXPECT_TRUE(r.refused.empty()) << r.refused;
  EXPECT_TRUE(r.passed) << r.result << " vs " << r.expected;
  return analysis::analyze(r.launches.at(0), {});
}

}  // namespace

// Variant 2, one block of 256 ints. `index = 2*s*tid; if (index < 256) sdata[index] += sdata[index+s]`:
// at step s the threads tid < 128/s work, each warp's lanes hit words 2s*lane (and 2s*lane + s).
//   s   warps  words/bank  per warp: 2 loads + 1 store     loads wf (confl)   stores wf (confl)
//   1     4        2          2 wavefronts each            4*2*2 = 16 (8)       4*2 = 8 (4)
//   2     2        4          4                            2*2*4 = 16 (12)      2*4 = 8 (6)
//   4     1        8          8  (banks 0,8,16,24)           2*8 = 16 (14)        8 (7)
//   8    1/2       8          8  (16 lanes, banks 0,16)      16 (14)              8 (7)
//   16   1/4       8          8  (8 lanes, bank 0)           16 (14)              8 (7)
//   32   1/8       4          4                               8 (6)               4 (3)
//   64   1/16      2          2                               4 (2)               2 (1)
//   128  1/32      1          1                               2 (0)               1 (0)
// plus the first store sdata[tid] (8 warps, 1 wavefront each) and the final load of sdata[0]:
//   loads:  25 instructions, 95 wavefronts, 70 conflicts;  stores: 20, 55, 35.
TEST(ReduceAnalysis, InterleavedBankConflictsMatchTheHandCount) {
  const analysis::Report r = run_and_analyze("2", 256, 256);
  EXPECT_EQ(r.totals.shared[kLd].instructions, 25u);
  EXPECT_EQ(r.totals.shared[kLd].wavefronts, 95u);
  EXPECT_EQ(r.totals.shared[kLd].conflicts, 70u);
  EXPECT_EQ(r.totals.shared[kSt].instructions, 20u);
  EXPECT_EQ(r.totals.shared[kSt].wavefronts, 55u);
  EXPECT_EQ(r.totals.shared[kSt].conflicts, 35u);
  EXPECT_EQ(r.totals.shared[kLd].max_ways, 8u);
}

// Variant 3 (sequential addressing) does the same work conflict free: thread tid reads words tid
// and tid + s, consecutive words in consecutive banks. Same numbers of instructions as a
// conflict-free count: every instruction is one wavefront.
TEST(ReduceAnalysis, SequentialAddressingHasNoConflicts) {
  const analysis::Report r = run_and_analyze("3", 256, 256);
  EXPECT_EQ(r.totals.shared[kLd].conflicts, 0u);
  EXPECT_EQ(r.totals.shared[kSt].conflicts, 0u);
  EXPECT_EQ(r.totals.shared[kLd].wavefronts, r.totals.shared[kLd].instructions);
}

// Global loads of variant 3: 256 ints, 8 warps, each 32 consecutive ints = 4 sectors, 1 line.
TEST(ReduceAnalysis, CoalescedLoadsAreFourSectorsPerRequest) {
  const analysis::Report r = run_and_analyze("3", 256, 256);
  EXPECT_EQ(r.totals.global[kLd].requests, 8u);
  EXPECT_EQ(r.totals.global[kLd].sectors, 32u);
  EXPECT_DOUBLE_EQ(r.totals.global[kLd].efficiency(), 1.0);
}

// Step 5 as first published (5u): right under the emulator's lockstep, but the analysis says the
// last warp's accesses are only safe in lockstep; the Volta-safe step 5 (volatile + __syncwarp)
// has no such report.
TEST(ReduceAnalysis, UnsafeLastWarpIsFlaggedForVolta) {
  const analysis::Report unsafe = run_and_analyze("5u", 512, 256);
  EXPECT_GT(unsafe.totals.lockstep_hazards, 0u);
  EXPECT_EQ(unsafe.totals.hazards, 0u);  // no race between warps: the barriers separate them
  const analysis::Report safe = run_and_analyze("5", 512, 256);
  EXPECT_EQ(safe.totals.lockstep_hazards, 0u);
  EXPECT_EQ(safe.totals.hazards, 0u);
}

// Recording one block of a 16-block launch, the emulator still counts every block per site
// (RunConfig::count_every_block): the report's grid equals the totals of a run that recorded every
// block in full. Variant 2, n = 4096, block 256: each block has the hand count above (loads 25
// instructions, 95 wavefronts, 70 conflicts; stores 20, 55, 35), so the grid is 16x that.
TEST(ReduceAnalysis, EmulatorCountsEveryBlockWhenRecordingOne) {
  RunConfig cfg;
  cfg.variant = "2";
  cfg.n = 4096;
  cfg.block = {256, 1, 1};
  cfg.emu.workers = 2;
  const RunResult all = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  cfg.record.blocks = {3};
  const RunResult one = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  cfg.record.count_every_block = false;
  const RunResult off = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  ASSERT_TRUE(all.passed && one.passed && off.passed);
  ASSERT_EQ(all.launches.size(), one.launches.size());

  const analysis::Report full = analysis::analyze(all.launches[0]);
  const analysis::Report part = analysis::analyze(one.launches[0]);
  EXPECT_FALSE(full.grid.present);  // every block recorded: the totals are the grid
  ASSERT_TRUE(part.grid.present);
  EXPECT_EQ(part.blocks, std::vector<uint32_t>{3});
  EXPECT_EQ(part.totals.shared[kLd].conflicts, 70u);        // block 3 alone
  EXPECT_EQ(part.grid.blocks, 16u);
  EXPECT_EQ(part.grid.shared[kLd].instructions, 16u * 25);
  EXPECT_EQ(part.grid.shared[kLd].wavefronts, 16u * 95);
  EXPECT_EQ(part.grid.shared[kLd].conflicts, 16u * 70);
  EXPECT_EQ(part.grid.shared[kSt].wavefronts, 16u * 55);
  EXPECT_EQ(part.grid.shared[kSt].conflicts, 16u * 35);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(part.grid.shared[k].conflicts, full.totals.shared[k].conflicts) << k;
    EXPECT_EQ(part.grid.shared[k].lane_accesses, full.totals.shared[k].lane_accesses) << k;
    EXPECT_EQ(part.grid.global[k].sectors, full.totals.global[k].sectors) << k;
    EXPECT_EQ(part.grid.global[k].lines, full.totals.global[k].lines) << k;
    EXPECT_EQ(part.grid.global[k].bytes_requested, full.totals.global[k].bytes_requested) << k;
  }
  // Per site too: the grid's rows are the full run's rows summed over arrays.
  for (const analysis::SiteMetrics& g : part.grid.sites) {
    uint64_t wavefronts = 0, sectors = 0, instructions = 0;
    const Site& gs = part.site_table.at(g.site);
    for (const analysis::SiteMetrics& f : full.sites) {
      const Site& fs = full.site_table.at(f.site);
      if (fs.file == gs.file && fs.line == gs.line && fs.rank == gs.rank && f.kind == g.kind && f.space == g.space)
        wavefronts += f.wavefronts, sectors += f.sectors, instructions += f.instructions;
    }
    EXPECT_EQ(g.instructions, instructions) << gs.file << ":" << gs.line;
    EXPECT_EQ(g.wavefronts, wavefronts) << gs.file << ":" << gs.line;
    EXPECT_EQ(g.sectors, sectors) << gs.file << ":" << gs.line;
  }
  // The later passes (fewer blocks) are counted as well; off, no counters come back.
  for (const Trace& t : one.launches) EXPECT_FALSE(t.site_counters.empty());
  for (const Trace& t : off.launches) EXPECT_TRUE(t.site_counters.empty());
}
