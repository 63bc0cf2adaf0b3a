// The kernel API as the CPU SIMT emulator sees it (compiled by the host C++ compiler).
//
// [SECTION] CUDA vocabulary: qualifiers, dim3, threadIdx & co, vector types
// [SECTION] Source sites: ws::idx
// [SECTION] Element references (loads, stores, compound assignment, atomics)
// [SECTION] Array wrappers: global_array, shared_array, dynamic_shared
// [SECTION] Intrinsics: barriers, fences, shuffles, votes, matches, warp reductions, atomics
// (the per-thread ones, __popc, __ffs, __fdividef..., are in intrinsics.h)
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "ws/emu/hooks.h"
#include "ws/emu/intrinsics.h"
#include "ws/kernel/access_pieces.h"
#include "ws/kernel/fixed_string.h"
#include "ws/kernel/type_name.h"

//-----------------------------------------------------------------------------
// [SECTION] CUDA vocabulary
//-----------------------------------------------------------------------------
// Qualifiers mean little on the CPU. Kernels and device functions become `inline`, because a
// kernel header is included by several translation units (write `__device__ float f()`, not
// `__device__ inline float f()`). __shared__ becomes `static thread_local`: one copy per worker
// thread, and a worker runs one block at a time, so all threads (fibers) of the block see the
// same array, exactly as on the GPU.
#define __global__ inline
#define __device__ inline
#define __host__
#define __forceinline__
#define __shared__ static thread_local
#define __restrict__
#define __noinline__
#define __constant__ static
#define __managed__
#define __align__(n) alignas(n)
#define __launch_bounds__(...)

// CUDA's vector types (vector_types.h), with its alignments: a float4 is one 16-byte access, a
// float3 three 4-byte ones (access_pieces.h), as nvcc issues them.
#define WS_EMU_VECTOR_TYPES(NAME, T, A1, A2, A3, A4)                                                 \
  struct alignas(A1) NAME##1 { T x; };                                                                \
  struct alignas(A2) NAME##2 { T x, y; };                                                             \
  struct alignas(A3) NAME##3 { T x, y, z; };                                                          \
  struct alignas(A4) NAME##4 { T x, y, z, w; };                                                       \
  inline constexpr NAME##1 make_##NAME##1(T x) { return {x}; }                                        \
  inline constexpr NAME##2 make_##NAME##2(T x, T y) { return {x, y}; }                                \
  inline constexpr NAME##3 make_##NAME##3(T x, T y, T z) { return {x, y, z}; }                        \
  inline constexpr NAME##4 make_##NAME##4(T x, T y, T z, T w) { return {x, y, z, w}; }
WS_EMU_VECTOR_TYPES(char, signed char, 1, 2, 1, 4)
WS_EMU_VECTOR_TYPES(uchar, unsigned char, 1, 2, 1, 4)
WS_EMU_VECTOR_TYPES(short, short, 2, 4, 2, 8)
WS_EMU_VECTOR_TYPES(ushort, unsigned short, 2, 4, 2, 8)
WS_EMU_VECTOR_TYPES(int, int, 4, 8, 4, 16)
WS_EMU_VECTOR_TYPES(uint, unsigned int, 4, 8, 4, 16)
WS_EMU_VECTOR_TYPES(long, long, 8, 16, 8, 16)
WS_EMU_VECTOR_TYPES(ulong, unsigned long, 8, 16, 8, 16)
WS_EMU_VECTOR_TYPES(longlong, long long, 8, 16, 8, 16)
WS_EMU_VECTOR_TYPES(ulonglong, unsigned long long, 8, 16, 8, 16)
WS_EMU_VECTOR_TYPES(float, float, 4, 8, 4, 16)
WS_EMU_VECTOR_TYPES(double, double, 8, 16, 8, 16)
#undef WS_EMU_VECTOR_TYPES

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

// The scheduler writes these before it resumes a thread's fiber (blockIdx, blockDim and gridDim
// once per block). Thread-local because blocks run in parallel on several worker threads.
inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;
inline constexpr int warpSize = 32;

using std::max;
using std::min;

