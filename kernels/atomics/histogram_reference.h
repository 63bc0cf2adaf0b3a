// Host reference of the histogram (atomics/histogram.cuh): the four pictures it counts and their
// histograms.
//
//   const std::vector<int> colors = ws::reference::histogram::colors(n, bins, Input::Image, seed);
//   const std::vector<unsigned> want = ws::reference::histogram::counts(colors, bins);
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace ws::reference::histogram {

// The pictures: every colour as likely (uniform), one colour everywhere (the worst case: the
// whole grid queues on one bin), a photograph-like one (a few dominant colours: sky and
// background take most pixels), and the uniform one sorted (neighbouring pixels share a colour).
enum class Input { Uniform = 0, OneColour = 1, Image = 2, Sorted = 3 };
inline const char* const kInputNames[] = {"uniform", "one-colour", "image", "sorted"};

inline std::vector<int> colors(uint64_t n, uint32_t bins, Input input, uint64_t seed) {
  std::vector<int> c(n);
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + 17);
  std::uniform_int_distribution<uint32_t> any(0, bins - 1);
  switch (input) {
    case Input::OneColour:
      std::fill(c.begin(), c.end(), int(bins / 2));
      break;
    case Input::Image: {
      // 4 dominant colours (or fewer bins) take 80% of the pixels, in regions of 64 pixels, as a
      // photograph's rows cross sky and background; the rest is any colour.
      const uint32_t dominant[4] = {0, bins / 3, bins / 2, bins - 1};
      std::uniform_int_distribution<uint32_t> pick(0, 3), percent(0, 99);
      for (uint64_t i = 0; i < n; i += 64) {
        const bool region_dominant = percent(rng) < 80;
        const int colour = int(dominant[pick(rng)]);
        for (uint64_t k = i; k < std::min<uint64_t>(n, i + 64); ++k) c[k] = region_dominant ? colour : int(any(rng));
      }
      break;
    }
    case Input::Sorted:
    case Input::Uniform:
      for (int& x : c) x = int(any(rng));
      if (input == Input::Sorted) std::sort(c.begin(), c.end());
      break;
  }
  return c;
}

inline std::vector<unsigned> counts(const std::vector<int>& colors, uint32_t bins) {
  std::vector<unsigned> h(bins, 0);
  for (int x : colors) ++h[size_t(x)];
  return h;
}

}  // namespace ws::reference::histogram
