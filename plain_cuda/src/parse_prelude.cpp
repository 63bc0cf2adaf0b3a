#include "parse_prelude.h"

namespace ws::plain_cuda {

extern const char* const kCudaHostRuntime;  // cuda_host_runtime.inc (CMake's cuda_host_runtime.cpp)

namespace {

const char* const kQualifiers = R"(
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __CUDACC__ 1
#include <stddef.h>
#include <stdint.h>
// (uint, ushort, ulong: glibc's, which nvcc's own includes bring in and slides use)
#include <sys/types.h>
#include <__clang_cuda_builtin_vars.h>
)";

// dim3 (after the vector types: it converts from uint3) and the launch syntax's helpers.
const char* const kDim3 = R"(
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
extern "C" int cudaConfigureCall(dim3, dim3, size_t = 0, void* = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3, dim3, size_t = 0, void* = 0);
)";

const char* const kDeviceFunctions = R"(
__device__ void __syncthreads();
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned = 0xffffffffu);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ void __threadfence_system();
__device__ unsigned __activemask();
__device__ unsigned __ballot_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
__device__ int __all_sync(unsigned, int);
template <class T> __device__ T __shfl_sync(unsigned, T, int, int = 32);
template <class T> __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
template <class T> __device__ unsigned __match_any_sync(unsigned, T);
template <class T> __device__ unsigned __match_all_sync(unsigned, T, int*);
template <class T> __device__ T __reduce_add_sync(unsigned, T);
template <class T> __device__ T __reduce_min_sync(unsigned, T);
template <class T> __device__ T __reduce_max_sync(unsigned, T);
__device__ unsigned __reduce_and_sync(unsigned, unsigned);
__device__ unsigned __reduce_or_sync(unsigned, unsigned);
__device__ unsigned __reduce_xor_sync(unsigned, unsigned);
template <class T, class U> __device__ T atomicAdd(T*, U);
template <class T, class U> __device__ T atomicSub(T*, U);
template <class T, class U> __device__ T atomicMin(T*, U);
template <class T, class U> __device__ T atomicMax(T*, U);
template <class T, class U> __device__ T atomicExch(T*, U);
template <class T, class U> __device__ T atomicInc(T*, U);
template <class T, class U> __device__ T atomicDec(T*, U);
template <class T, class U> __device__ T atomicAnd(T*, U);
template <class T, class U> __device__ T atomicOr(T*, U);
template <class T, class U> __device__ T atomicXor(T*, U);
template <class T, class U, class V> __device__ T atomicCAS(T*, U, V);
template <class T> __device__ T __ldg(const T*);
template <class T> __device__ T __ldcg(const T*);
template <class T> __device__ T __ldca(const T*);
template <class T> __device__ T __ldcs(const T*);
template <class T> __device__ T __ldlu(const T*);
template <class T> __device__ T __ldcv(const T*);
template <class T> __device__ void __stcg(T*, T);
template <class T> __device__ void __stcs(T*, T);
template <class T> __device__ void __stwb(T*, T);
template <class T> __device__ void __stwt(T*, T);
__device__ int __dp4a(int, int, int);
__device__ unsigned __dp4a(unsigned, unsigned, unsigned);
template <class T> __device__ T min(T, T);
template <class T> __device__ T max(T, T);
__device__ int __popc(unsigned);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ unsigned __brev(unsigned);
__device__ int __mul24(int, int);
__device__ unsigned __umul24(unsigned, unsigned);
__device__ float __fdividef(float, float);
__device__ float __expf(float);
__device__ float __logf(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __powf(float, float);
__device__ float __saturatef(float);
__device__ float rsqrtf(float);
__device__ float sqrtf(float);
__device__ float fabsf(float);
__device__ float expf(float);
__device__ float fmaxf(float, float);
__device__ float fminf(float, float);
__device__ int __float_as_int(float);
__device__ float __int_as_float(int);
__device__ int __float2int_rn(float);
__device__ void __nanosleep(unsigned);
__device__ long long clock64();
__device__ long clock();
extern "C" __device__ int printf(const char*, ...);
// What <assert.h>'s assert() calls, on the device (as Clang's CUDA wrapper declares it).
extern "C" __device__ static inline void __assert_fail(const char*, const char*, unsigned, const char*) {}
)";

