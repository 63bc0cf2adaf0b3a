// The lecture's reduction table (seed 003), timed live on this GPU.
#include <optional>
#include <algorithm>
#include <cstdio>

#include "ws/timing/timing.h"

namespace ws::timing {

namespace {
// Seed 003, "Time (2^22 ints)" table: GeForce 8800 GTX, 384-bit bus at 1.8 GHz DDR, 86.4 GB/s.
constexpr G80Row kG80[] = {
    {"1", 8.054, 2.083, 0, 0},        {"2", 3.456, 4.854, 2.33, 2.33},   {"3", 1.722, 9.741, 2.01, 4.68},
    {"4", 0.965, 17.377, 1.78, 8.34}, {"5", 0.536, 31.289, 1.8, 15.01},  {"6", 0.381, 43.996, 1.41, 21.16},
    {"7", 0.268, 62.671, 1.42, 30.04},
};

// Elements per thread tried for the grid-stride variants.
constexpr int64_t kPerThread[] = {8, 16, 32, 64, 128, 256};

// The grid of a grid-stride variant, tuned: elements per thread (kPerThread), then whole waves of
// resident blocks (max_blocks = SMs x blocks an SM holds, x 1 and x 2). Past 2^26 elements even
// 256 per thread launches several waves, and the last one runs on part of the GPU; a block's
// ticket or atomic tail also grows with the grid. Every choice is timed at full length (the replays
// cost milliseconds; a run's set-up, the input and its check, cost far more); the fastest is kept.
Measurement tune_grid(const Catalog& catalog, const RunConfig& cfg, const VariantSpec& v, uint64_t n, uint32_t block, Repeats r,
                      const Progress& progress, const std::atomic<bool>* cancel) {
  if (progress) progress("timing reduce " + v.id + " (" + v.name + "), elements per thread 8..256 and whole waves");
  std::vector<int64_t> per_thread;
  for (int64_t p : kPerThread)
    if (uint64_t(p) * block <= std::max<uint64_t>(n, block)) per_thread.push_back(p);
  std::vector<SweepPoint> pts = sweep(catalog, "reduce", cfg, "per_thread", per_thread, r, {}, cancel);
  for (SweepPoint& p : pts) p.label = "per_thread = " + std::to_string(p.x);
  const int64_t wave = int64_t(device().sm_count) * std::max<int64_t>(1, 2048 / int64_t(block));
  std::vector<int64_t> waves;
  for (int64_t w : {wave, 2 * wave})
    if (w > 0 && uint64_t(w) * block * 8 <= n) waves.push_back(w);  // (at least 8 elements a thread)
  RunConfig by_waves = cfg;
  by_waves.params["per_thread"] = 0;  // (0: max_blocks decides)
  for (SweepPoint& p : sweep(catalog, "reduce", by_waves, "max_blocks", waves, r, {}, cancel)) {
    p.label = "max_blocks = " + std::to_string(p.x) + " (" + std::to_string(p.x / wave) + " wave" +
              (p.x == wave ? "" : "s") + " of " + std::to_string(wave) + " resident blocks)";
    pts.push_back(std::move(p));
  }
  SweepPoint* best = nullptr;
  for (SweepPoint& p : pts)
    if (p.m.ok && p.m.passed && (!best || p.m.stats.median < best->m.stats.median)) best = &p;
  if (!best) return pts.empty() ? measure(catalog, "reduce", cfg, r) : std::move(pts.front().m);  // says why it failed
  Measurement m = std::move(best->m);
  m.tuning = best->label + " (fastest of per_thread " + std::to_string(per_thread.front()) + ".." +
             std::to_string(per_thread.back()) + (waves.empty() ? "" : " and whole waves") + ")";
  return m;
}

}  // namespace

std::span<const G80Row> g80_reference() { return kG80; }

const G80Row* g80_row(const std::string& variant) {
  for (const G80Row& r : kG80)
    if (variant == r.variant) return &r;
  return nullptr;
}

const TableRow* ReductionTable::best() const {
  const TableRow* b = nullptr;
  for (const TableRow& r : rows)
    if (r.m.ok && r.m.passed && r.m.variant != "cub" && (!b || r.m.stats.median < b->m.stats.median)) b = &r;
  return b;
}

const TableRow* ReductionTable::cub() const {
  for (const TableRow& r : rows)
    if (r.m.variant == "cub" && r.m.ok) return &r;
  return nullptr;
}

void fill_speedups(ReductionTable& t) {
  const TableRow* cub = t.cub();
  const double cub_ms = cub ? cub->m.stats.median : 0;
  double first_ms = 0, prev_ms = 0;
  for (TableRow& r : t.rows) {
    r.step_speedup = r.cumulative_speedup = r.vs_cub = r.pct_of_read = 0;
    if (!r.m.ok || r.m.stats.median <= 0) {
      if (r.m.variant != "cub") prev_ms = 0;  // no step speedup across a gap
      continue;
    }
    const double ms = r.m.stats.median;
    if (const Ceilings& c = t.read_reference(); c.ok && c.read_gbps > 0) r.pct_of_read = 100.0 * r.m.gbps / c.read_gbps;
    if (cub_ms > 0) r.vs_cub = cub_ms / ms;
    if (r.m.variant == "cub") continue;
    if (first_ms == 0 && r.m.variant == "1") first_ms = ms;
    if (prev_ms > 0) r.step_speedup = prev_ms / ms;
    if (first_ms > 0) r.cumulative_speedup = first_ms / ms;
    prev_ms = ms;
  }
}

ReductionTable time_reductions(const Catalog& catalog, uint64_t n, const std::string& dtype, uint32_t block, const Ceilings& ceilings,
                               Repeats r, const Progress& progress, const std::atomic<bool>* cancel) {
  ReductionTable t;
  t.n = n;
  t.block = block;
  t.dtype = dtype;
  t.ceilings = ceilings;
  const std::optional<CatalogEntry> e = catalog.copy("reduce");  // (a copy: a kernel file may replace it)
  if (!e) return t;
  if (device().present) {
    if (progress) progress("measuring the read-only stream over the same bytes");
    t.same_size = measure_ceilings(n * 4, 15);  // int and float are both 4 bytes
  }
  for (const VariantSpec& v : e->spec.variants) {
    if (v.broken) continue;
    if (cancel && cancel->load()) return t;
    RunConfig cfg;
    cfg.variant = v.id;
    cfg.n = n;
    cfg.block = Dim3{block, 1, 1};
    cfg.dtype = dtype;
    TableRow row;
    if (v.takes_grid && device().present) {
      row.m = tune_grid(catalog, cfg, v, n, block, r, progress, cancel);
    } else {
      if (progress) progress("timing reduce " + v.id + " (" + v.name + ")");
      row.m = measure(catalog, "reduce", cfg, r);
    }
    t.rows.push_back(std::move(row));
  }
  t.complete = true;
  fill_speedups(t);
  return t;
}

std::string format_table(const ReductionTable& t) {
  std::string s;
  char buf[512];
  const Device& d = device();
  std::snprintf(buf, sizeof buf, "reduce, n = %llu %s (%.1f MiB), block %u, on %s (%d SMs, L2 %.0f MiB)\n",
                static_cast<unsigned long long>(t.n), t.dtype.c_str(), double(t.n) * 4 / (1 << 20), t.block,
                d.present ? d.name.c_str() : "no GPU", d.sm_count, double(d.l2_bytes) / (1 << 20));
  s += buf;
  if (t.ceilings.ok) {
    std::snprintf(buf, sizeof buf,
                  "ceilings measured now: read-only stream %.0f GB/s (grid %s), device-to-device copy %.0f GB/s; "
                  "datasheet %.0f GB/s\n",
                  t.ceilings.read_gbps, t.ceilings.read_grid.c_str(), t.ceilings.copy_gbps, d.theoretical_gbps());
    s += buf;
  } else if (!t.ceilings.error.empty()) {
    s += "ceilings: " + t.ceilings.error + "\n";
  }
  if (t.same_size.ok) {
    std::snprintf(buf, sizeof buf, "read-only stream over the same %.1f MiB: %.0f GB/s (the %%read column's reference)\n",
                  double(t.same_size.bytes) / (1 << 20), t.same_size.read_gbps);
    s += buf;
  }
  std::snprintf(buf, sizeof buf, "%-4s %-44s %10s %7s %9s %6s %7s %6s %7s | %-11s | %s\n", "var", "name", "median",
                "spread", "GB/s", "%read", "vs CUB", "step", "cumul", "G80 step/cum", "check");
  s += buf;
  for (const TableRow& r : t.rows) {
    const Measurement& m = r.m;
    std::string name = m.variant_name.substr(0, 44);
    if (!m.ok) {
      std::snprintf(buf, sizeof buf, "%-4s %-44s not timed: %s\n", m.variant.c_str(), name.c_str(), m.error.c_str());
      s += buf;
      continue;
    }
    char step[16] = "", cum[16] = "", g80[24] = "", vs[16] = "";
    if (r.step_speedup > 0) std::snprintf(step, sizeof step, "%.2fx", r.step_speedup);
    if (r.cumulative_speedup > 0) std::snprintf(cum, sizeof cum, "%.2fx", r.cumulative_speedup);
    if (r.vs_cub > 0) std::snprintf(vs, sizeof vs, "%.3f", r.vs_cub);
    if (const G80Row* g = g80_row(m.variant); g && g->step_speedup > 0)
      std::snprintf(g80, sizeof g80, "%.2fx/%.2fx", g->step_speedup, g->cumulative_speedup);
    std::snprintf(buf, sizeof buf, "%-4s %-44s %10s %6.1f%% %9.1f %5.1f%% %7s %6s %7s | %-11s | %s%s%s\n",
                  m.variant.c_str(), name.c_str(), analysis::format_duration_ms(m.stats.median).c_str(),
                  100 * m.stats.relative_spread(), m.gbps, r.pct_of_read, vs, step, cum, g80,
                  m.passed ? "PASS" : "FAIL", m.tuning.empty() ? "" : "  ", m.tuning.c_str());
    s += buf;
  }
  if (const TableRow* b = t.best(); b) {
    const TableRow* c = t.cub();
    std::snprintf(buf, sizeof buf, "best: variant %s, %.1f GB/s = %.1f%% of the read ceiling, %.3fx CUB's speed\n",
                  b->m.variant.c_str(), b->m.gbps, b->pct_of_read, c ? b->vs_cub : 0.0);
    s += buf;
  }
  return s;
}

}  // namespace ws::timing
