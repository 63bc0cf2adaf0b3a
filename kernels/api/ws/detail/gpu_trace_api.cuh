// The kernel API as gpu-trace compiles it (nvcc with WS_GPU_TRACE): the same wrappers as gpu-fast,
// but every access through them is recorded by its warp on the device (gpu_trace_format.h).
//
// [SECTION] Recording: control block, lane/warp/block identity, the per-warp record
// [SECTION] Per-site counters: wavefronts and bank conflicts, sectors, computed by the warp
// [SECTION] Element references and array wrappers
// [SECTION] Barriers and atomics
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <source_location>
#include <type_traits>

#include "ws/detail/fixed_string.h"
#include "ws/detail/gpu_trace_format.h"
#include "ws/detail/type_name.h"

namespace ws {
inline namespace trace_api {  // see emu_api.h: one inline namespace per build mode

inline constexpr uint8_t kTraceLoad = 0, kTraceStore = 1, kTraceAtomic = 2;
inline constexpr uint8_t kTraceGlobal = 0, kTraceShared = 1;

// The recording runtime (device side). The record format (ws::gpu_trace) is shared with the host.
namespace trace_rt {
using gpu_trace::Control;
using gpu_trace::kCounterSlots;
using gpu_trace::kRecordAccess;
using gpu_trace::kRecordBarrier;
using gpu_trace::Record;
using gpu_trace::SiteCounter;
using gpu_trace::kWarpSlotsPerSm;

//-----------------------------------------------------------------------------
// [SECTION] Recording
//-----------------------------------------------------------------------------
// One per translation unit (module): the GpuBackend of the same generated .cu file points it at
// a recording before each launch, through set_control below. (Not cudaMemcpyToSymbol: with one
// such variable in every module, seen on an H200, the runtime wrote the first module's copy.)
#ifndef WS_TRACE_CONTROL
#define WS_TRACE_CONTROL g_control
#endif
static __device__ Control* WS_TRACE_CONTROL;

static __global__ void set_control(Control* c) { WS_TRACE_CONTROL = c; }

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}
__device__ __forceinline__ unsigned warp_slot() {
  unsigned id;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(id));
  return id;
}
__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}
__device__ __forceinline__ uint64_t global_time() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ uint32_t linear_block() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
__device__ __forceinline__ uint32_t linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// Where an access comes from and what it touches.
struct AccessDesc {
  const char* file;
  uint32_t line, column;
  uint8_t kind, space, width, flags, atomic;
  uint64_t alloc;        // global: allocation index
  uint32_t shared_base;  // shared: array start in the shared window
  uint32_t elem_size, extent;
  const char* name;      // shared: array name
};

// The site + what distinguishes one instruction from another at the same site.
__device__ __forceinline__ unsigned long long group_key(const AccessDesc& d) {
  return (static_cast<unsigned long long>(d.line) << 40) ^ (static_cast<unsigned long long>(d.column) << 24) ^
         (static_cast<unsigned long long>(d.kind) << 20) ^ (reinterpret_cast<uintptr_t>(d.file) & 0xfffff) ^
         (d.alloc << 48) ^ (static_cast<unsigned long long>(d.shared_base) << 8);
}

//-----------------------------------------------------------------------------
// [SECTION] Per-site counters
//-----------------------------------------------------------------------------
// Max of v over the lanes of `group`.
__device__ __forceinline__ unsigned group_max(unsigned group, unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(group, v);
#else
  for (int off = 16; off > 0; off /= 2) {
    const unsigned other = __shfl_xor_sync(group, v, off);
    const unsigned src = lane_id() ^ off;
    if ((group >> src) & 1) v = max(v, other);
  }
  return v;
#endif
}

