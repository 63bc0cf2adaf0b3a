// The device's measured memory ceilings: what "% of the hardware" means in the Timing panel and in
// `warpscope bench`. Datasheet numbers are not reachable in practice; these are, on this GPU today:
//
//   copy  cudaMemcpyAsync device-to-device of `bytes`, counting bytes read + bytes written;
//   read  a read-only streaming kernel (16-byte loads, several in flight per thread, the best of a
//         few grid sizes), counting bytes read: the ceiling every reduction is measured against.
//
//   ws::gpu::Ceilings c = ws::gpu::measure_ceilings();   // ~1 s on an H200 with 1 GiB buffers
//   if (c.ok) printf("read %.0f GB/s, copy %.0f GB/s\n", c.read_gbps, c.copy_gbps);
//
// Takes the GPU lock (device.h) for the whole measurement.
#pragma once

#include <type_traits>

#include <cstdint>
#include <string>
#include <vector>

namespace ws::gpu {

struct Ceilings {
  bool ok = false;
  std::string error;            // when !ok: no device, or CUDA's words
  uint64_t bytes = 0;           // buffer size used
  double copy_gbps = 0;         // median over the repeats, (read + written) bytes / time
  double read_gbps = 0;         // the best grid's median, read bytes / time
  std::vector<double> copy_ms;  // every sample
  std::vector<double> read_ms;  // every sample of the best grid
  unsigned read_blocks = 0, read_threads = 0;  // the best grid
};
// Ceilings' fields, listed once (what the run process answers goes through them).
template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, Ceilings>
void visit_fields(R& c, Visit&& v) {
  v("ok", c.ok);
  v("error", c.error);
  v("bytes", c.bytes);
  v("copy_gbps", c.copy_gbps);
  v("read_gbps", c.read_gbps);
  v("copy_ms", c.copy_ms);
  v("read_ms", c.read_ms);
  v("read_blocks", c.read_blocks);
  v("read_threads", c.read_threads);
}

// `bytes` is capped at a quarter of the device's memory (two buffers must fit, with room).
Ceilings measure_ceilings(uint64_t bytes = 1ull << 30, unsigned reps = 15);

}  // namespace ws::gpu
