// The device and its ceilings, from ws_gpu when this build has CUDA; without it, "no GPU". With
// warpscope's run process in use, both are asked of that process (run_process.h).
#include "ws/timing/run_process.h"
#include "ws/timing/timing.h"

#include "serve_streams.h"
#include "ws/isolation/isolated_runs.h"
#include "ws/isolation/wire.h"
#include "ws/trace/field_codec.h"

#if defined(WS_HAVE_CUDA)
#include "ws/gpu/ceilings.h"
#include "ws/gpu/device.h"
#endif

#include <cstdio>

namespace ws::timing {

namespace {

using isolation::Reader;
using isolation::Writer;

Device device_here() {
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
}

void write_device(Writer& w, const Device& d) { put_field(w, d); }

[[maybe_unused]] Device read_device(Reader& r) {
  Device d;
  get_field(r, d);
  return d;
}

#if defined(WS_HAVE_CUDA)
Device device_from_run_process() {
  const isolation::Answer a = isolation::call(isolation::Kind::Device, {}, {.what = "asking for the GPU"});
  Device d;
  if (!a.ok) {
    d.why_not = "warpscope's run process could not say which GPU there is: " + a.error;
    return d;
  }
  try {
    Reader r(a.payload);
    return read_device(r);
  } catch (const std::exception& e) {
    d.why_not = std::string("warpscope's run process gave an unreadable answer about the GPU: ") + e.what();
    return d;
  }
}

void write_gpu_ceilings(Writer& w, const gpu::Ceilings& c) { put_field(w, c); }

gpu::Ceilings read_gpu_ceilings(Reader& r) {
  gpu::Ceilings c;
  get_field(r, c);
  return c;
}

gpu::Ceilings gpu_ceilings(uint64_t bytes, unsigned reps) {
  if (!isolation::runs_gpu()) return gpu::measure_ceilings(bytes, reps);
  Writer w;
  w.u64(bytes);
  w.u32(reps);
  const isolation::Answer a = isolation::call(isolation::Kind::Ceilings, w.bytes(), {.what = "measuring the GPU's ceilings"});
  gpu::Ceilings c;
  if (!a.ok) {
    c.error = a.error;
    return c;
  }
  try {
    Reader r(a.payload);
    return read_gpu_ceilings(r);
  } catch (const std::exception& e) {
    c.error = e.what();
    return c;
  }
}
#endif

}  // namespace

const Device& device() {
  static const Device d = [] {
#if defined(WS_HAVE_CUDA)
    if (isolation::runs_gpu()) return device_from_run_process();
#endif
    return device_here();
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
  const gpu::Ceilings g = gpu_ceilings(bytes, reps);
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

void serve_timing(isolation::Server& s) {
  s.on(isolation::Kind::Device, [](const std::string&, const auto&) {
    Writer w;
    write_device(w, device_here());
    return w.take();
  });
#if defined(WS_HAVE_CUDA)
  s.on(isolation::Kind::Ceilings, [](const std::string& payload, const auto&) {
    Reader r(payload);
    const uint64_t bytes = r.u64();
    const unsigned reps = r.u32();
    Writer w;
    write_gpu_ceilings(w, gpu::measure_ceilings(bytes, reps));
    return w.take();
  });
#endif
  serve_streams(s);
}

}  // namespace ws::timing
