// The device and its ceilings, from ws_gpu when this build has CUDA; without it, "no GPU".
#include "ws/timing/timing.h"

#if defined(WS_HAVE_CUDA)
#include "ws/gpu/ceilings.h"
#include "ws/gpu/device.h"
#endif

#include <cstdio>

namespace ws::timing {

const Device& device() {
  static const Device d = [] {
    Device out;
#if defined(WS_HAVE_CUDA)
    const gpu::DeviceInfo& g = gpu::device();
    out.present = g.present;
    out.why_not = g.why_not;
    out.name = g.name;
    out.cc_major = g.major;
    out.cc_minor = g.minor;
    out.sm_count = g.sm_count;
    out.l2_bytes = g.l2_bytes;
    out.memory_bytes = g.global_bytes;
    out.sm_clock_mhz = g.sm_clock_khz / 1000;
    out.mem_clock_mhz = g.mem_clock_khz / 1000;
    out.bus_width_bits = g.bus_width_bits;
#else
    out.why_not =
        "this build of warpscope has no CUDA (it was configured without nvcc): timing and GPU recording need a "
        "CUDA build and an NVIDIA GPU; everything else runs on the CPU emulator";
#endif
    return out;
  }();
  return d;
}

int Device::fp32_lanes_per_sm() const {
  switch (cc_major) {
    case 7: return 64;                     // Volta, Turing
    case 8: return cc_minor == 0 ? 64 : 128;  // A100: 64; GeForce Ampere, Ada: 128
    case 9: case 10: case 11: case 12: return 128;  // Hopper, Blackwell
    default: return 0;
  }
}

Ceilings measure_ceilings(uint64_t bytes, unsigned reps) {
  Ceilings c;
#if defined(WS_HAVE_CUDA)
  const gpu::Ceilings g = gpu::measure_ceilings(bytes, reps);
  c.ok = g.ok;
  c.error = g.error;
  c.bytes = g.bytes;
  c.copy_gbps = g.copy_gbps;
  c.read_gbps = g.read_gbps;
  c.copy = analysis::summarize(g.copy_ms);
  c.read = analysis::summarize(g.read_ms);
  char grid[48];
  std::snprintf(grid, sizeof grid, "%u x %u", g.read_blocks, g.read_threads);
  c.read_grid = grid;
#else
  (void)bytes;
  (void)reps;
  c.error = device().why_not;
#endif
  return c;
}

}  // namespace ws::timing
