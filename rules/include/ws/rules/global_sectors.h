// What a warp's global-memory instruction costs the memory system: one request, the 32-byte
// sectors and 128-byte lines its lanes touch, and the bytes it moves for the bytes it asked for
// (coalescing). The emulator counts every instruction with it, the analysis sums it per site and
// launch (Nsight Compute's l1tex__t_requests / l1tex__t_sectors), the access map draws it.
//
// One request per warp instruction with an active lane. A lane touching [a, a+width) touches the
// 32-byte sectors floor(a/32)..floor((a+width-1)/32) and the 128-byte lines likewise.
// bytes_requested = active lanes x width; bytes_moved = distinct sectors x 32;
// efficiency = bytes_requested / bytes_moved. Like nvprof's gld_efficiency this can exceed 1.0 when
// lanes read the same bytes (broadcast); bytes_unique / bytes_moved never does.
//
//     // 32 lanes, 4 bytes, consecutive, base 128-aligned: 4 sectors, 1 line, efficiency 1.0
//     // same, shifted by 4 bytes: 5 sectors, 2 lines, efficiency 0.8
//     // float4 (16 bytes) consecutive: 16 sectors, 4 lines
//     ws::rules::GlobalMetrics g = ws::rules::global_access_metrics(4, 0xffffffffu, addr);
//
// Addresses: one entry per ACTIVE lane, in lane order, absolute byte addresses.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ws::rules {

inline constexpr uint32_t kSectorBytes = 32;
inline constexpr uint32_t kLineBytes = 128;

struct GlobalMetrics {
  uint32_t requests = 0;         // 1 for an instruction with an active lane
  uint32_t sectors = 0;          // distinct 32-byte sectors
  uint32_t lines = 0;            // distinct 128-byte lines
  uint64_t bytes_requested = 0;  // active lanes x width
  uint64_t bytes_unique = 0;     // distinct bytes touched
  uint64_t bytes_moved = 0;      // sectors x 32
  double efficiency = 0.0;       // bytes_requested / bytes_moved (may exceed 1 on broadcast)
  std::vector<uint64_t> sector_addresses;  // byte address of each sector touched, ascending
  std::vector<uint64_t> line_addresses;    // byte address of each line touched, ascending
  // Index into sector_addresses of the sector holding lane l's first byte; -1 for inactive lanes.
  std::array<int16_t, 32> lane_sector{};
};

// Everything about one instruction, for drawing it.
GlobalMetrics global_access_metrics(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses);

// Cheap counts only; what the analysis and the emulator's per-site counters sum.
struct GlobalCounts {
  uint32_t sectors = 0, lines = 0;
};
GlobalCounts global_access_counts(uint32_t width, std::span<const uint64_t> addresses);

}  // namespace ws::rules
