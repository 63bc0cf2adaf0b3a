// Host reference of the gather (memory/gather.cuh): its index patterns and the array they give.
//
//   const std::vector<unsigned> idx = ws::reference::gather::indices(n, Pattern::Random, seed);
//   const std::vector<float> want = ws::reference::gather::gathered(prev, idx);
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace ws::reference::gather {

// identity: indices[i] = i. neighbours: pairs swapped (i ^ 1): still one line per warp. blocked:
// runs of 32 consecutive elements in a random order of runs: each warp reads one whole line
// somewhere. random: a random permutation: every lane its own sector.
enum class Pattern { Identity = 0, Neighbours = 1, Blocked = 2, Random = 3 };
inline const char* const kPatternNames[] = {"identity", "neighbours", "blocked", "random"};

inline std::vector<unsigned> indices(uint64_t n, Pattern pattern, uint64_t seed) {
  std::vector<unsigned> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  std::mt19937_64 rng(seed * 0x2545f4914f6cdd1dull + 3);
  switch (pattern) {
    case Pattern::Identity: break;
    case Pattern::Neighbours:
      for (uint64_t i = 0; i + 1 < n; i += 2) std::swap(idx[i], idx[i + 1]);
      break;
    case Pattern::Blocked: {
      const uint64_t runs = n / 32;  // whole runs move; a partial last run stays where it is
      std::vector<uint64_t> order(runs);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      for (uint64_t r = 0; r < runs; ++r)
        for (uint64_t k = 0; k < 32; ++k) idx[r * 32 + k] = unsigned(order[r] * 32 + k);
      break;
    }
    case Pattern::Random: std::shuffle(idx.begin(), idx.end(), rng); break;
  }
  return idx;
}

template <class T>
std::vector<T> gathered(const std::vector<T>& prev, const std::vector<unsigned>& idx) {
  std::vector<T> out(idx.size());
  for (size_t i = 0; i < idx.size(); ++i) out[i] = prev[idx[i]];
  return out;
}

}  // namespace ws::reference::gather
