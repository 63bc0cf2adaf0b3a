// cuBLAS, for the catalog's library references (matmul's SGEMM): part of the GPU kernel API a
// kernel's GPU driver may call, implemented in ws_gpu (src/cublas.cpp). Opened on first use with
// dlopen, not linked: a CUDA build of warpscope then starts on a machine with the driver but
// without the toolkit's libraries, and a reference run says what is missing instead.
//
//   std::string why;
//   if (!ws::gpu::cublas_ready(why)) ...  // "libcublas.so.13 was not found (...)"
//   cudaError_t e = ws::gpu::sgemm_row_major(M, N, P, n, k, m);  // P = M N, row-major floats
#pragma once

#include <cuda_runtime.h>

#include <string>

namespace ws::gpu {

// Loads cuBLAS and makes its handle (once per process). False with the reason when it cannot.
bool cublas_ready(std::string& why_not);

// P (n x m) = M (n x k) N (k x m), row-major floats on the device, on the default stream.
// cudaErrorNotSupported when cuBLAS is not there, cudaErrorLaunchFailure when it refuses the call.
cudaError_t sgemm_row_major(const float* M, const float* N, float* P, int n, int k, int m);

}  // namespace ws::gpu