// The emulator's, gpu-fast's and gpu-trace's wrappers are different classes with the same names,
// and all three builds of a kernel live in one program: each mode's API sits in its own inline
// namespace, so `ws::global_array` means the mode's class and the linker never mixes them.
namespace ws {
inline namespace emu_api {

//-----------------------------------------------------------------------------
// [SECTION] Source sites
//-----------------------------------------------------------------------------
// The index of an array access. Its converting constructor's default argument captures the
// source location of the expression `a[i]`: every operator[] call site is a distinct site,
// with no macro at the access.
struct idx {
  int64_t value;
  std::source_location loc;
  template <class I>
    requires std::is_integral_v<I>
  constexpr idx(I v, std::source_location l = std::source_location::current())
      : value(static_cast<int64_t>(v)), loc(l) {}
  // An element reference used as an index (`x[col[j]]`): loading it is part of this access's
  // address computation. (Two user conversions in a row are not implicit in C++.)
  template <class R>
    requires std::is_integral_v<typename R::value_type> && requires(const R& r) { r.load(); }
  idx(const R& r, std::source_location l = std::source_location::current())
      : value(static_cast<int64_t>(r.load())), loc(l) {}
};

template <class T>
inline constexpr bool is_lane_value_v = std::is_trivially_copyable_v<T>;

namespace detail {

template <class T>
T load_value(const T* p, bool concurrent) {
  using V = std::remove_cv_t<T>;
  if constexpr (std::is_arithmetic_v<V> && (sizeof(V) <= 8)) {
    // Global memory is shared between worker threads: relaxed atomics are plain moves on x86
    // and keep a racy kernel from being undefined behaviour in the emulator itself.
    if (concurrent) return std::atomic_ref<V>(*const_cast<V*>(p)).load(std::memory_order_relaxed);
    return *p;
  } else {
    V v;
    std::memcpy(&v, p, sizeof(V));
    return v;
  }
}

template <class T>
void store_value(T* p, const T& v, bool concurrent) {
  if constexpr (std::is_arithmetic_v<T> && (sizeof(T) <= 8)) {
    if (concurrent) return std::atomic_ref<T>(*p).store(v, std::memory_order_relaxed);
    *p = v;
  } else {
    std::memcpy(static_cast<void*>(p), &v, sizeof(T));
  }
}

template <class T>
T apply_atomic(T* p, AtomicOp op, T v, T compare, bool concurrent);

}  // namespace detail

//-----------------------------------------------------------------------------
// [SECTION] Element references
//-----------------------------------------------------------------------------
// What a[i] returns: converting it to T is a load, assigning to it is a store, `a[i] += x` is a
// load then a store (two instructions, as the GPU executes it). Taking its address gives a ptr
// for the atomic functions. Note: write `int v = a[i];`, not `auto v = a[i];` (auto would keep
// the reference, and read later).
template <class T>
class ptr;
template <class T>
class global_array;

template <class T>
class ref {
 public:
  using value_type = std::remove_cv_t<T>;

  ref(T* base, int64_t index, uint64_t extent, uint32_t alloc, MemSpace space, uint8_t flags,
      const std::source_location& loc)
      : base_(base), index_(index), extent_(extent), alloc_(alloc), space_(space), flags_(flags),
        loc_(loc), tag_(emu::access_tag(alloc, emu::SubOp::Load, uint32_t(sizeof(T)), space, flags, AtomicOp::None)) {}

  [[gnu::always_inline]] operator value_type() const { return load(); }

  [[gnu::always_inline]] value_type load() const {
    check(AccessKind::Load);
    if constexpr (kPieces::split) {  // a struct: member-wide loads, as the compiler emits them
      for (uint32_t k = 0; k < kPieces::count; ++k)
        emu::access(loc_, piece_tag(emu::SubOp::Load), byte_offset() + uint64_t(k) * kPieces::width);
    } else {
      emu::access(loc_, tag(emu::SubOp::Load, AtomicOp::None), byte_offset());
    }
    return detail::load_value(base_ + index_, space_ == MemSpace::Global);
  }

  [[gnu::always_inline]] const ref& operator=(const value_type& v) const
    requires(!std::is_const_v<T>)
  {
    check(AccessKind::Store);
    if constexpr (kPieces::split && sizeof(T) <= 8) {
      // A small struct: each member-wide piece rides in the queue with its bytes.
      for (uint32_t k = 0; k < kPieces::count; ++k) {
        uint64_t bits = 0;
        std::memcpy(&bits, reinterpret_cast<const char*>(&v) + k * kPieces::width, kPieces::width);
        emu::store(loc_, piece_tag(emu::SubOp::Store), byte_offset() + uint64_t(k) * kPieces::width,
                   reinterpret_cast<char*>(base_ + index_) + k * kPieces::width, bits);
      }
    } else if constexpr (kPieces::split) {
      // A wider struct: its pieces issue in order, then the thread writes the whole.
      for (uint32_t k = 0; k < kPieces::count; ++k)
        emu::access(loc_, piece_tag(emu::SubOp::Store), byte_offset() + uint64_t(k) * kPieces::width);
      detail::store_value(base_ + index_, v, space_ == MemSpace::Global);
    } else if constexpr (sizeof(T) <= 8) {
      // The value rides in the emulator's queue, which writes it when the warp issues the store.
      uint64_t bits = 0;
      std::memcpy(&bits, &v, sizeof(T));
      emu::store(loc_, tag(emu::SubOp::Store, AtomicOp::None), byte_offset(), base_ + index_, bits);
    } else {
      // Wider (an int4, a struct): the thread waits for its turn and writes it itself.
      emu::access(loc_, tag(emu::SubOp::Store, AtomicOp::None), byte_offset());
      detail::store_value(base_ + index_, v, space_ == MemSpace::Global);
    }
    return *this;
  }
  // a[i] = b[j]: the thread never sees the value, so the load and the store are deferred
  // (emu::deferred_load explains it; the same instructions, without a stop).
  const ref& operator=(const ref& other) const
    requires(!std::is_const_v<T>)
  {
    return assign_from<T>(other);
  }
  template <class U>
  const ref& operator=(const ref<U>& other) const
    requires(!std::is_const_v<T>)
  {
    return assign_from<U>(other);
  }

  // a[i] OP= v is a load, then a store. With v another element, b[j], neither value reaches the
  // thread: a[i]'s load, b[j]'s load (in the order the thread has always posted them) and the
  // store are deferred, and the emulator computes the sum (or whatever OP is) when the warp
  // issues the store.
#define WS_REF_COMPOUND(OP, NAME)                                                   \
  template <class U>                                                                \
  const ref& operator OP##=(const U& v) const                                       \
    requires(!std::is_const_v<T>)                                                   \
  {                                                                                 \
    value_type x = load();                                                          \
    x OP## = v;                                                                     \
    return *this = x;                                                               \
  }                                                                                 \
  template <class U>                                                                \
  [[gnu::always_inline]] const ref& operator OP##=(const ref<U>& v) const           \
    requires(!std::is_const_v<T>)                                                   \
  {                                                                                 \
    if constexpr (kDeferrable<U>) {                                                 \
      if (emu::t_defer_loads) {                                                     \
        defer_load_of(*this, 0);                                                    \
        defer_load_of(v, 1);                                                        \
        return defer_store(&combine_##NAME<std::remove_cv_t<U>>);                  \
      }                                                                             \
    }                                                                               \
    value_type x = load();                                                          \
    x OP## = v;                                                                     \
    return *this = x;                                                               \
  }                                                                                 \
  template <class W>                                                                \
  static uint64_t combine_##NAME(uint64_t slot0, uint64_t slot1) {                  \
    value_type x = from_bits<value_type>(slot0);                                    \
    x OP## = from_bits<W>(slot1);                                                   \
    return to_bits(x);                                                              \
  }
  WS_REF_COMPOUND(+, add)
  WS_REF_COMPOUND(-, sub)
  WS_REF_COMPOUND(*, mul)
  WS_REF_COMPOUND(/, div)
  WS_REF_COMPOUND(%, mod)
  WS_REF_COMPOUND(&, and)
  WS_REF_COMPOUND(|, or)
  WS_REF_COMPOUND(^, xor)
  WS_REF_COMPOUND(<<, shl)
  WS_REF_COMPOUND(>>, shr)
#undef WS_REF_COMPOUND

  const ref& operator++() const { return *this += 1; }
  const ref& operator--() const { return *this -= 1; }
  value_type operator++(int) const {
    value_type old = load();
    *this = old + 1;
    return old;
  }
  value_type operator--(int) const {
    value_type old = load();
    *this = old - 1;
    return old;
  }

  ptr<T> operator&() const { return ptr<T>(base_, index_, extent_, alloc_, space_, flags_, loc_); }

  // `a[i].m` in a plain CUDA file (rewritten to `(a[i]->*&S::m)`): the member alone, an access of
  // its own width at its offset in the element, as nvcc issues it.
  template <class M, class S>
    requires std::is_same_v<S, value_type>
  ref<std::conditional_t<std::is_const_v<T>, const M, M>> operator->*(M S::*member) const {
    using R = std::conditional_t<std::is_const_v<T>, const M, M>;
    static_assert(sizeof(T) % sizeof(M) == 0,
                  "a member of an element in memory is recorded when the struct's size is a multiple of the "
                  "member's: copy the element first (`S v = a[i];`) and read v's member");
    const S* element = reinterpret_cast<const S*>(base_ + index_);
    const auto offset = uint64_t(reinterpret_cast<const char*>(&(element->*member)) - reinterpret_cast<const char*>(element));
    constexpr uint64_t per = sizeof(T) / sizeof(M);
    return ref<R>(reinterpret_cast<R*>(base_), index_ * int64_t(per) + int64_t(offset / sizeof(M)), extent_ * per, alloc_,
                  space_, flags_, loc_);
  }

 private:
  template <class>
  friend class ptr;
  template <class>
  friend class ref;

  // Deferred loads and stores: numbers of up to 8 bytes at both ends. (Wider ones, an int4, are
  // loaded by the thread; so is a struct, whose assignment or operator could be code that must run
  // in the thread, not in the scheduler that computes a deferred store.)
  template <class U>
  static constexpr bool kDeferrable = std::is_arithmetic_v<value_type> && std::is_arithmetic_v<std::remove_cv_t<U>> &&
                                      sizeof(value_type) <= 8 && sizeof(std::remove_cv_t<U>) <= 8;
  // A plain copy also of the same trivially copyable type (an int2, an enum): its bytes, no code.
  using kPieces = access_pieces<value_type>;
  template <class U>
  static constexpr bool kDeferrableCopy =
      kDeferrable<U> || (std::is_same_v<value_type, std::remove_cv_t<U>> && std::is_trivially_copyable_v<value_type> &&
                         sizeof(value_type) <= 8 && !kPieces::split);
  // The access word of one member-wide piece of a struct copy.
  uint64_t piece_tag(emu::SubOp sub) const {
    return (tag(sub, AtomicOp::None) & ~(uint64_t(0xff) << 48)) | uint64_t(kPieces::width) << 48;
  }
  template <class V>
  static V from_bits(uint64_t bits) {
    V v;
    std::memcpy(&v, &bits, sizeof(V));
    return v;
  }
  template <class V>
  static uint64_t to_bits(const V& v) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(V));
    return bits;
  }
  template <class U>
  static uint64_t combine_copy(uint64_t, uint64_t slot1) {
    return to_bits(static_cast<value_type>(from_bits<std::remove_cv_t<U>>(slot1)));
  }
  template <class U>
  [[gnu::always_inline]] static void defer_load_of(const ref<U>& r, uint32_t slot) {
    r.check(AccessKind::Load);
    emu::deferred_load(r.loc_, r.tag(emu::SubOp::Load, AtomicOp::None) | uint64_t(emu::kTagDeferred) << 56,
                       r.byte_offset(), r.base_ + r.index_, slot);
  }
  [[gnu::always_inline]] const ref& defer_store(emu::Combine combine) const {
    check(AccessKind::Store);
    emu::deferred_store(loc_, tag(emu::SubOp::Store, AtomicOp::None) | uint64_t(emu::kTagDeferred) << 56,
                        byte_offset(), base_ + index_, combine);
    return *this;
  }
  template <class U>
  [[gnu::always_inline]] const ref& assign_from(const ref<U>& other) const {
    if constexpr (kDeferrableCopy<U>) {
      if (emu::t_defer_loads) {
        defer_load_of(other, 1);
        return defer_store(&combine_copy<U>);
      }
    }
    return *this = static_cast<value_type>(other.load());
  }

