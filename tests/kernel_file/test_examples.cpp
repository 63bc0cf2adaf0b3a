// The examples/ kernel files, built and run as a user would (ws::kernel_file::load), and what
// their pictures rest on counted again here from the kernels' own index arithmetic.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "ws/analysis/analysis.h"
#include "ws/kernel_file/build.h"
#include "ws/run/catalog.h"

namespace {

using namespace ws;

std::string example(const std::string& name) { return std::string(WS_EXAMPLES_DIR) + "/" + name; }

std::string load_ok(const std::string& file) {
  std::string error;
  const std::string name = kernel_file::load(example(file), Catalog::instance(), {}, error);
  EXPECT_FALSE(name.empty()) << file << ":\n" << error;
  return name;
}

RunResult run(const std::string& kernel, RunConfig c = {}) {
  RunResult r = Catalog::instance().run(kernel, c, BackendKind::Emu);
  EXPECT_TRUE(r.refused.empty()) << r.refused;
  EXPECT_TRUE(r.completed) << (r.errors.empty() ? "" : r.errors[0].message);
  return r;
}

// The 1-based line of `file` holding `snippet` (the test finds the kernel's lines by their text).
uint32_t line_of(const std::string& file, const std::string& snippet) {
  std::ifstream in(example(file));
  std::string l;
  for (uint32_t n = 1; std::getline(in, l); ++n)
    if (l.find(snippet) != std::string::npos) return n;
  ADD_FAILURE() << snippet << " not in " << file;
  return 0;
}

// Sums a launch's site metrics over the sites on `line`, of one memory space.
analysis::SiteMetrics on_line(const analysis::Report& rep, uint32_t line, MemSpace space, AccessKind kind) {
  analysis::SiteMetrics sum;
  for (const analysis::SiteMetrics& m : rep.sites)
    if (rep.site_table[m.site].line == line && m.space == space && m.kind == kind) {
      sum.instructions += m.instructions;
      sum.conflicts += m.conflicts;
      sum.wavefronts += m.wavefronts;
      sum.sectors += m.sectors;
    }
  return sum;
}

// Shared-memory wavefronts of one warp instruction: the most distinct 4-byte words any bank holds.
uint64_t wavefronts(const std::vector<uint64_t>& word_index) {
  std::map<uint64_t, std::set<uint64_t>> words;
  for (uint64_t w : word_index) words[w % 32].insert(w);
  uint64_t most = 0;
  for (auto& [bank, ws] : words) most = std::max<uint64_t>(most, ws.size());
  return most;
}

TEST(KernelFileExamples, EveryExampleBuildsRunsAndPasses) {
  for (const char* f : {"saxpy.cu", "transpose.cu", "warp_reduce.cu", "histogram.cu", "stencil.cu", "particles.cu",
                        "race.cu", "divergence.cu"}) {
    SCOPED_TRACE(f);
    const std::string name = load_ok(f);
    if (name.empty()) continue;
    const CatalogEntry* e = Catalog::instance().find(name);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->spec.file, example(f));
    for (const VariantSpec& v : e->spec.variants) {
      RunConfig c;
      c.variant = v.id;
      if (name == "race") c.params["fixed"] = 1;  // (race.cu's broken default is its own test)
      const RunResult r = run(name, c);
      EXPECT_TRUE(r.passed) << v.id << ": " << r.result << " / " << r.check;
      EXPECT_FALSE(r.launches.empty());
    }
  }
}

TEST(KernelFileExamples, SaxpyKeepsWhatTheKernelComputed) {
  const std::string name = load_ok("saxpy.cu");
  RunConfig c;
  c.n = 1000;
  const RunResult r = run(name, c);
  ASSERT_EQ(r.checked.size(), 1u);
  EXPECT_EQ(r.checked[0].first, "y");
  EXPECT_EQ(r.checked[0].second.bytes.size(), 1000 * sizeof(float));
  // Global loads of x: one request per warp with a live lane, 4 sectors each (128 contiguous bytes).
  const analysis::Report rep = analysis::analyze(r.launches.at(0));
  const uint32_t line = line_of("saxpy.cu", "y[i] = a * x[i] + y[i]");
  const analysis::SiteMetrics loads = on_line(rep, line, MemSpace::Global, AccessKind::Load);
  const uint64_t warps = (1000 + 31) / 32;
  EXPECT_EQ(loads.instructions, 2 * warps);  // x[i] and y[i]
  // The last warp (lanes 992..999) touches one sector of each array.
  EXPECT_EQ(loads.sectors, 2 * ((warps - 1) * 4 + 1));
}

