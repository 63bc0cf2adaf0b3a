// The kernel API as gpu-fast compiles it (nvcc, no WS_GPU_TRACE): every wrapper is a plain
// pointer access, so the kernel is the kernel the lecture wrote. bench/bench_gpu_overhead.cu
// checks this against hand-written twins (same SASS, same time).
//
// [SECTION] Array wrappers: global_array, shared_array, dynamic_shared, volatile views, ptr_cast
#pragma once

#include <cstdint>
#include <cuda_runtime.h>
#include <type_traits>

#include "ws/kernel/fixed_string.h"
#include "ws/kernel/type_name.h"

namespace ws {
inline namespace fast_api {  // see emu_api.h: one inline namespace per build mode

namespace detail {
// The block's dynamic shared memory (the third <<<>>> argument).
__device__ __forceinline__ unsigned char* dynamic_smem() {
  extern __shared__ __align__(16) unsigned char ws_dynamic_smem[];
  return ws_dynamic_smem;
}
}  // namespace detail

// A view of a global-memory allocation, passed to kernels by value: a pointer and its extent.
template <class T>
class global_array {
 public:
  using element_type = T;
  global_array() = default;
  __host__ __device__ global_array(T* data, uint64_t extent, uint32_t alloc = 0xffffffffu)
      : data_(data), extent_(extent), alloc_(alloc) {}
  template <class U>
    requires std::is_same_v<const U, T> && (!std::is_same_v<U, T>)
  __host__ __device__ global_array(const global_array<U>& o)
      : data_(o.data()), extent_(o.size()), alloc_(o.alloc_id()) {}

  template <class I>
  __device__ __forceinline__ T& operator[](I i) const {
    return data_[i];
  }
  // `a + k`: the plain pointer arithmetic (nothing is recorded here).
  __host__ __device__ global_array operator+(int64_t k) const {
    return global_array(data_ + k, k >= 0 && uint64_t(k) <= extent_ ? extent_ - uint64_t(k) : 0, alloc_);
  }
  __host__ __device__ uint64_t size() const { return extent_; }
  __host__ __device__ T* data() const { return data_; }
  // A plain CUDA file's `T*` parameter takes the array as the pointer it is.
  __host__ __device__ operator T*() const { return data_; }
  __host__ __device__ uint32_t alloc_id() const { return alloc_; }
  template <class U>
  __host__ __device__ global_array<U> reinterpret() const {
    return global_array<U>(reinterpret_cast<U*>(data_), extent_ * sizeof(T) / sizeof(U), alloc_);
  }

 private:
  T* data_ = nullptr;
  uint64_t extent_ = 0;
  uint32_t alloc_ = 0xffffffffu;
};

template <class T>
class volatile_view {
 public:
  __device__ explicit volatile_view(T* p) : p_(p) {}
  template <class I>
  __device__ __forceinline__ volatile T& operator[](I i) const {
    return p_[i];
  }

 private:
  volatile T* p_;
};

// `__shared__ ws::shared_array<int, 256, "sdata"> sdata;`: just the array.
template <class T, std::size_t N, fixed_string Name>
class shared_array {
 public:
  using element_type = T;
  template <class I>
  __device__ __forceinline__ T& operator[](I i) {
    return data_[i];
  }
  __device__ volatile_view<T> as_volatile() { return volatile_view<T>(data_); }
  static constexpr std::size_t size() { return N; }

 private:
  T data_[N];
};

// `ws::dynamic_shared<int, "sdata"> sdata;`: the lecture's `extern __shared__ int sdata[];`.
template <class T, fixed_string Name>
class dynamic_shared {
 public:
  using element_type = T;
  template <class I>
  __device__ __forceinline__ T& operator[](I i) {
    return reinterpret_cast<T*>(detail::dynamic_smem())[i];
  }
  __device__ volatile_view<T> as_volatile() {
    return volatile_view<T>(reinterpret_cast<T*>(detail::dynamic_smem()));
  }
};

// `reinterpret_cast<float4*>(p)` as the other builds spell it (ws::ptr_cast): the same bytes
// as wider elements, here a plain pointer.
template <class U, class T>
__host__ __device__ __forceinline__ U* ptr_cast(T* p) {
  return reinterpret_cast<U*>(p);
}
template <class U, class T>
__host__ __device__ __forceinline__ U* ptr_cast(const global_array<T>& a) {
  return reinterpret_cast<U*>(a.data());
}
template <class U, class A>
  requires requires(A& a) { a[0]; typename A::element_type; }
__device__ __forceinline__ U* ptr_cast(A& a) {
  return reinterpret_cast<U*>(&a[0]);
}

}  // namespace fast_api
}  // namespace ws
