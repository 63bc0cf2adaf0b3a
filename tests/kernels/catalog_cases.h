// Helpers for the catalog kernel tests: one run on the emulator (2 workers, only block 0 recorded),
// the analysis of one of its launches, and the comparison of what a kernel computed (the values its
// check kept, RunResult::checked) with what a test computes itself from the kernel's host
// reference (kernels/<topic>/<kernel>_reference.h): a wrong check in the entry cannot hide a wrong
// kernel.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "ws/analysis/analysis.h"
#include "ws/run/catalog.h"

namespace ws::test {

struct Case {
  std::string variant;
  uint64_t n = 0;
  Dim3 block{0, 1, 1};
  std::string dtype;
  std::map<std::string, double> params;
};

// The seed of every run_case: a test regenerates the run's input with it.
inline constexpr uint64_t kSeed = 7;

inline RunResult run_case(const std::string& kernel, const Case& c, std::vector<uint32_t> record = {0}) {
  RunConfig cfg;
  cfg.variant = c.variant;
  cfg.n = c.n;
  cfg.block = c.block;
  cfg.dtype = c.dtype;
  cfg.params = c.params;
  cfg.seed = kSeed;
  cfg.emu.workers = 2;
  cfg.record.blocks = std::move(record);
  return Catalog::instance().run(kernel, cfg, BackendKind::Emu);
}

// A readable gtest name: letters, digits and '_' only.
inline std::string case_name(const Case& c) {
  std::string s = "v_" + c.variant + "_n" + std::to_string(c.n) + "_b" + std::to_string(c.block.x);
  if (c.block.y != 1) s += "x" + std::to_string(c.block.y);
  if (!c.dtype.empty()) s += "_" + c.dtype;
  for (const auto& [k, v] : c.params) s += "_" + k + std::to_string(v);
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

// Expect a clean pass; the messages say what came back.
inline void expect_pass(const RunResult& r) {
  ASSERT_TRUE(r.refused.empty()) << r.refused;
  ASSERT_TRUE(r.completed) << (r.errors.empty() ? "" : r.errors[0].code + ": " + r.errors[0].message);
  EXPECT_TRUE(r.passed) << r.result << " vs " << r.expected << " (" << r.check << ")";
  EXPECT_FALSE(r.launches.empty());
}

// The scalar the run kept as `name` equals `want` (integers) or is within `bound` of it (floats).
template <class T>
void expect_scalar(const RunResult& r, const std::string& name, double want, double bound) {
  const std::vector<T> got = r.value<T>(name);
  ASSERT_EQ(got.size(), 1u) << "the run kept no " << name;
  if constexpr (std::is_integral_v<T>)
    EXPECT_EQ(double(got[0]), want) << name;
  else
    EXPECT_LE(std::fabs(double(got[0]) - want), bound) << name << " = " << got[0] << ", reference " << want;
}

// The array the run kept as `name` equals `want`, element by element and byte for byte (the
// kernels move values or compute them with the reference's operations in the same order).
template <class T>
void expect_elements(const RunResult& r, const std::string& name, const std::vector<T>& want) {
  const std::vector<T> got = r.value<T>(name);
  ASSERT_EQ(got.size(), want.size()) << "the run kept " << got.size() << " elements of " << name;
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0 && bad++ == 0) first = i;
  EXPECT_EQ(bad, 0u) << bad << " of " << want.size() << " elements of " << name << " differ from the reference, first ["
                     << first << "]";
}

inline analysis::Report analyze_launch(const RunResult& r, size_t launch = 0) {
  analysis::Options opt;
  opt.per_event = false;
  opt.heat_bins = 0;
  return analysis::analyze(r.launches.at(launch), opt);
}

// The summed site rows of one shared/global array and access kind (e.g. every shared load of
// "tile"): what the demos' expected numbers are about.
struct SiteSum {
  uint64_t instructions = 0, wavefronts = 0, ideal = 0, conflicts = 0, sectors = 0, lines = 0;
  uint32_t max_ways = 0;
};

inline SiteSum site_sum(const analysis::Report& rep, const std::string& array, MemSpace space, AccessKind kind) {
  SiteSum s;
  for (const analysis::SiteMetrics& m : rep.sites) {
    if (m.space != space || m.kind != kind || m.alloc >= rep.allocations.size()) continue;
    if (rep.allocations[m.alloc].name != array) continue;
    s.instructions += m.instructions;
    s.wavefronts += m.wavefronts;
    s.ideal += m.ideal_wavefronts;
    s.conflicts += m.conflicts;
    s.sectors += m.sectors;
    s.lines += m.lines;
    s.max_ways = std::max(s.max_ways, m.max_ways);
  }
  return s;
}

inline std::string refusal(const std::string& kernel, const Case& c) { return run_case(kernel, c).refused; }

}  // namespace ws::test