// <cooperative_groups.h>: what ws/kernel/cooperative_groups.h provides, declared.
const char* const kCooperativeGroups = R"(
namespace cooperative_groups {
struct thread_block {
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ unsigned size() const;
  __device__ unsigned num_threads() const;
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};
__device__ thread_block this_thread_block();
template <unsigned N, class Parent = void> struct thread_block_tile {
  __device__ thread_block_tile();
  template <class P> __device__ thread_block_tile(const thread_block_tile<N, P>&);
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ static constexpr unsigned size() { return N; }
  __device__ static constexpr unsigned num_threads() { return N; }
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  template <class T> __device__ T shfl(T, int) const;
  template <class T> __device__ T shfl_up(T, unsigned) const;
  template <class T> __device__ T shfl_down(T, unsigned) const;
  template <class T> __device__ T shfl_xor(T, int) const;
  __device__ unsigned ballot(int) const;
  __device__ int any(int) const;
  __device__ int all(int) const;
};
template <unsigned N, class Parent> __device__ thread_block_tile<N> tiled_partition(const Parent&);
struct coalesced_group {
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ unsigned size() const;
  __device__ unsigned num_threads() const;
  template <class T> __device__ T shfl(T, int) const;
  __device__ unsigned ballot(int) const;
  __device__ int any(int) const;
  __device__ int all(int) const;
};
__device__ coalesced_group coalesced_threads();
template <class G> __device__ void sync(const G&);
template <class T> struct plus { __device__ T operator()(T, T) const; };
template <class T> struct less { __device__ T operator()(T, T) const; };
template <class T> struct greater { __device__ T operator()(T, T) const; };
template <class T> struct bit_and { __device__ T operator()(T, T) const; };
template <class T> struct bit_or { __device__ T operator()(T, T) const; };
template <class T> struct bit_xor { __device__ T operator()(T, T) const; };
template <unsigned N, class P, class T, class Op> __device__ T reduce(const thread_block_tile<N, P>&, T, Op);
}
)";

// int2, float4, ...: the CUDA vector types and their make_ functions.
std::string vector_types() {
  const char* const bases[][2] = {{"char", "char"},   {"uchar", "unsigned char"}, {"short", "short"},
                                  {"ushort", "unsigned short"}, {"int", "int"},   {"uint", "unsigned"},
                                  {"long", "long"},   {"ulong", "unsigned long"}, {"longlong", "long long"},
                                  {"ulonglong", "unsigned long long"},           {"float", "float"},
                                  {"double", "double"}};
  const char* const fields[] = {"x", "y", "z", "w"};
  std::string s;
  for (const auto& b : bases) {
    for (int n = 1; n <= 4; ++n) {
      const std::string name = std::string(b[0]) + std::to_string(n);
      std::string members, params, init;
      for (int k = 0; k < n; ++k) {
        members += std::string(b[1]) + " " + fields[k] + "; ";
        params += std::string(k ? ", " : "") + b[1] + " " + fields[k];
        init += std::string(k ? ", " : "") + fields[k];
      }
      s += "struct " + name + " { " + members + "};\n";
      s += "__host__ __device__ " + name + " make_" + name + "(" + params + ");\n";
    }
  }
  return s;
}

