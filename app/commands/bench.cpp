// `warpscope bench`: the lecture's reduction table timed on this GPU, beside CUB and the device's
// measured ceilings (the same ws::timing functions the Timing panel uses).
//
//   warpscope bench                      # n = 2^28 and 2^24 ints, block 256: text tables
//   warpscope bench --json --n 16777216  # one size, machine-readable
//
// Exit codes: 0 measured (every variant ran and passed), 1 no GPU / a failed check / a fault,
// 2 bad options.
#include "bench.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "ws/timing/timing.h"

namespace ws::app {

namespace {

struct BenchOptions {
  CLI::App* cmd = nullptr;
  bool json = false;
  std::vector<uint64_t> sizes;
  uint32_t block = 256;
  std::string dtype = "int";
  unsigned reps = 30, warmup = 3;
};

BenchOptions& options() {
  static BenchOptions o;
  return o;
}

nlohmann::json stats_json(const analysis::TimingStats& s) {
  return {{"count", s.count}, {"median_ms", s.median}, {"p10_ms", s.p10}, {"p90_ms", s.p90}, {"min_ms", s.min},
          {"max_ms", s.max},  {"mean_ms", s.mean},     {"outliers", s.outliers}};
}

nlohmann::json table_json(const timing::ReductionTable& t) {
  nlohmann::json j;
  j["n"] = t.n;
  j["dtype"] = t.dtype;
  j["block"] = t.block;
  if (t.same_size.ok)
    j["read_same_size"] = {{"bytes", t.same_size.bytes}, {"read_gbps", t.same_size.read_gbps}, {"grid", t.same_size.read_grid}};
  for (const timing::TableRow& r : t.rows) {
    const timing::Measurement& m = r.m;
    nlohmann::json row = {{"variant", m.variant}, {"name", m.variant_name}, {"ok", m.ok}};
    if (!m.ok) {
      row["error"] = m.error;
    } else {
      row["passed"] = m.passed;
      row["check"] = m.check;
      row["time"] = stats_json(m.stats);
      row["bytes"] = m.bytes;
      row["gbps"] = m.gbps;
      row["pct_of_read_ceiling"] = r.pct_of_read;
      row["vs_cub"] = r.vs_cub;
      row["step_speedup"] = r.step_speedup;
      row["cumulative_speedup"] = r.cumulative_speedup;
      row["launches"] = m.launches;
      if (!m.tuning.empty()) row["tuning"] = m.tuning;
      row["params"] = m.config.params;
    }
    if (const timing::G80Row* g = timing::g80_row(m.variant))
      row["g80"] = {{"ms_2_22", g->ms}, {"gbps", g->gbps}, {"step_speedup", g->step_speedup},
                    {"cumulative_speedup", g->cumulative_speedup}};
    j["rows"].push_back(std::move(row));
  }
  if (const timing::TableRow* b = t.best())
    j["best"] = {{"variant", b->m.variant}, {"gbps", b->m.gbps}, {"pct_of_read_ceiling", b->pct_of_read},
                 {"vs_cub", b->vs_cub}};
  return j;
}

int cmd_bench(const BenchOptions& o) {
  const timing::Device& d = timing::device();
  if (!d.present) {
    std::fprintf(stderr, "warpscope: bench times kernels on a CUDA GPU, and there is none: %s\n", d.why_not.c_str());
    return 1;
  }
  std::vector<uint64_t> sizes = o.sizes;
  if (sizes.empty()) sizes = {1ull << 28, 1ull << 24};
  for (uint64_t n : sizes)
    if (n == 0 || n > (1ull << 31)) {
      std::fprintf(stderr, "warpscope: --n %llu: the reductions take 1 to 2^31 elements\n", static_cast<unsigned long long>(n));
      return 2;
    }
  if (!o.json) std::fprintf(stderr, "measuring the device's ceilings...\n");
  const timing::Ceilings c = timing::measure_ceilings();
  if (!c.ok) {
    std::fprintf(stderr, "warpscope: measuring the ceilings failed: %s\n", c.error.c_str());
    return 1;
  }
  nlohmann::json out;
  out["device"] = {{"name", d.name},
                   {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                   {"sm_count", d.sm_count},
                   {"l2_bytes", d.l2_bytes},
                   {"memory_bytes", d.memory_bytes},
                   {"sm_clock_mhz", d.sm_clock_mhz},
                   {"mem_clock_mhz", d.mem_clock_mhz},
                   {"bus_width_bits", d.bus_width_bits},
                   {"datasheet_gbps", d.theoretical_gbps()}};
  out["ceilings"] = {{"bytes", c.bytes},         {"read_gbps", c.read_gbps}, {"read_grid", c.read_grid},
                     {"copy_gbps", c.copy_gbps}, {"read", stats_json(c.read)}, {"copy", stats_json(c.copy)}};
  bool all_pass = true;
  for (uint64_t n : sizes) {
    auto progress = [&](const std::string& what) {
      if (!o.json) std::fprintf(stderr, "  %s\n", what.c_str());
    };
    const timing::ReductionTable t = timing::time_reductions(n, o.dtype, o.block, c, {o.warmup, o.reps, true}, progress);
    for (const timing::TableRow& r : t.rows) all_pass &= r.m.ok && r.m.passed;
    if (o.json) out["tables"].push_back(table_json(t));
    else std::printf("%s\n", timing::format_table(t).c_str());
  }
  if (o.json) std::printf("%s\n", out.dump(2).c_str());
  return all_pass ? 0 : 1;
}

}  // namespace

void register_bench(CLI::App& app) {
  BenchOptions& o = options();
  o.cmd = app.add_subcommand("bench",
                             "Time every reduction variant and CUB on the GPU (gpu-fast, CUDA events), with the "
                             "device's measured read and copy ceilings (needs a CUDA GPU)");
  o.cmd->add_flag("--json", o.json, "Machine-readable output");
  o.cmd->add_option("--n", o.sizes, "Element counts (repeatable; default 268435456 and 16777216)")->type_name("N");
  o.cmd->add_option("--block", o.block, "Threads per block (default 256)")->check(CLI::IsMember({64, 128, 256, 512, 1024}));
  o.cmd->add_option("--dtype", o.dtype, "int or float (default int)")->check(CLI::IsMember({"int", "float"}));
  o.cmd->add_option("--reps", o.reps, "Timed replays per variant (default 30)")->check(CLI::Range(1, 10000));
  o.cmd->add_option("--warmup", o.warmup, "Untimed replays first (default 3)")->check(CLI::Range(0, 1000));
}

int run_bench_if_selected() {
  const BenchOptions& o = options();
  if (o.cmd && o.cmd->parsed()) return cmd_bench(o);
  return -1;
}

}  // namespace ws::app