// Shared-memory wavefronts of one warp instruction: 32 banks of 4 bytes, same word multicast,
// 8-byte accesses in two half-warp phases and 16-byte ones in four quarter-warp phases. Each
// phase is handled as 32 "virtual lanes" (lane, word j of its access), so every lane of the warp
// takes part in every __match_any_sync. Returns wavefronts; `ideal` gets the phases used.
static __device__ unsigned shared_wavefronts(unsigned group, uint32_t address, unsigned width, unsigned& ideal) {
  const unsigned lane = lane_id();
  const unsigned k = width <= 4 ? 1 : width / 4;  // words per lane
  const unsigned lanes_per_phase = 32 / k;
  const unsigned word0 = address / 4;
  unsigned total = 0;
  ideal = 0;
  for (unsigned phase = 0; phase < k; ++phase) {
    const unsigned src = phase * lanes_per_phase + lane / k;
    const unsigned j = lane % k;
    const unsigned w0 = __shfl_sync(group, word0, src);
    const bool valid = (group >> src) & 1;
    const unsigned word = w0 + j;
    // Dedupe words (multicast), then count distinct words per bank among the word leaders.
    const unsigned long long word_key = valid ? word : 0x100000000ull + lane;
    const unsigned same_word = __match_any_sync(group, word_key);
    const bool word_leader = valid && (__ffs(same_word) - 1) == int(lane);
    const unsigned long long bank_key = word_leader ? (word % 32) : 0x100000000ull + lane;
    const unsigned same_bank = __match_any_sync(group, bank_key);
    const unsigned ways = word_leader ? unsigned(__popc(same_bank)) : 0u;
    const unsigned phase_max = group_max(group, ways);
    const bool any = __any_sync(group, valid);
    total += phase_max;
    ideal += any ? 1 : 0;
  }
  return total;
}

static __device__ __forceinline__ void count_site(Control* c, const AccessDesc& d, unsigned group, bool leader,
                                                  uint64_t address) {
  unsigned wavefronts = 0, ideal = 0, sectors = 0, lines = 0;
  if (d.space == kTraceShared) {
    wavefronts = shared_wavefronts(group, uint32_t(address), d.width, ideal);
  } else {
    const unsigned lane = lane_id();
    const unsigned same_sector = __match_any_sync(group, static_cast<unsigned long long>(address >> 5));
    sectors = __popc(__ballot_sync(group, (__ffs(same_sector) - 1) == int(lane)));
    const unsigned same_line = __match_any_sync(group, static_cast<unsigned long long>(address >> 7));
    lines = __popc(__ballot_sync(group, (__ffs(same_line) - 1) == int(lane)));
  }
  if (!leader) return;
  // This warp's own table: plain updates (see SiteCounter).
  const size_t row = (size_t(sm_id() % c->sm_count) * kWarpSlotsPerSm + warp_slot() % kWarpSlotsPerSm) * kCounterSlots;
  SiteCounter* table = c->counters + row;
  const unsigned long long key = group_key(d) | 1ull;
  unsigned slot = unsigned(key % kCounterSlots);
  for (unsigned probe = 0; probe < kCounterSlots; ++probe, slot = (slot + 1) % kCounterSlots) {
    SiteCounter& s = table[slot];
    if (s.key == 0ull) {  // a free slot: describe the site once
      s.key = key;
      s.file = reinterpret_cast<uintptr_t>(d.file);
      s.line = d.line;
      s.column = d.column;
      s.kind = d.kind;
      s.space = d.space;
      s.width = d.width;
    }
    if (s.key == key) {
      s.instructions += 1;
      s.lanes += unsigned(__popc(group));
      s.wavefronts += wavefronts;
      s.ideal_wavefronts += ideal;
      s.sectors += sectors;
      s.lines += lines;
      return;
    }
  }
  c->counter_overflow = 1;
}