  // The access word, from the part the constructor made where the view's space and flags are
  // constants (Load and AtomicOp::None are zero bits).
  uint64_t tag(emu::SubOp sub, AtomicOp op) const {
    return tag_ | emu::access_tag(0, sub, 0, MemSpace::Global, 0, op);
  }
  uint64_t byte_offset() const { return uint64_t(index_) * uint64_t(sizeof(T)); }
  void check(AccessKind kind) const {
    if (index_ < 0 || uint64_t(index_) >= extent_)
      emu::out_of_bounds(loc_, alloc_, index_, extent_, kind);
  }

  T* base_;
  int64_t index_;
  uint64_t extent_;
  uint32_t alloc_;
  MemSpace space_;
  uint8_t flags_;
  std::source_location loc_;
  uint64_t tag_;
};

// A pointer into a recorded array: `&a[i]` (what atomicAdd and friends take), and what a plain
// CUDA file's `T*` parameters, locals and `__shared__` arrays become when warpscope instruments
// it (ws/plain_cuda). Arithmetic stays in bounds-checked element units of the whole allocation:
// (&a[i] + 1) is &a[i + 1], and `p[k]` is recorded as an element of the array p points into.
// `ptr<volatile T>` is the lecture's `volatile T*`: its accesses are marked volatile.
template <class T>
class ptr {
 public:
  using element_type = T;
  using stored_type = std::remove_volatile_t<T>;
  static constexpr uint8_t kOwnFlags = std::is_volatile_v<T> ? kFlagVolatile : 0;