TEST(KernelFileExamples, TransposeTileConflictsAsTheBankModelCounts) {
  const std::string name = load_ok("transpose.cu");
  const uint32_t line = line_of("transpose.cu", "out[y * rows + x] = tile[");
  for (unsigned pad : {0u, 1u}) {
    RunConfig c;
    c.variant = pad ? "padded" : "tiled";
    c.n = 64;
    const RunResult r = run(name, c);
    ASSERT_EQ(r.launches.size(), 1u);
    const analysis::Report rep = analysis::analyze(r.launches[0]);
    const analysis::SiteMetrics m = on_line(rep, line, MemSpace::Shared, AccessKind::Load);
    // One warp = one threadIdx.y row: lane x reads tile[x * (32 + pad) + y].
    uint64_t expect_wavefronts = 0;
    const uint64_t blocks = 2 * 2;
    for (unsigned y = 0; y < 32; ++y) {
      std::vector<uint64_t> words;
      for (unsigned x = 0; x < 32; ++x) words.push_back(x * (32 + pad) + y);
      expect_wavefronts += wavefronts(words);
    }
    EXPECT_EQ(m.instructions, blocks * 32) << c.variant;
    EXPECT_EQ(m.wavefronts, blocks * expect_wavefronts) << c.variant;
    EXPECT_EQ(m.conflicts, blocks * expect_wavefronts - m.instructions) << c.variant;
  }
}

TEST(KernelFileExamples, StructLoadsAreSplitLikeTheCompilerDoes) {
  const std::string name = load_ok("particles.cu");
  RunConfig c;
  c.variant = "aos";
  c.n = 256;
  const RunResult r = run(name, c);
  const analysis::Report rep = analysis::analyze(r.launches.at(0));
  const analysis::SiteMetrics m = on_line(rep, line_of("particles.cu", "Vec3 p = pos[i];"), MemSpace::Global, AccessKind::Load);
  // Three 4-byte loads per warp; each covers 32 lanes x 12 bytes = the sectors of its addresses.
  uint64_t sectors = 0;
  for (unsigned w = 0; w < 256 / 32; ++w)
    for (unsigned member = 0; member < 3; ++member) {
      std::set<uint64_t> s;
      for (unsigned lane = 0; lane < 32; ++lane) s.insert(((w * 32 + lane) * 12 + member * 4) / 32);
      sectors += s.size();
    }
  EXPECT_EQ(m.instructions, 3u * 256 / 32);
  EXPECT_EQ(m.sectors, sectors);
}

TEST(KernelFileExamples, TheMissingBarrierIsARace) {
  const std::string name = load_ok("race.cu");
  const RunResult r = run(name);
  ASSERT_FALSE(r.launches.empty());
  const analysis::Report rep = analysis::analyze(r.launches[0]);
  const uint32_t store = line_of("race.cu", "partial[t] = in["), sum = line_of("race.cu", "partial[t] += partial[t + s]");
  bool pair = false;
  for (const analysis::Hazard& h : rep.hazards) {
    const uint32_t a = rep.site_table[h.first_site].line, b = rep.site_table[h.second_site].line;
    pair = pair || (std::min(a, b) == store && std::max(a, b) == sum);
  }
  EXPECT_TRUE(pair) << "no hazard between lines " << store << " and " << sum;
  RunConfig fixed;
  fixed.params["fixed"] = 1;
  const RunResult ok = run(name, fixed);
  EXPECT_TRUE(analysis::analyze(ok.launches.at(0)).hazards.empty());
}

TEST(KernelFileExamples, ParametersAndChoicesComeFromTheDescription) {
  const std::string name = load_ok("histogram.cu");
  const CatalogEntry* e = Catalog::instance().find(name);
  ASSERT_NE(e, nullptr);
  const ParamSpec* skew = e->spec.param("skew");
  ASSERT_NE(skew, nullptr);
  EXPECT_EQ(skew->max, 100);
  RunConfig c;
  c.params["skew"] = 90;
  EXPECT_TRUE(run(name, c).passed);
  c.params["skew"] = 101;
  const RunResult bad = Catalog::instance().run(name, c, BackendKind::Emu);
  EXPECT_NE(bad.refused.find("out of range"), std::string::npos) << bad.refused;
  // Variants with arguments of their own.
  const std::string particles = load_ok("particles.cu");
  const KernelSpec& p = Catalog::instance().find(particles)->spec;
  ASSERT_EQ(p.variants.size(), 2u);
  EXPECT_EQ(p.variants[0].id, "aos");
  EXPECT_EQ(p.variants[1].summary, "xs[i], ys[i], zs[i]: three coalesced loads");
}

}  // namespace
