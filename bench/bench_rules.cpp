// Cost of the per-instruction counting rules that analyze() runs on every warp instruction and the
// emulator runs on every access of the blocks it counts but does not record
// (analysis::shared_bank_counts, analysis::global_access_counts), in ns per warp instruction, for
// the patterns of the lecture kernels: a[tid] (stride 1), a[2 * tid] (2-way), a[32 * tid]
// (32-way), one word for all lanes (broadcast), 16 active lanes (a reduction step), a random
// permutation of one 128-byte line, and random words.
//
//   build/bench/bench_rules
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <vector>

#include "ws/rules/global_sectors.h"
#include "ws/rules/shared_banks.h"

namespace {

struct Pattern {
  const char* name;
  uint32_t mask;
  std::vector<uint64_t> addresses;  // one per active lane, lane order
};

Pattern strided(const char* name, uint64_t stride_bytes, uint32_t lanes = 32) {
  Pattern p{name, lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u, {}};
  for (uint32_t l = 0; l < lanes; ++l) p.addresses.push_back(4096 + l * stride_bytes);
  return p;
}

// Median ns per call of f over 15 runs of `calls` calls each.
template <class F>
double median_ns(F&& f, int calls) {
  std::vector<double> t;
  for (int r = 0; r < 15; ++r) {
    const auto a = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) f();
    const auto b = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::nano>(b - a).count() / calls);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main() {
  std::mt19937 rng(7);
  std::vector<Pattern> patterns = {strided("stride 1 (a[tid])", 4), strided("stride 2 (2-way)", 8),
                                   strided("stride 32 (32-way)", 128), strided("broadcast", 0),
                                   strided("16 lanes, stride 1", 4, 16)};
  Pattern perm{"permuted line", 0xffffffffu, {}};
  for (uint32_t l = 0; l < 32; ++l) perm.addresses.push_back(4096 + l * 4);
  std::shuffle(perm.addresses.begin(), perm.addresses.end(), rng);
  patterns.push_back(perm);
  Pattern rnd{"random words", 0xffffffffu, {}};
  for (uint32_t l = 0; l < 32; ++l) rnd.addresses.push_back(4 * (rng() % 8192));
  patterns.push_back(rnd);

  std::printf("%-22s %14s %14s\n", "pattern (4-byte)", "shared ns", "global ns");
  volatile uint32_t sink = 0;
  for (const Pattern& p : patterns) {
    const std::span<const uint64_t> a(p.addresses);
    const double s = median_ns([&] { sink = sink + ws::rules::shared_bank_counts(4, p.mask, a).wavefronts; }, 20000);
    const double g = median_ns([&] { sink = sink + ws::rules::global_access_counts(4, a).sectors; }, 20000);
    std::printf("%-22s %14.1f %14.1f\n", p.name, s, g);
  }
  return 0;
}
