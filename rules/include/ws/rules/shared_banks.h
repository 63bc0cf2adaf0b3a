// How many passes (wavefronts) a warp's shared-memory instruction takes, and which bank serves
// which word in which pass: the bank-conflict rule. The emulator counts every instruction with
// it, the analysis sums it per site and launch, and the access map draws its rows from it.
//
// 32 banks of 4 bytes: bank = (byte address / 4) % 32. A lane accessing `width` bytes at address a
// touches the 4-byte words floor(a/4) .. floor((a+width-1)/4). The warp is processed in phases:
//   width <= 4 : 1 phase  (all 32 lanes)
//   width == 8 : 2 phases (lanes 0-15, 16-31)        -- half-warp
//   width == 16: 4 phases (lanes 0-7, 8-15, ...)     -- quarter-warp
// (any other width uses the phase size of the next larger of 4/8/16 bytes).
// Lanes of one phase touching the same word are served together (multicast, reads and writes).
// A phase needs as many wavefronts as the largest number of DISTINCT words any one bank must serve
// in that phase; the instruction's wavefronts are the sum over phases that have an active lane.
//
// Ideal wavefronts: one per phase that has at least one active lane. So: 4-byte full warp -> 1;
// 8-byte full warp -> 2; 16-byte full warp -> 4; a 16-byte load with only lanes 0-7 active -> 1;
// an 8-byte load with lanes 0 and 31 active -> 2. Bank conflicts = wavefronts - ideal (never
// negative). This is how Nsight Compute's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}
// relate to ..._wavefronts_..._op_{ld,st} for the patterns the referee script measures.
//
// Example: one warp reads `s[t*stride]` from `__shared__ float s[1024]`:
//
//     std::array<uint64_t, 32> addr;
//     for (int t = 0; t < 32; ++t) addr[t] = 4ull * t * 2;          // stride 2
//     ws::rules::SharedMetrics m = ws::rules::shared_bank_metrics(4, 0xffffffffu, addr);
//     // m.wavefronts == 2, m.ideal_wavefronts == 1, m.conflicts == 1
//     // m.bank_ways[0] == 2 (words 0 and 32), m.bank_ways[1] == 0 (odd banks unused)
//     // m.lane_wavefront[0] == 0, m.lane_wavefront[16] == 1 (lane 16's word 32 waits a pass)
//
// Stride table (4-byte, full warp): 1 -> 1 wavefront / 0 conflicts, 2 -> 2/1, 4 -> 4/3, 8 -> 8/7,
// 16 -> 16/15, 32 -> 32/31, 33 -> 1/0 (measured with ncu on an H200 for 1, 2, 8, 32, 33).
//
// Which wavefront serves which word (for drawing): inside a phase, the words of one bank are
// numbered in the order in which the lanes (lowest lane first) first touch them; word k of a bank
// is served in the phase's k-th wavefront. A lane's wavefront is that of the LAST of its words
// (the pass after which all of its bytes have been served).
//
// Addresses: one entry per ACTIVE lane, in lane order (as Trace::lane_offsets stores them, but
// absolute byte addresses in the block's shared window).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ws::rules {

inline constexpr uint32_t kBanks = 32;
inline constexpr uint32_t kBankBytes = 4;

// Number of phases a shared access of `width` bytes per lane is split into: 1, 2 or 4.
uint32_t shared_phases(uint32_t width);

// One 4-byte shared-memory word served by an instruction.
struct SharedWord {
  uint64_t word = 0;       // byte address / 4 (in the block's shared window)
  uint8_t bank = 0;        // word % 32
  uint8_t phase = 0;       // 0 .. phases-1
  uint16_t wavefront = 0;  // 0 .. wavefronts-1, over the whole instruction (phases in order)
  uint32_t lanes = 0;      // lanes that touch this word (more than one = multicast)
};

struct SharedMetrics {
  uint32_t phases = 1;            // 1, 2 or 4 (from the width)
  uint32_t active_phases = 0;     // phases with at least one active lane
  uint32_t wavefronts = 0;        // passes needed
  uint32_t ideal_wavefronts = 0;  // == active_phases (see the rule above)
  uint32_t conflicts = 0;         // wavefronts - ideal_wavefronts
  uint32_t max_ways = 0;          // largest number of distinct words one bank serves in one phase
  // Wavefront in which lane l's data is complete; -1 for inactive lanes.
  std::array<int16_t, 32> lane_wavefront{};
  // Per bank: the largest number of distinct words it serves in any one phase ("n-way").
  std::array<uint8_t, 32> bank_ways{};
  // Per bank: distinct words it serves over all phases (what the bank x instruction heatmap shows
  // as load; a conflict-free float4 load gives 4 in every bank, with bank_ways all 1).
  std::array<uint8_t, 32> bank_words{};
  // Every word served, sorted by (wavefront, bank): draw one row per wavefront.
  std::vector<SharedWord> words;
};

// Everything about one instruction, for drawing it.
SharedMetrics shared_bank_metrics(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses);

// Cheap counts only (no per-word / per-lane detail); what the analysis sums on every instruction.
struct SharedCounts {
  uint32_t wavefronts = 0, ideal_wavefronts = 0, max_ways = 0;
  std::array<uint8_t, 32> bank_ways{}, bank_words{};
};
SharedCounts shared_bank_counts(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses);
// The same wavefronts, ideal wavefronts and max_ways, without the per-bank arrays (left zero):
// what per-site counters need, on every instruction of every counted block.
SharedCounts shared_wavefront_counts(uint32_t width, uint32_t mask, std::span<const uint64_t> addresses);

}  // namespace ws::rules