  ptr() = default;
  ptr(std::nullptr_t) {}
  ptr(stored_type* base, int64_t index, uint64_t extent, uint32_t alloc, MemSpace space, uint8_t flags,
      const std::source_location& loc)
      : base_(base), index_(index), extent_(extent), alloc_(alloc), space_(space), flags_(flags | kOwnFlags),
        loc_(loc) {}
  // int* -> const int*, int* -> volatile int*: as C++ converts the plain pointers.
  template <class U>
    requires(!std::is_same_v<U, T> && std::is_convertible_v<U*, T*>)
  ptr(const ptr<U>& o)
      : base_(o.base_), index_(o.index_), extent_(o.extent_), alloc_(o.alloc_), space_(o.space_),
        flags_(o.flags_ | kOwnFlags), loc_(o.loc_) {}
  // A kernel parameter: the driver's global_array becomes the plain CUDA `T*` it stands for.
  template <class U>
    requires std::is_convertible_v<U*, T*>
  ptr(const global_array<U>& a)
      : base_(const_cast<stored_type*>(static_cast<const volatile T*>(a.allocation_data()))), index_(a.offset()),
        extent_(a.allocation_size()), alloc_(a.alloc_id()), space_(MemSpace::Global), flags_(kOwnFlags) {}

  ref<stored_type> operator[](idx i) const {
    return {base_, index_ + i.value, extent_, alloc_, space_, flags_, i.loc};
  }
  // The element &a[i] named (its site is that of the a[i] expression).
  ref<stored_type> operator*() const { return {base_, index_, extent_, alloc_, space_, flags_, loc_}; }

  ptr operator+(int64_t d) const { return at(index_ + d); }
  ptr operator-(int64_t d) const { return at(index_ - d); }
  friend ptr operator+(int64_t d, const ptr& p) { return p + d; }
  int64_t operator-(const ptr& o) const { return index_ - o.index_; }
  ptr& operator+=(int64_t d) { index_ += d; return *this; }
  ptr& operator-=(int64_t d) { index_ -= d; return *this; }
  ptr& operator++() { ++index_; return *this; }
  ptr& operator--() { --index_; return *this; }
  ptr operator++(int) { ptr old = *this; ++index_; return old; }
  ptr operator--(int) { ptr old = *this; --index_; return old; }
  template <class U>
  bool operator==(const ptr<U>& o) const { return address() == o.address(); }
  template <class U>
  auto operator<=>(const ptr<U>& o) const { return address() <=> o.address(); }
  bool operator==(std::nullptr_t) const { return base_ == nullptr; }
  explicit operator bool() const { return base_ != nullptr; }

  // Posts an atomic read-modify-write of this element and performs it; returns the old value.
  // `call` is the atomic's own site, used when the pointer was not made by `&a[i]`.
  std::remove_cv_t<T> atomic(AtomicOp op, std::remove_cv_t<T> v, std::remove_cv_t<T> cmp = {},
                             const std::source_location& call = {}) const {
    ref<stored_type> r = **this;
    if (loc_.line() == 0) r.loc_ = call;
    r.check(AccessKind::Atomic);
    emu::access(r.loc_, r.tag(emu::SubOp::Atomic, op), r.byte_offset());
    return detail::apply_atomic(base_ + index_, op, v, cmp, space_ == MemSpace::Global);
  }
  // The same memory seen as other elements (`reinterpret_cast<float4*>(p)`): ws::ptr_cast.
  template <class U>
  ptr<U> as() const {
    using S = typename ptr<U>::stored_type;
    return ptr<U>(reinterpret_cast<S*>(const_cast<std::remove_cv_t<T>*>(base_)), index_ * int64_t(sizeof(T)) / int64_t(sizeof(U)),
                  extent_ * sizeof(T) / sizeof(U), alloc_, space_, flags_ & ~kOwnFlags, loc_);
  }
  const void* address() const { return base_ + index_; }
  // Where the pointer was not made by `&a[i]`, the site of the call that dereferences it.
  ptr with_site_if_none(const std::source_location& loc) const {
    ptr p = *this;
    if (p.loc_.line() == 0) p.loc_ = loc;
    return p;
  }

 private:
  template <class>
  friend class ptr;
  ptr at(int64_t index) const { ptr p = *this; p.index_ = index; return p; }