// Every other intrinsic the emulator has, declared for any arguments with the type it returns, so
// that an expression using one parses (and what Clang cannot parse is refused, never guessed).
// ctest "intrinsics_parsed" holds this list to scripts/intrinsics.py.
std::string generic_intrinsics() {
  const std::pair<const char*, const char*> families[] = {
      {"float",
       "__cosf __exp10f __expf __fadd_rn __fdiv_rn __fdividef __fmaf_rn __fmul_rn __frcp_rn __frsqrt_rn "
       "__fsqrt_rn __fsub_rn __int2float_rn __int_as_float __ll2float_rn __log10f __log2f __logf __powf "
       "__saturatef __sinf __tanf __uint2float_rn __uint_as_float __double2float_rn rsqrtf"},
      {"double", "__dadd_rn __dmul_rn __fma_rn __longlong_as_double rsqrt"},
      {"int",
       "__clz __clzll __ffs __ffsll __float2int_rd __float2int_rn __float2int_ru __float2int_rz __double2int_rd "
       "__double2int_rn __double2int_ru __double2int_rz __float_as_int __hadd __rhadd __mul24 __mulhi __popc "
       "__popcll __syncthreads_and __syncthreads_count __syncthreads_or __any_sync __all_sync"},
      {"unsigned",
       "__brev __byte_perm __float2uint_rd __float2uint_rn __float2uint_ru __float2uint_rz __float_as_uint "
       "__funnelshift_l __funnelshift_lc __funnelshift_r __funnelshift_rc __sad __uhadd __urhadd __umul24 "
       "__umulhi __usad __activemask __ballot_sync __dp4a __fns __vsads2 __vsads4 __vsadu2 __vsadu4 "
       "__vadd2 __vadd4 __vsub2 __vsub4 __vaddss2 __vaddss4 __vsubss2 __vsubss4 __vaddus2 __vaddus4 __vsubus2 "
       "__vsubus4 __vabsdiffs2 __vabsdiffs4 __vabsdiffu2 __vabsdiffu4 __vavgu2 __vavgu4 __vhaddu2 __vhaddu4 "
       "__vmaxs2 __vmaxs4 __vmaxu2 __vmaxu4 __vmins2 __vmins4 __vminu2 __vminu4 __vcmpeq2 __vcmpeq4 __vcmpne2 "
       "__vcmpne4 __vcmpges2 __vcmpges4 __vcmpgeu2 __vcmpgeu4 __vcmpgts2 __vcmpgts4 __vcmpgtu2 __vcmpgtu4 "
       "__vcmples2 __vcmples4 __vcmpleu2 __vcmpleu4 __vcmplts2 __vcmplts4 __vcmpltu2 __vcmpltu4 __vseteq2 "
       "__vseteq4 __vsetne2 __vsetne4 __vsetges2 __vsetges4 __vsetgeu2 __vsetgeu4 __vsetgts2 __vsetgts4 "
       "__vsetgtu2 __vsetgtu4 __vsetles2 __vsetles4 __vsetleu2 __vsetleu4 __vsetlts2 __vsetlts4 __vsetltu2 "
       "__vsetltu4 __vabs2 __vabs4 __vabsss2 __vabsss4 __vneg2 __vneg4 __vnegss2 __vnegss4"},
      {"long long", "__double_as_longlong __float2ll_rd __float2ll_rn __float2ll_ru __float2ll_rz __mul64hi"},
      {"unsigned long long", "__brevll __umul64hi"},
      {"void", "__nanosleep __sincosf sincosf __syncthreads __syncwarp __threadfence __threadfence_block"},
  };
  std::string s;
  for (const auto& [type, names] : families) {
    std::string name;
    for (const char* c = names;; ++c) {
      if (*c == ' ' || *c == 0) {
        if (!name.empty()) s += std::string("template <class... A> __device__ ") + type + " " + name + "(A...);\n";
        name.clear();
        if (*c == 0) break;
      } else {
        name += *c;
      }
    }
  }
  return s;
}

}  // namespace

const std::string& parse_prelude() {
  static const std::string text = std::string(kQualifiers) + vector_types() + kDim3 + kDeviceFunctions + generic_intrinsics() +
                                 kCooperativeGroups + "#define WS_CUDA_HOST_BODY(name) ;\n" + kCudaHostRuntime;
  return text;
}

}  // namespace ws::plain_cuda
