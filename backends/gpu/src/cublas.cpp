#include "ws/gpu/cublas.h"

#include <cublas_v2.h>  // types and the version only: the functions come from dlopen
#include <dlfcn.h>

#include <mutex>

namespace ws::gpu {

namespace {

struct Library {
  std::string why_not;
  cublasHandle_t handle = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
};

const Library& library() {
  static const Library lib = [] {
    Library l;
    const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    void* so = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!so) {
      const char* e = dlerror();
      l.why_not = name + " was not found (" + std::string(e ? e : "dlopen failed") +
                  "): cuBLAS ships with the CUDA toolkit; put its lib64 directory on LD_LIBRARY_PATH";
      return l;
    }
    auto create = reinterpret_cast<decltype(&cublasCreate_v2)>(dlsym(so, "cublasCreate_v2"));
    l.sgemm = reinterpret_cast<decltype(&cublasSgemm_v2)>(dlsym(so, "cublasSgemm_v2"));
    if (!create || !l.sgemm) {
      l.why_not = name + " lacks cublasCreate_v2 or cublasSgemm_v2";
      return l;
    }
    if (const cublasStatus_t st = create(&l.handle); st != CUBLAS_STATUS_SUCCESS) {
      l.why_not = "cublasCreate failed (status " + std::to_string(int(st)) + ")";
      l.handle = nullptr;
    }
    return l;
  }();
  return lib;
}

}  // namespace

bool cublas_ready(std::string& why_not) {
  why_not = library().why_not;
  return why_not.empty();
}

cudaError_t sgemm_row_major(const float* M, const float* N, float* P, int n, int k, int m) {
  const Library& l = library();
  if (!l.why_not.empty()) return cudaErrorNotSupported;
  // Row-major P = M N is column-major P^T = N^T M^T: cuBLAS gets N first.
  const float one = 1, zero = 0;
  const cublasStatus_t st = l.sgemm(l.handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, N, m, M, k, &zero, P, m);
  return st == CUBLAS_STATUS_SUCCESS ? cudaGetLastError() : cudaErrorLaunchFailure;
}

}  // namespace ws::gpu