  stored_type* base_ = nullptr;
  int64_t index_ = 0;
  uint64_t extent_ = 0;
  uint32_t alloc_ = Event::kNoAlloc;
  MemSpace space_ = MemSpace::Global;
  uint8_t flags_ = 0;
  std::source_location loc_{};
};

// `reinterpret_cast<float4*>(p)` and `(float4*)p` on a recorded pointer: the same bytes as wider
// (or narrower) elements; the allocation table keeps the original element type.
template <class U, class T>
ptr<U> ptr_cast(const ptr<T>& p) {
  return p.template as<U>();
}
// ... and on a shared array itself (`(float*)smem` with `extern __shared__ char smem[];`).
template <class U, class A>
  requires requires(A& a) { a.pointer(); }
ptr<U> ptr_cast(A& a) {
  return a.pointer().template as<U>();
}

//-----------------------------------------------------------------------------
// [SECTION] Array wrappers
//-----------------------------------------------------------------------------
// A view of a global-memory allocation, passed to kernels by value. The driver code makes it
// (Backend::alloc / upload), which names it in the launch's allocation table.
template <class T>
class global_array {
 public:
  using element_type = T;
  global_array() = default;
  global_array(T* data, uint64_t extent, uint32_t alloc) : data_(data), extent_(extent), alloc_(alloc) {}
  // A global_array<T> converts to global_array<const T> (read-only kernel parameters).
  template <class U>
    requires std::is_same_v<const U, T> && (!std::is_same_v<U, T>)
  global_array(const global_array<U>& o)
      : data_(o.allocation_data()), extent_(o.allocation_size()), alloc_(o.alloc_id()), off_(o.offset()) {}

  ref<T> operator[](idx i) const {
    return {data_, i.value + off_, extent_, alloc_, MemSpace::Global, 0, i.loc};
  }
  // `a + k`: the same allocation seen from element k on (the CUDA pointer `a + k`). Accesses are
  // still recorded, and bounds-checked, as elements of the whole allocation.
  global_array operator+(int64_t k) const {
    global_array v = *this;
    v.off_ += k;
    return v;
  }
  uint64_t size() const { return off_ >= 0 && uint64_t(off_) <= extent_ ? extent_ - uint64_t(off_) : 0; }
  T* data() const { return data_ + off_; }
  uint32_t alloc_id() const { return alloc_; }
  int64_t offset() const { return off_; }
  T* allocation_data() const { return data_; }
  uint64_t allocation_size() const { return extent_; }

  // The same memory seen as wider elements, e.g. int4 for 16-byte vector loads: element i of
  // the view is bytes [16i, 16i + 16) of the allocation. The allocation table keeps the original
  // element type, so the trace still says `g_idata[4*i]`.
  template <class U>
  global_array<U> reinterpret() const {
    return global_array<U>(reinterpret_cast<U*>(data_), extent_ * sizeof(T) / sizeof(U), alloc_) +
           off_ * int64_t(sizeof(T)) / int64_t(sizeof(U));
  }

 private:
  T* data_ = nullptr;
  uint64_t extent_ = 0;
  uint32_t alloc_ = Event::kNoAlloc;
  int64_t off_ = 0;  // `a + k`: elements past the allocation's start
};

// A view of a shared array through which accesses are marked volatile (the lecture's
// `volatile int* vsmem = sdata;` for the unrolled last warp). On the GPU this forces every read
// and write to go to shared memory instead of a register.
template <class T>
class volatile_view {
 public:
  volatile_view(T* data, uint64_t extent, uint32_t alloc) : data_(data), extent_(extent), alloc_(alloc) {}
  ref<T> operator[](idx i) const {
    return {data_, i.value, extent_, alloc_, MemSpace::Shared, kFlagVolatile, i.loc};
  }

 private:
  T* data_;
  uint64_t extent_;
  uint32_t alloc_;
};

// A statically sized shared array: `__shared__ ws::shared_array<int, 256, "sdata"> sdata;`
template <class T, std::size_t N, fixed_string Name>
class shared_array {
 public:
  using element_type = T;
  ref<T> operator[](idx i) {
    return {data_, i.value, N, alloc_id(), MemSpace::Shared, 0, i.loc};
  }
  volatile_view<T> as_volatile() { return {data_, N, alloc_id()}; }
  static constexpr std::size_t size() { return N; }
  // The array as a plain CUDA pointer (`int* p = sdata;`, `sdata + k`, a helper's parameter).
  ptr<T> pointer(int64_t k = 0) { return {data_, k, N, alloc_id(), MemSpace::Shared, 0, {}}; }
  template <class U>
    requires std::is_convertible_v<T*, U*>
  operator ptr<U>() { return pointer(); }
  ptr<T> operator+(int64_t k) { return pointer(k); }

 private:
  uint32_t alloc_id() {
    if (epoch_ == emu::block_epoch()) return alloc_;
    return emu::shared_alloc(data_, sizeof(data_), sizeof(T), N, Name.c_str(), kTypeName, epoch_, alloc_);
  }
  static constexpr std::string_view kTypeName = type_name<T>();
  alignas(16) T data_[N];
  uint64_t epoch_;
  uint32_t alloc_;
};

