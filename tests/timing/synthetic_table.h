// A reduction table as a GPU would have given it, for tests that have no GPU.
#pragma once

#include "ws/analysis/timing.h"
#include "ws/timing/timing.h"

namespace wstest {

// A table as a GPU would have given it: 2^24 ints (64 MiB) at 500, 1000, 1500, 2000 GB/s for
// variants 1-4 and 2500 GB/s for CUB, under a 4000 GB/s read ceiling.
inline ws::timing::ReductionTable synthetic_table() {
  ws::timing::ReductionTable t;
  t.n = 1u << 24;
  t.block = 256;
  t.dtype = "int";
  t.ceilings.ok = true;
  t.ceilings.read_gbps = 4000;
  t.ceilings.copy_gbps = 3600;
  const char* variants[] = {"1", "2", "3", "4", "cub"};
  for (int k = 0; k < 5; ++k) {
    ws::timing::TableRow r;
    r.m.kernel = "reduce";
    r.m.variant = variants[k];
    r.m.variant_name = "variant " + r.m.variant;
    r.m.ok = true;
    r.m.passed = true;
    const double ms = double(uint64_t(4) << 24) / (500.0 * (k + 1) * 1e6);
    r.m.samples = {ms * 0.99, ms, ms * 1.01, ms, ms};
    r.m.stats = ws::analysis::summarize(r.m.samples);
    r.m.bytes = uint64_t(4) << 24;
    r.m.gbps = ws::analysis::gigabytes_per_second(r.m.bytes, r.m.stats.median);
    t.rows.push_back(r);
  }
  t.complete = true;
  ws::timing::fill_speedups(t);
  return t;
}

}  // namespace wstest
