// A standalone sweep of the warp-tiled SGEMM's shape (tile, per-thread block, unrolling, launch
// bounds) beside cuBLAS at 4096^2, compiled and run on the GPU machine in one call:
//   nvcc -O3 -std=c++17 -arch=native -lcublas bench/matmul_sweep/sweep.cu -o /tmp/sweep && /tmp/sweep
// It is the experiment behind the catalog's warp-tiled rung (kernels/matrix/matmul_ladder.cuh),
// not part of the build.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

// Block tile BM x BN, BK deep, double-buffered; THREADS threads; each thread TM x TN results as
// (TM/4) x (TN/4) blocks of 4x4, spread so that a warp's float4 shared loads are conflict-free.
template <int BM, int BN, int BK, int TM, int TN, int MINB>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), MINB)
    sgemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  constexpr int THREADS = (BM / TM) * (BN / TN), AS = BM + 4;
  constexpr int WCOLS = BN / TN;  // threads along a row of the tile
  __shared__ __align__(16) float As[2][BK][AS];
  __shared__ __align__(16) float Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int ty = tid / WCOLS, tx = tid % WCOLS;
  const int brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
  constexpr int A4 = BM * BK / 4 / THREADS, B4 = BK * BN / 4 / THREADS;  // float4 per thread
  float4 a[A4], b[B4];
  auto load = [&](int t) {
#pragma unroll
    for (int h = 0; h < A4; ++h) {
      const int idx = tid + h * THREADS, r = idx / (BK / 4), c = (idx % (BK / 4)) * 4;
      a[h] = *reinterpret_cast<const float4*>(&A[(brow + r) * n + t + c]);
    }
#pragma unroll
    for (int h = 0; h < B4; ++h) {
      const int idx = tid + h * THREADS, r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
      b[h] = *reinterpret_cast<const float4*>(&B[(t + r) * n + bcol + c]);
    }
  };
  auto store = [&](int buf) {
#pragma unroll
    for (int h = 0; h < A4; ++h) {
      const int idx = tid + h * THREADS, r = idx / (BK / 4), c = (idx % (BK / 4)) * 4;
      As[buf][c][r] = a[h].x, As[buf][c + 1][r] = a[h].y, As[buf][c + 2][r] = a[h].z, As[buf][c + 3][r] = a[h].w;
    }
#pragma unroll
    for (int h = 0; h < B4; ++h) {
      const int idx = tid + h * THREADS, r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
      *reinterpret_cast<float4*>(&Bs[buf][r][c]) = b[h];
    }
  };
  load(0);
  store(0);
  __syncthreads();
  float acc[TM][TN] = {};
  float rm[TM], rn[TN];
  for (int t = 0, buf = 0; t < n; t += BK, buf ^= 1) {
    const bool next = t + BK < n;
    if (next) load(t + BK);
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int q = 0; q < TM / 4; ++q)
        *reinterpret_cast<float4*>(&rm[4 * q]) = *reinterpret_cast<const float4*>(&As[buf][kk][ty * 4 + q * (BM / (TM / 4))]);
#pragma unroll
      for (int q = 0; q < TN / 4; ++q)
        *reinterpret_cast<float4*>(&rn[4 * q]) = *reinterpret_cast<const float4*>(&Bs[buf][kk][tx * 4 + q * (BN / (TN / 4))]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += rm[i] * rn[j];
    }
    if (next) store(buf ^ 1);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int q = 0; q < TN / 4; ++q) {
      const int row = brow + ty * 4 + (i / 4) * (BM / (TM / 4)) + i % 4, col = bcol + tx * 4 + q * (BN / (TN / 4));
      *reinterpret_cast<float4*>(&C[row * n + col]) = make_float4(acc[i][4 * q], acc[i][4 * q + 1], acc[i][4 * q + 2], acc[i][4 * q + 3]);
    }
}

template <class F>
float median_ms(F f) {
  cudaEvent_t s, e;
  cudaEventCreate(&s), cudaEventCreate(&e);
  f();
  std::vector<float> t;
  for (int r = 0; r < 15; ++r) {
    cudaEventRecord(s);
    f();
    cudaEventRecord(e);
    cudaEventSynchronize(e);
    float ms;
    cudaEventElapsedTime(&ms, s, e);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  const int n = 4096;
  std::vector<float> h(size_t(n) * n);
  for (size_t i = 0; i < h.size(); ++i) h[i] = float((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
  float *A, *B, *C, *R;
  cudaMalloc(&A, h.size() * 4), cudaMalloc(&B, h.size() * 4), cudaMalloc(&C, h.size() * 4), cudaMalloc(&R, h.size() * 4);
  cudaMemcpy(A, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(B, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1, zero = 0;
  // Row-major C = A B is column-major C^T = B^T A^T.
  const float cublas = median_ms([&] { cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, R, n); });
  std::vector<float> ref(h.size()), got(h.size());
  cudaMemcpy(ref.data(), R, h.size() * 4, cudaMemcpyDeviceToHost);
  const double flops = 2.0 * n * n * double(n);
  std::printf("cublas                      %8.3f ms  %7.0f GFLOP/s\n", cublas, flops / cublas / 1e6);
  auto run = [&](const char* name, auto kernel, int bm, int bn, int threads) {
    const dim3 grid(n / bn, n / bm);
    const float ms = median_ms([&] { kernel<<<grid, threads>>>(A, B, C, n); });
    cudaError_t err = cudaGetLastError();
    cudaMemcpy(got.data(), C, h.size() * 4, cudaMemcpyDeviceToHost);
    double worst = 0;
    for (size_t i = 0; i < got.size(); i += 997) worst = std::max(worst, double(std::abs(got[i] - ref[i])));
    std::printf("%-27s %8.3f ms  %7.0f GFLOP/s  %.3fx cublas  max|diff| %.2e %s\n", name, ms, flops / ms / 1e6, cublas / ms, worst,
                err == cudaSuccess ? "" : cudaGetErrorString(err));
  };
  run("128x128x16 8x8 (today)", sgemm<128, 128, 16, 8, 8, 1>, 128, 128, 256);
  run("128x128x16 8x8 min2", sgemm<128, 128, 16, 8, 8, 2>, 128, 128, 256);
  run("128x128x8 8x8 min2", sgemm<128, 128, 8, 8, 8, 2>, 128, 128, 256);
  run("128x256x8 8x16", sgemm<128, 256, 8, 8, 16, 1>, 128, 256, 256);
  run("256x128x8 16x8", sgemm<256, 128, 8, 16, 8, 1>, 256, 128, 256);
  run("64x128x16 8x8 min4", sgemm<64, 128, 16, 8, 8, 4>, 64, 128, 128);
  return 0;
}
