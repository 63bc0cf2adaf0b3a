// The gpu-fast half of bench_gpu_trace: the same kernels without recording (this translation unit
// is compiled without WS_GPU_TRACE).
#include "bench_gpu_trace.h"
#include <cub/device/device_reduce.cuh>  // reduce.cuh calls CUB: before the kernel API
#include "preamble.h"

namespace fast {  // the trace build of the same kernels lives in the other translation unit
#include "reduction/reduce.cuh"
}  // namespace fast
using namespace fast;

void launch_fast(int variant, unsigned blocks, unsigned threads, const int* in, int* out, unsigned n) {
  ws::global_array<const int> a(in, n, 0);
  ws::global_array<int> b(out, n, 1);
  switch (variant) {
    case 3: reduce3<int><<<blocks, threads, threads * 4>>>(a, b, n); break;
    case 6: reduce6<256, int><<<blocks, threads>>>(a, b, n); break;
    case 8: reduce8<int><<<blocks, threads>>>(a, b, n); break;
  }
}