// The descriptor travels as scalars (registers): passed by reference it would live in the
// kernel's stack frame, one local-memory store per field at every access.
static __device__ __noinline__ void record_access_scalars(const char* file, uint32_t line, uint32_t column,
                                                          uint32_t packed, uint64_t alloc, uint32_t shared_base,
                                                          uint32_t elem_size, uint32_t extent, const char* name,
                                                          uint64_t offset, uint64_t address) {
  Control* c = WS_TRACE_CONTROL;
  if (!c) return;
  AccessDesc d;
  d.file = file;
  d.line = line;
  d.column = column;
  d.kind = uint8_t(packed);
  d.space = uint8_t(packed >> 8);
  d.width = uint8_t(packed >> 16);
  d.flags = uint8_t(packed >> 24);
  d.atomic = uint8_t(alloc >> 56);
  d.alloc = alloc & 0x00ffffffffffffffull;
  d.shared_base = shared_base;
  d.elem_size = elem_size;
  d.extent = extent;
  d.name = name;
  const uint32_t block = linear_block();
  const bool full = c->full_blocks && block / 32 < c->full_block_words &&
                    ((c->full_blocks[block / 32] >> (block % 32)) & 1);
  if (!full && !c->counters_enabled) return;  // uniform per block: no lane waits for another
  const unsigned active = __activemask();
  const unsigned group = __match_any_sync(active, group_key(d));
  const unsigned lane = lane_id();
  const unsigned leader = __ffs(group) - 1;
  if (c->counters_enabled) count_site(c, d, group, lane == leader, address);
  if (!full) return;
  const unsigned sm = sm_id() % c->sm_count;
  unsigned long long slot = 0;
  if (lane == leader) slot = atomicAdd(&c->sm_reserved[sm], 1ull);
  slot = __shfl_sync(group, slot, leader);
  if (slot >= c->per_sm) return;  // counted in sm_reserved, reported as dropped
  Record& r = c->records[sm * c->per_sm + slot];
  r.offsets[lane] = offset;
  if (lane == leader) {
    r.time = global_time();
    r.file = reinterpret_cast<uintptr_t>(d.file);
    r.alloc = d.alloc;
    r.line = d.line;
    r.column = d.column;
    r.block = block;
    r.mask = group;
    r.sm = sm_id();
    r.warp = uint16_t(linear_thread() / 32);
    r.type = kRecordAccess;
    r.kind = d.kind;
    r.width = d.width;
    r.space = d.space;
    r.flags = d.flags;
    r.atomic = d.atomic;
    r.shared_base = d.shared_base;
    r.elem_size = d.elem_size;
    r.extent = d.extent;
    for (int i = 0; i < 16; ++i) r.name[i] = 0;
    if (d.name)
      for (int i = 0; i < 15 && d.name[i]; ++i) r.name[i] = d.name[i];
  }
}

// Records one access of this lane; every lane of the warp that executes the same instruction
// calls it together. Nothing happens (one load and a branch) when no recording is armed.
__device__ __forceinline__ void record_access(const AccessDesc& d, uint64_t offset, uint64_t address) {
  if (!WS_TRACE_CONTROL) return;
  record_access_scalars(d.file, d.line, d.column,
                        uint32_t(d.kind) | uint32_t(d.space) << 8 | uint32_t(d.width) << 16 | uint32_t(d.flags) << 24,
                        d.alloc | uint64_t(d.atomic) << 56, d.shared_base, d.elem_size, d.extent, d.name, offset,
                        address);
}

static __device__ __noinline__ void record_barrier(const char* file, uint32_t line, uint32_t column) {
  Control* c = WS_TRACE_CONTROL;
  if (!c) return;
  const uint32_t block = linear_block();
  if (!c->full_blocks || block / 32 >= c->full_block_words || !((c->full_blocks[block / 32] >> (block % 32)) & 1))
    return;
  const unsigned active = __activemask();
  const unsigned lane = lane_id();
  const unsigned leader = __ffs(active) - 1;
  if (lane != leader) return;
  const unsigned sm = sm_id() % c->sm_count;
  const unsigned long long slot = atomicAdd(&c->sm_reserved[sm], 1ull);
  if (slot >= c->per_sm) return;
  Record& r = c->records[sm * c->per_sm + slot];
  r.time = global_time();
  r.file = reinterpret_cast<uintptr_t>(file);
  r.alloc = 0;
  r.line = line;
  r.column = column;
  r.block = block;
  r.mask = active;
  r.sm = sm_id();
  r.warp = uint16_t(linear_thread() / 32);
  r.type = kRecordBarrier;
  r.kind = 0;
  r.width = 0;
  r.space = 0;
  r.flags = 0;
  r.atomic = 0;
}

}  // namespace trace_rt

//-----------------------------------------------------------------------------
// [SECTION] Element references and array wrappers
//-----------------------------------------------------------------------------
// The index of an access; its default argument captures the source site (no macro per access).
struct idx {
  int64_t value;
  std::source_location loc;
  template <class I>
    requires std::is_integral_v<I>
  __host__ __device__ constexpr idx(I v, std::source_location l = std::source_location::current())
      : value(static_cast<int64_t>(v)), loc(l) {}
  template <class R>
    requires std::is_integral_v<typename R::value_type> && requires(const R& r) { r.load(); }
  __device__ idx(const R& r, std::source_location l = std::source_location::current())
      : value(static_cast<int64_t>(r.load())), loc(l) {}
};

template <class T>
class ptr;