// The block's dynamic shared memory, sized by the launch: `ws::dynamic_shared<int, "sdata"> sdata;`
// (the lecture's `extern __shared__ int sdata[];`). Declared as a plain local.
template <class T, fixed_string Name>
class dynamic_shared {
 public:
  using element_type = T;
  dynamic_shared() = default;
  ref<T> operator[](idx i) {
    bind(i.loc);
    return {data_, i.value, extent_, alloc_, MemSpace::Shared, 0, i.loc};
  }
  volatile_view<T> as_volatile(std::source_location loc = std::source_location::current()) {
    bind(loc);
    return {data_, extent_, alloc_};
  }
  ptr<T> pointer(int64_t k = 0) {
    bind({});
    return {data_, k, extent_, alloc_, MemSpace::Shared, 0, {}};
  }
  template <class U>
    requires std::is_convertible_v<T*, U*>
  operator ptr<U>() { return pointer(); }
  ptr<T> operator+(int64_t k) { return pointer(k); }

 private:
  // Every access checks that the view is bound for this block (inline: it is); the binding
  // itself is out of line.
  void bind(const std::source_location& loc) {
    if (epoch_ != emu::block_epoch() || !data_) [[unlikely]]
      bind_now(loc);
  }
  [[gnu::noinline]] void bind_now(const std::source_location&) {
    const emu::DynamicViewCache& c = emu::t_dynamic_view;
    if (c.epoch == emu::block_epoch() && c.name == Name.c_str() && c.elem_size == sizeof(T)) {
      data_ = static_cast<T*>(c.storage);
      extent_ = c.extent;
      alloc_ = c.alloc;
      epoch_ = c.epoch;
      return;
    }
    void* storage = nullptr;
    alloc_ = emu::dynamic_shared_alloc(sizeof(T), Name.c_str(), kTypeName, storage, extent_, epoch_, alloc_);
    data_ = static_cast<T*>(storage);
  }
  static constexpr std::string_view kTypeName = type_name<T>();
  T* data_ = nullptr;
  uint64_t extent_ = 0;
  uint64_t epoch_ = 0;
  uint32_t alloc_ = Event::kNoAlloc;
};

// A two-dimensional shared array, `__shared__ float tile[32][33];` in a plain CUDA file:
// `tile[r]` is the row (a pointer, nothing recorded), `tile[r][c]` the recorded element r*C + c.
template <class T, std::size_t R, std::size_t C, fixed_string Name>
class shared_matrix {
 public:
  using element_type = T;
  ptr<T> operator[](int64_t row) { return flat_.pointer(row * int64_t(C)); }
  template <class U>
    requires std::is_convertible_v<T*, U*>
  operator ptr<U>() { return flat_.pointer(); }

 private:
  shared_array<T, R * C, Name> flat_;
};

// A plain CUDA file's `__device__` variable (`__device__ unsigned int count = 0;`,
// `__device__ int table[64];`): global memory of the program, not of a launch. An aggregate, so
// the file's initialiser stays a constant one (`= {{0}}`); a scalar is one element, each use
// `count[0]`. The driver names it in the run's allocation table before the first launch
// (ws/kernel/device_variable.h); until then its accesses name no allocation.
template <class T, std::size_t N, fixed_string Name>
struct device_variable {
  using element_type = T;
  using stored_type = std::remove_cv_t<T>;
  static constexpr const char* name() { return Name.c_str(); }
  static constexpr std::size_t size() { return N; }
  ref<stored_type> operator[](idx i) {
    return {const_cast<stored_type*>(value_), i.value, N, alloc_, MemSpace::Global, 0, i.loc};
  }
  ptr<T> pointer(int64_t k = 0) {
    return {const_cast<stored_type*>(value_), k, N, alloc_, MemSpace::Global, 0, {}};
  }
  template <class U>
    requires std::is_convertible_v<T*, U*>
  operator ptr<U>() { return pointer(); }
  ptr<T> operator+(int64_t k) { return pointer(k); }

  alignas(16) T value_[N];
  uint32_t alloc_ = Event::kNoAlloc;
};

// A kernel's failed assert() (generate.cpp defines the file's assert to call it): a fault of
// the run, worded as CUDA prints it.
[[noreturn]] inline void assert_failed(const char* expression, const std::source_location& loc) {
  emu::fail(loc, "assert",
            std::string(loc.file_name()) + ":" + std::to_string(loc.line()) + ": block [" + std::to_string(blockIdx.x) + "," +
                std::to_string(blockIdx.y) + "," + std::to_string(blockIdx.z) + "], thread [" + std::to_string(threadIdx.x) +
                "," + std::to_string(threadIdx.y) + "," + std::to_string(threadIdx.z) + "]: assertion `" + expression +
                "` failed");
}

// What `auto v = a[i];` means in CUDA: a copy of the element (one load), not a reference to it.
// A plain CUDA file's `auto` initialisers are wrapped in it; anything else passes through.
template <class T>
std::remove_cv_t<T> value(const ref<T>& r) {
  return r.load();
}
template <class T>
inline constexpr bool is_element_ref_v = false;
template <class T>
inline constexpr bool is_element_ref_v<ref<T>> = true;
template <class T>
  requires(!is_element_ref_v<std::remove_cvref_t<T>>)
T&& value(T&& v) {
  return static_cast<T&&>(v);
}

