// Shared by the two translation units of bench_gpu_trace (gpu-fast and gpu-trace builds of the
// same reduction kernels).
#pragma once

void launch_fast(int variant, unsigned blocks, unsigned threads, const int* in, int* out, unsigned n);