// What a[i] returns: converting it is a recorded load, assigning a recorded store.
template <class T>
class ref {
 public:
  using value_type = std::remove_cv_t<T>;
  __device__ ref(T* p, int64_t index, const trace_rt::AccessDesc& d) : p_(p), index_(index), d_(d) {}

  __device__ value_type load() const {
    record(kTraceLoad, 0);
    return p_[index_];
  }
  __device__ operator value_type() const { return load(); }
  __device__ const ref& operator=(const value_type& v) const
    requires(!std::is_const_v<T>)
  {
    record(kTraceStore, 0);
    p_[index_] = v;
    return *this;
  }
  __device__ const ref& operator=(const ref& o) const
    requires(!std::is_const_v<T>)
  {
    return *this = o.load();
  }
  template <class U>
  __device__ const ref& operator=(const ref<U>& o) const
    requires(!std::is_const_v<T>)
  {
    return *this = static_cast<value_type>(o.load());
  }
#define WS_TRACE_COMPOUND(OP)                       \
  template <class U>                                \
  __device__ const ref& operator OP##=(const U& v) const \
    requires(!std::is_const_v<T>)                   \
  {                                                 \
    value_type x = load();                          \
    x OP## = v;                                     \
    return *this = x;                               \
  }
  WS_TRACE_COMPOUND(+)
  WS_TRACE_COMPOUND(-)
  WS_TRACE_COMPOUND(*)
  WS_TRACE_COMPOUND(/)
  WS_TRACE_COMPOUND(%)
  WS_TRACE_COMPOUND(&)
  WS_TRACE_COMPOUND(|)
  WS_TRACE_COMPOUND(^)
  WS_TRACE_COMPOUND(<<)
  WS_TRACE_COMPOUND(>>)
#undef WS_TRACE_COMPOUND
  __device__ const ref& operator++() const { return *this += 1; }
  __device__ const ref& operator--() const { return *this -= 1; }
  __device__ ptr<T> operator&() const { return ptr<T>(p_, index_, d_); }

  __device__ void record(uint8_t kind, uint8_t atomic) const {
    trace_rt::AccessDesc d = d_;
    d.kind = kind;
    d.atomic = atomic;
    const uint64_t offset = uint64_t(index_) * sizeof(T);
    const uint64_t address = d.space == kTraceShared ? d.shared_base + offset
                                                     : reinterpret_cast<uintptr_t>(p_ + index_);
    trace_rt::record_access(d, offset, address);
  }

 private:
  T* p_;
  int64_t index_;
  trace_rt::AccessDesc d_;
};

template <class T>
class ptr {
 public:
  __device__ ptr(T* p, int64_t index, const trace_rt::AccessDesc& d) : p_(p), index_(index), d_(d) {}
  __device__ T* raw() const { return p_ + index_; }
  __device__ void record_atomic(uint8_t op) const { ref<T>(p_, index_, d_).record(kTraceAtomic, op); }

 private:
  T* p_;
  int64_t index_;
  trace_rt::AccessDesc d_;
};

namespace detail {
__device__ __forceinline__ unsigned char* dynamic_smem() {
  extern __shared__ __align__(16) unsigned char ws_dynamic_smem[];
  return ws_dynamic_smem;
}
__device__ __forceinline__ trace_rt::AccessDesc desc(const std::source_location& loc, uint8_t space, uint8_t width,
                                                      uint8_t flags, uint64_t alloc, uint32_t shared_base,
                                                      uint32_t elem_size, uint32_t extent, const char* name) {
  trace_rt::AccessDesc d;
  d.file = loc.file_name();
  d.line = loc.line();
  d.column = loc.column();
  d.kind = kTraceLoad;
  d.space = space;
  d.width = width;
  d.flags = flags;
  d.atomic = 0;
  d.alloc = alloc;
  d.shared_base = shared_base;
  d.elem_size = elem_size;
  d.extent = extent;
  d.name = name;
  return d;
}
}  // namespace detail

template <class T>
class global_array {
 public:
  using element_type = T;
  global_array() = default;
  __host__ __device__ global_array(T* data, uint64_t extent, uint32_t alloc = 0xffffffffu)
      : data_(data), extent_(extent), alloc_(alloc) {}
  template <class U>
    requires std::is_same_v<const U, T> && (!std::is_same_v<U, T>)
  __host__ __device__ global_array(const global_array<U>& o) : data_(o.data()), extent_(o.size()), alloc_(o.alloc_id()) {}