namespace detail {

template <class T>
T apply_atomic(T* p, AtomicOp op, T v, T compare, bool concurrent) {
  static_assert(std::is_arithmetic_v<T>, "atomics work on integer and floating-point elements");
  // Shared memory belongs to one worker thread; global memory may be touched by several workers
  // at once (blocks run in parallel), so it goes through std::atomic_ref.
  auto rmw = [&](auto&& exchange_fn) -> T {
    if (!concurrent) {
      T old = *p;
      *p = exchange_fn(old);
      return old;
    }
    std::atomic_ref<T> a(*p);
    T old = a.load(std::memory_order_relaxed);
    while (!a.compare_exchange_weak(old, exchange_fn(old), std::memory_order_relaxed)) {
    }
    return old;
  };
  switch (op) {
    case AtomicOp::Add: return rmw([&](T o) { return T(o + v); });
    case AtomicOp::Sub: return rmw([&](T o) { return T(o - v); });
    case AtomicOp::Min: return rmw([&](T o) { return std::min(o, v); });
    case AtomicOp::Max: return rmw([&](T o) { return std::max(o, v); });
    case AtomicOp::Exch: return rmw([&](T) { return v; });
    case AtomicOp::CAS: return rmw([&](T o) { return o == compare ? v : o; });
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case AtomicOp::Inc: return rmw([&](T o) { return T(o >= v ? 0 : o + 1); });
      case AtomicOp::Dec: return rmw([&](T o) { return T((o == 0 || o > v) ? v : o - 1); });
      case AtomicOp::And: return rmw([&](T o) { return T(o & v); });
      case AtomicOp::Or: return rmw([&](T o) { return T(o | v); });
      case AtomicOp::Xor: return rmw([&](T o) { return T(o ^ v); });
      default: break;
    }
  }
  return *p;
}

template <class T>
uint64_t to_bits(const T& v) {
  static_assert(sizeof(T) <= 8, "warp shuffles move at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <class T>
T from_bits(uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

}  // namespace detail
}  // namespace emu_api
}  // namespace ws

//-----------------------------------------------------------------------------
// [SECTION] Intrinsics
//-----------------------------------------------------------------------------
inline void __syncthreads(std::source_location loc = std::source_location::current()) {
  ws::emu::syncthreads_repeat(loc);
}
inline void __syncwarp(unsigned mask = 0xffffffffu,
                       std::source_location loc = std::source_location::current()) {
  ws::emu::warp_op(loc, ws::WarpOp::SyncWarp, mask, 0, 0, 32);
}
inline void __threadfence(std::source_location loc = std::source_location::current()) {
  ws::emu::fence(loc, false);
}
inline void __threadfence_block(std::source_location loc = std::source_location::current()) {
  ws::emu::fence(loc, true);
}
inline unsigned __activemask(std::source_location loc = std::source_location::current()) {
  return unsigned(ws::emu::warp_op(loc, ws::WarpOp::ActiveMask, 0, 0, 0, 32));
}
// clock64() and clock(): a recorded warp instruction whose value is the block's issue clock at it
// (the warp instructions the block issued before: the timeline's "clock" axis), the same for every
// lane of the instruction. (A plain CUDA file's clock() is renamed ws_clock(): libc has a clock().)
inline long long clock64(std::source_location loc = std::source_location::current()) {
  return (long long)(ws::emu::warp_op(loc, ws::WarpOp::Clock, 0, 0, 0, 32));
}
inline long long ws_clock64(std::source_location loc = std::source_location::current()) { return clock64(loc); }
inline long ws_clock(std::source_location loc = std::source_location::current()) { return long(clock64(loc)); }
// A plain CUDA file's printf in device code (renamed ws_printf by its rewrite): the thread's text
// is kept and printed at the launch's end in a GPU's order, a warp's lines of one printf in lane
// order (the emulator runs a warp's highest lane first). At most 1 MB a launch, as CUDA's buffer.
int ws_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32,
              std::source_location loc = std::source_location::current()) {
  return ws::detail::from_bits<T>(
      ws::emu::shfl(loc, mask, ws::detail::to_bits(var), src_lane, width));
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,
                 std::source_location loc = std::source_location::current()) {
  return ws::detail::from_bits<T>(ws::emu::shfl_up(loc, mask,
                                                   ws::detail::to_bits(var), int(delta), width));
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,
                   std::source_location loc = std::source_location::current()) {
  return ws::detail::from_bits<T>(ws::emu::shfl_down(loc, mask,
                                                   ws::detail::to_bits(var), int(delta), width));
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32,
                  std::source_location loc = std::source_location::current()) {
  return ws::detail::from_bits<T>(ws::emu::shfl_xor(loc, mask,
                                                   ws::detail::to_bits(var), lane_mask, width));
}
inline unsigned __ballot_sync(unsigned mask, int predicate,
                              std::source_location loc = std::source_location::current()) {
  return unsigned(ws::emu::warp_op(loc, ws::WarpOp::Ballot, mask, predicate != 0, 0, 32));
}
inline int __any_sync(unsigned mask, int predicate,
                      std::source_location loc = std::source_location::current()) {
  return int(ws::emu::warp_op(loc, ws::WarpOp::Any, mask, predicate != 0, 0, 32));
}
inline int __all_sync(unsigned mask, int predicate,
                      std::source_location loc = std::source_location::current()) {
  return int(ws::emu::warp_op(loc, ws::WarpOp::All, mask, predicate != 0, 0, 32));
}

// __match_any_sync: the lanes of `mask` whose `value` equals this lane's; __match_all_sync: `mask`
// when all of them hold the same value (and *pred = 1), else 0. 4- and 8-byte values.
namespace ws {
template <class T>
concept match_value = (sizeof(T) == 4 || sizeof(T) == 8) && std::is_trivially_copyable_v<T>;
}
template <ws::match_value T>
unsigned __match_any_sync(unsigned mask, T value, std::source_location loc = std::source_location::current()) {
  return unsigned(ws::emu::warp_op(loc, ws::WarpOp::MatchAny, mask, ws::detail::to_bits(value), 0, 32));
}
template <ws::match_value T>
unsigned __match_all_sync(unsigned mask, T value, int* pred, std::source_location loc = std::source_location::current()) {
  const unsigned r = unsigned(ws::emu::warp_op(loc, ws::WarpOp::MatchAll, mask, ws::detail::to_bits(value), 0, 32));
  *pred = r != 0;
  return r;
}

