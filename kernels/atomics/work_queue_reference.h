// Host reference of the work queue (atomics/work_queue.cuh): the items' work, the coefficient
// table, and each item's result.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace ws::reference::work_queue {

// How much work the items carry (loop iterations of do_work): all the same; skewed (one item in
// eight is 16 times longer); heavy-tailed (half take 1 iteration, a quarter 2, ... a few 1024).
enum class Work { Equal = 0, Skewed = 1, HeavyTail = 2 };
inline const char* const kWorkNames[] = {"equal", "skewed", "heavy-tail"};

inline std::vector<unsigned> work(uint64_t n, Work kind, uint64_t seed) {
  std::vector<unsigned> w(n);
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + 101);
  for (unsigned& x : w) {
    switch (kind) {
      case Work::Equal: x = 16; break;
      case Work::Skewed: x = rng() % 8 == 0 ? 128 : 8; break;
      case Work::HeavyTail: {
        unsigned it = 1;
        while (it < 1024 && (rng() & 1)) it *= 2;
        x = it;
        break;
      }
    }
  }
  return w;
}

inline std::vector<unsigned> coefficients() {
  std::vector<unsigned> c(16);
  for (unsigned k = 0; k < 16; ++k) c[k] = 1013904223u + 2654435761u * k;
  return c;
}

// do_work as the kernel computes it, in 32-bit unsigned arithmetic.
inline unsigned result(unsigned item, unsigned iterations, const std::vector<unsigned>& coeffs) {
  unsigned x = item;
  for (unsigned k = 0; k < iterations; ++k) x = x * 1664525u + coeffs[k % 16];
  return x;
}

}  // namespace ws::reference::work_queue