  __device__ ref<T> operator[](idx i) const {
    return ref<T>(data_, i.value,
                  detail::desc(i.loc, kTraceGlobal, sizeof(T), 0, alloc_, 0, sizeof(T), uint32_t(extent_), nullptr));
  }
  __host__ __device__ uint64_t size() const { return extent_; }
  __host__ __device__ T* data() const { return data_; }
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
  __device__ volatile_view(volatile T* p, uint32_t extent, uint32_t base, const char* name)
      : p_(p), extent_(extent), base_(base), name_(name) {}
  __device__ ref<volatile T> operator[](idx i) const {
    return ref<volatile T>(p_, i.value,
                           detail::desc(i.loc, kTraceShared, sizeof(T), 1, 0, base_, sizeof(T), extent_, name_));
  }

 private:
  volatile T* p_;
  uint32_t extent_, base_;
  const char* name_;
};

template <class T, std::size_t N, fixed_string Name>
class shared_array {
 public:
  using element_type = T;
  __device__ ref<T> operator[](idx i) {
    return ref<T>(data_, i.value,
                  detail::desc(i.loc, kTraceShared, sizeof(T), 0, 0, base(), sizeof(T), uint32_t(N), Name.c_str()));
  }
  __device__ volatile_view<T> as_volatile() { return volatile_view<T>(data_, uint32_t(N), base(), Name.c_str()); }
  static constexpr std::size_t size() { return N; }

 private:
  __device__ uint32_t base() const { return uint32_t(__cvta_generic_to_shared(data_)); }
  T data_[N];
};

template <class T, fixed_string Name>
class dynamic_shared {
 public:
  using element_type = T;
  __device__ ref<T> operator[](idx i) {
    return ref<T>(data(), i.value,
                  detail::desc(i.loc, kTraceShared, sizeof(T), 0, 0, base(), sizeof(T), extent(), Name.c_str()));
  }
  __device__ volatile_view<T> as_volatile() { return volatile_view<T>(data(), extent(), base(), Name.c_str()); }

 private:
  __device__ T* data() const { return reinterpret_cast<T*>(detail::dynamic_smem()); }
  __device__ uint32_t base() const { return uint32_t(__cvta_generic_to_shared(detail::dynamic_smem())); }
  __device__ uint32_t extent() const {
    unsigned bytes;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return bytes / sizeof(T);
  }
};

namespace trace_rt {
__device__ __forceinline__ void barrier(std::source_location loc) {
  record_barrier(loc.file_name(), loc.line(), loc.column());
  __syncthreads();
}
}  // namespace trace_rt

}  // namespace trace_api
}  // namespace ws

//-----------------------------------------------------------------------------
// [SECTION] Barriers and atomics
//-----------------------------------------------------------------------------
// The one macro of the API: __syncthreads() is a compiler builtin that cannot be overloaded, so in
// recording mode its name expands to a call that records the barrier and then executes it.
#define __syncthreads() ::ws::trace_rt::barrier(std::source_location::current())

#define WS_TRACE_ATOMIC(NAME, OP)                                          \
  template <class T, class U>                                             \
  __device__ std::remove_cv_t<T> NAME(ws::ptr<T> p, U v) {                \
    p.record_atomic(OP);                                                  \
    return NAME(p.raw(), static_cast<std::remove_cv_t<T>>(v));            \
  }
WS_TRACE_ATOMIC(atomicAdd, 1)
WS_TRACE_ATOMIC(atomicSub, 2)
WS_TRACE_ATOMIC(atomicMin, 3)
WS_TRACE_ATOMIC(atomicMax, 4)
WS_TRACE_ATOMIC(atomicInc, 5)
WS_TRACE_ATOMIC(atomicDec, 6)
WS_TRACE_ATOMIC(atomicExch, 7)
WS_TRACE_ATOMIC(atomicAnd, 9)
WS_TRACE_ATOMIC(atomicOr, 10)
WS_TRACE_ATOMIC(atomicXor, 11)
#undef WS_TRACE_ATOMIC
template <class T, class U, class V>
__device__ std::remove_cv_t<T> atomicCAS(ws::ptr<T> p, U compare, V v) {
  p.record_atomic(8);
  using R = std::remove_cv_t<T>;
  return atomicCAS(p.raw(), static_cast<R>(compare), static_cast<R>(v));
}
