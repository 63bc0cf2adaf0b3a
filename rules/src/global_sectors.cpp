#include "ws/rules/global_sectors.h"

#include <algorithm>

#include "lanes.h"

namespace ws::rules {

GlobalCounts global_access_counts(uint32_t width, std::span<const uint64_t> addresses) {
  GlobalCounts c;
  uint64_t sectors[kWarpLanes * 2];
  size_t n = 0;
  for (uint64_t a : addresses) {
    if (n + 2 > std::size(sectors)) break;
    const uint64_t first = a / kSectorBytes, last = last_byte(a, width) / kSectorBytes;
    sectors[n++] = first;
    if (last != first) sectors[n++] = last;  // width <= 16 spans at most 2 sectors
  }
  // Lanes usually walk memory upwards (a[tid], a[2 * tid]): then the sectors come out in order
  // and need no sort.
  if (!std::is_sorted(sectors, sectors + n)) std::sort(sectors, sectors + n);
  n = static_cast<size_t>(std::unique(sectors, sectors + n) - sectors);
  c.sectors = static_cast<uint32_t>(n);
  uint64_t prev_line = ~0ull;
  for (size_t k = 0; k < n; ++k) {
    const uint64_t line = sectors[k] / (kLineBytes / kSectorBytes);
    if (line != prev_line) ++c.lines;
    prev_line = line;
  }
  return c;
}

GlobalMetrics global_access_metrics(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses) {
  GlobalMetrics g;
  g.lane_sector.fill(-1);
  const uint32_t w = width ? width : 1;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // [first, last] bytes
  for_each_lane(mask, addresses, [&](uint32_t, uint64_t a) {
    g.bytes_requested += w;
    for (uint64_t s = a / kSectorBytes; s <= last_byte(a, w) / kSectorBytes; ++s)
      g.sector_addresses.push_back(s * kSectorBytes);
    ranges.emplace_back(a, last_byte(a, w));
  });
  std::sort(g.sector_addresses.begin(), g.sector_addresses.end());
  g.sector_addresses.erase(std::unique(g.sector_addresses.begin(), g.sector_addresses.end()),
                           g.sector_addresses.end());
  for (uint64_t s : g.sector_addresses) {
    const uint64_t line = s / kLineBytes * kLineBytes;
    if (g.line_addresses.empty() || g.line_addresses.back() != line) g.line_addresses.push_back(line);
  }
  for_each_lane(mask, addresses, [&](uint32_t lane, uint64_t a) {
    const uint64_t s = a / kSectorBytes * kSectorBytes;
    auto it = std::lower_bound(g.sector_addresses.begin(), g.sector_addresses.end(), s);
    g.lane_sector[lane] = static_cast<int16_t>(it - g.sector_addresses.begin());
  });
  std::sort(ranges.begin(), ranges.end());
  uint64_t covered_end = 0;  // one past the last byte counted
  bool any = false;
  for (auto [first, last] : ranges) {
    const uint64_t start = any ? std::max(first, covered_end) : first;
    if (last + 1 > start) g.bytes_unique += last + 1 - start;
    covered_end = any ? std::max(covered_end, last + 1) : last + 1;
    any = true;
  }
  g.requests = g.bytes_requested ? 1 : 0;
  g.sectors = static_cast<uint32_t>(g.sector_addresses.size());
  g.lines = static_cast<uint32_t>(g.line_addresses.size());
  g.bytes_moved = uint64_t(g.sectors) * kSectorBytes;
  g.efficiency = g.bytes_moved ? double(g.bytes_requested) / double(g.bytes_moved) : 0.0;
  return g;
}

}  // namespace ws::rules
