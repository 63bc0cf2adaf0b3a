// Every shuffle mode over many lane offsets and segment widths, for the emulator's test
// (tests/emu) and the GPU's (tests/gpu): the GPU test holds the host reference below against the
// hardware, the emulator's test holds the emulator against the same reference.
//
// Worked example (width 16, so lanes 0-15 and 16-31 are two segments): __shfl_xor_sync with
// lane mask 16 gives lane 20 the value of lane 4 (an earlier segment may be read), while lane 4
// keeps its own (a later one may not); __shfl_down_sync by 33 moves by 1, because only the low
// five bits of the offset count (PTX shfl.sync: bval[4:0] = b[4:0]).
#pragma once

#include <cstdint>
#include <vector>

#include "ws/kernel.cuh"

namespace shuffle_cases {

// kIdxPerLane: __shfl_sync with a source lane that differs per lane (31 - lane + operand).
// kDownPerLaneWidth: __shfl_down_sync where each lane passes its own width, 1 << (lane % 6)
// (the case's width is not used); each lane's source follows from its own width.
enum Mode : int { kIdx = 0, kUp = 1, kDown = 2, kXor = 3, kIdxPerLane = 4, kDownPerLaneWidth = 5 };

inline int lane_width(int lane) { return 1 << (lane % 6); }

// (mode, operand, width) triples, flattened.
inline std::vector<int> all_cases() {
  std::vector<int> c;
  for (int mode : {kIdx, kUp, kDown, kXor, kIdxPerLane, kDownPerLaneWidth})
    for (int width : {1, 2, 4, 8, 16, 32})
      for (int arg : {0, 1, 2, 3, 5, 7, 8, 13, 16, 31, 32, 33, 47, -1, -16})
        c.insert(c.end(), {mode, arg, width});
  return c;
}

// The lane whose value `lane` receives, as PTX's shfl.sync defines it with the clamp and segment
// mask that CUDA's __shfl_*_sync pass for `width`; the lane itself where the source is out of
// its range.
inline int source_lane(int mode, int lane, int arg, int width) {
  const int b = arg & 31;               // only the low five bits of the operand count
  const int first = lane & ~(width - 1);  // the segment's lanes: first .. first + width - 1
  const int last = first | (width - 1);
  switch (mode) {
    case kIdx: return first | (b & (width - 1));
    case kIdxPerLane: return first | ((31 - lane + arg) & (width - 1));
    case kDownPerLaneWidth: return source_lane(kDown, lane, arg, lane_width(lane));
    case kUp: return lane - b >= first ? lane - b : lane;
    case kDown: return lane + b <= last ? lane + b : lane;
    default: return (lane ^ b) <= last ? lane ^ b : lane;  // an earlier segment may be read
  }
}

// What thread t of a block of `threads` writes for each case: the value (1000 + threadIdx.x) of
// its source lane.
inline std::vector<int> expected(const std::vector<int>& cases, unsigned threads) {
  std::vector<int> out;
  for (size_t c = 0; c + 2 < cases.size(); c += 3)
    for (unsigned t = 0; t < threads; ++t) {
      const int lane = int(t % 32), warp_first = int(t - t % 32);
      out.push_back(1000 + warp_first + source_lane(cases[c], lane, cases[c + 1], cases[c + 2]));
    }
  return out;
}

}  // namespace shuffle_cases

// One block, whole warps: for each case every thread shuffles its own value (1000 + threadIdx.x)
// and writes what it got to out[case * blockDim.x + threadIdx.x].
__global__ void shuffle_every_mode(ws::global_array<const int> cases, ws::global_array<int> out, unsigned count) {
  const int v = 1000 + int(threadIdx.x);
  for (unsigned c = 0; c < count; ++c) {
    const int mode = cases[3 * c], arg = cases[3 * c + 1], width = cases[3 * c + 2];
    int r = 0;
    if (mode == shuffle_cases::kIdx) r = __shfl_sync(0xffffffffu, v, arg, width);
    else if (mode == shuffle_cases::kUp) r = __shfl_up_sync(0xffffffffu, v, unsigned(arg), width);
    else if (mode == shuffle_cases::kDown) r = __shfl_down_sync(0xffffffffu, v, unsigned(arg), width);
    else if (mode == shuffle_cases::kXor) r = __shfl_xor_sync(0xffffffffu, v, arg, width);
    else if (mode == shuffle_cases::kIdxPerLane) r = __shfl_sync(0xffffffffu, v, 31 - int(threadIdx.x % 32) + arg, width);
    else r = __shfl_down_sync(0xffffffffu, v, unsigned(arg), 1 << (threadIdx.x % 32 % 6));
    out[c * blockDim.x + threadIdx.x] = r;
  }
}