// __reduce_*_sync (sm_80 and later): the lanes of `mask` combine their 32-bit values; add, min
// and max have signed and unsigned overloads (the emulator's operand says which: arg 1 = signed).
#define WS_EMU_WARP_REDUCE(NAME, OP, TYPE, SIGNED)                                                      \
  inline TYPE NAME(unsigned mask, TYPE value, std::source_location loc = std::source_location::current()) { \
    return TYPE(ws::emu::warp_op(loc, ws::WarpOp::OP, mask, uint32_t(value), SIGNED, 32));            \
  }
WS_EMU_WARP_REDUCE(__reduce_add_sync, ReduceAdd, unsigned, 0)
WS_EMU_WARP_REDUCE(__reduce_add_sync, ReduceAdd, int, 1)
WS_EMU_WARP_REDUCE(__reduce_min_sync, ReduceMin, unsigned, 0)
WS_EMU_WARP_REDUCE(__reduce_min_sync, ReduceMin, int, 1)
WS_EMU_WARP_REDUCE(__reduce_max_sync, ReduceMax, unsigned, 0)
WS_EMU_WARP_REDUCE(__reduce_max_sync, ReduceMax, int, 1)
WS_EMU_WARP_REDUCE(__reduce_and_sync, ReduceAnd, unsigned, 0)
WS_EMU_WARP_REDUCE(__reduce_or_sync, ReduceOr, unsigned, 0)
WS_EMU_WARP_REDUCE(__reduce_xor_sync, ReduceXor, unsigned, 0)
#undef WS_EMU_WARP_REDUCE

// __syncthreads_count / _and / _or: a __syncthreads() that also counts the threads of the block
// whose predicate is non-zero (and tells whether all or any are). Recorded as a barrier.
inline int __syncthreads_count(int predicate, std::source_location loc = std::source_location::current()) {
  return int(ws::emu::syncthreads_reduce(loc, predicate != 0));
}
inline int __syncthreads_and(int predicate, std::source_location loc = std::source_location::current()) {
  return ws::emu::syncthreads_reduce(loc, predicate != 0) == blockDim.x * blockDim.y * blockDim.z;
}
inline int __syncthreads_or(int predicate, std::source_location loc = std::source_location::current()) {
  return ws::emu::syncthreads_reduce(loc, predicate != 0) != 0;
}

// __ldg(&a[i]): a read through the read-only (texture) path on the GPU; here a recorded load.
template <class T>
std::remove_cv_t<T> __ldg(ws::ptr<T> p, std::source_location loc = std::source_location::current()) {
  return *p.with_site_if_none(loc);
}

// The cache-hinted loads and stores (__ldcg: cache globally, __ldcs: streaming, __ldlu: last use,
// __ldcv: volatile, __ldca: all levels; __stcg, __stcs, __stwb, __stwt): on the GPU they choose
// how the caches keep the line; here each is the recorded load or store it is.
#define WS_EMU_LOAD_HINT(NAME)                                                                    \
  template <class T>                                                                             \
  std::remove_cv_t<T> NAME(ws::ptr<T> p, std::source_location loc = std::source_location::current()) { \
    return *p.with_site_if_none(loc);                                                            \
  }
WS_EMU_LOAD_HINT(__ldcg)
WS_EMU_LOAD_HINT(__ldca)
WS_EMU_LOAD_HINT(__ldcs)
WS_EMU_LOAD_HINT(__ldlu)
WS_EMU_LOAD_HINT(__ldcv)
#undef WS_EMU_LOAD_HINT
#define WS_EMU_STORE_HINT(NAME)                                                                   \
  template <class T, class U>                                                                    \
  void NAME(ws::ptr<T> p, const U& v, std::source_location loc = std::source_location::current()) { \
    *p.with_site_if_none(loc) = static_cast<std::remove_cv_t<T>>(v);                             \
  }
WS_EMU_STORE_HINT(__stcg)
WS_EMU_STORE_HINT(__stcs)
WS_EMU_STORE_HINT(__stwb)
WS_EMU_STORE_HINT(__stwt)
#undef WS_EMU_STORE_HINT

// Atomics on wrapped elements (&a[i]) are recorded; the site is that of the a[i] expression.
#define WS_EMU_ATOMIC(NAME, OP)                                                        \
  template <class T, class U>                                                          \
  std::remove_cv_t<T> NAME(ws::ptr<T> p, U v,                                          \
                          std::source_location loc = std::source_location::current()) { \
    return p.atomic(ws::AtomicOp::OP, static_cast<std::remove_cv_t<T>>(v), {}, loc);   \
  }
WS_EMU_ATOMIC(atomicAdd, Add)
WS_EMU_ATOMIC(atomicSub, Sub)
WS_EMU_ATOMIC(atomicMin, Min)
WS_EMU_ATOMIC(atomicMax, Max)
WS_EMU_ATOMIC(atomicExch, Exch)
WS_EMU_ATOMIC(atomicInc, Inc)
WS_EMU_ATOMIC(atomicDec, Dec)
WS_EMU_ATOMIC(atomicAnd, And)
WS_EMU_ATOMIC(atomicOr, Or)
WS_EMU_ATOMIC(atomicXor, Xor)
#undef WS_EMU_ATOMIC
template <class T, class U, class V>
std::remove_cv_t<T> atomicCAS(ws::ptr<T> p, U compare, V v,
                              std::source_location loc = std::source_location::current()) {
  using R = std::remove_cv_t<T>;
  return p.atomic(ws::AtomicOp::CAS, static_cast<R>(v), static_cast<R>(compare), loc);
}
