// The kernel API as gpu-trace compiles it (nvcc with WS_GPU_TRACE): the same wrappers as gpu-fast,
// but every access through them is recorded by its warp on the device (gpu_trace_format.h).
//
// [SECTION] Recording: control block, lane/warp/block identity, the per-warp record
// [SECTION] Per-site counters (wavefronts and bank conflicts, sectors, computed by the warp), full records
// [SECTION] Element references and array wrappers
// [SECTION] Barriers and atomics
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <source_location>
#include <type_traits>

#include "ws/kernel/access_pieces.h"
#include "ws/kernel/fixed_string.h"
#include "ws/gpu/trace_format.h"
#include "ws/kernel/type_name.h"

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
using gpu_trace::kRecordWarpOp;
using gpu_trace::Record;
using gpu_trace::SiteCounter;
using gpu_trace::kWarpSlotsPerSm;

//-----------------------------------------------------------------------------
// [SECTION] Recording
//-----------------------------------------------------------------------------
// What every recorded access reads first: the recording's switches, in this module's own
// __constant__ variable. A constant cannot change while a kernel runs, so the compiler reads it
// from the constant bank where it is used and never reloads it after a barrier: "nothing armed"
// costs a compare, not a load at every step of a kernel's tree of __syncthreads(). One per
// translation unit (module, WS_TRACE_CONTROL names it): the GpuBackend of the same generated .cu
// file points it at a recording before each launch with set_control below, which is private to
// the translation unit too (a linker-merged copy would write the first module's variable).
inline constexpr uint32_t kModeCounters = 1, kModeFull = 2;
struct ControlView {
  Control* control;              // the recording (records, reservations, overflow flag)
  uint32_t mode;                 // 0: not recording; kModeCounters | kModeFull
  uint32_t sm_count;
  const uint32_t* full_blocks;   // bitmap of the blocks recorded in full (kModeFull)
  uint32_t full_block_words;
  SiteCounter* counters;         // [sm][kWarpSlotsPerSm][kCounterSlots]
  unsigned long long* keys;      // the rows' keys, same shape (Control::counter_keys)
};
#ifndef WS_TRACE_CONTROL
#define WS_TRACE_CONTROL g_control
#endif
static __constant__ ControlView WS_TRACE_CONTROL;

// Host side: arms the next launches of this module with the recording `device` (its host copy
// `host` says what is switched on), or disarms them (device == nullptr). Ordered on the default
// stream before the launches that follow.
static inline cudaError_t set_control(Control* device, const Control& host) {
  ControlView v{};
  if (device) {
    v.control = device;
    v.mode = (host.counters_enabled ? kModeCounters : 0u) |
             (host.full_blocks && host.full_block_words ? kModeFull : 0u);
    v.sm_count = host.sm_count;
    v.full_blocks = host.full_blocks;
    v.full_block_words = host.full_block_words;
    v.counters = host.counters;
    v.keys = host.counter_keys;
  }
  return cudaMemcpyToSymbolAsync(WS_TRACE_CONTROL, &v, sizeof v, 0, cudaMemcpyHostToDevice);
}

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
// This SM's share of a per-SM table. %smid is below the SM count on the GPUs seen (H100, H200);
// the modulo is kept for one that is not, behind a branch: a modulo by a runtime value is a long
// division, and on the counters' path it cost about 1x of reduce 3's time (bench_gpu_trace_floor).
__device__ __forceinline__ unsigned sm_row(unsigned sm_count) {
  const unsigned s = sm_id();
  return s < sm_count ? s : s % sm_count;
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
// Everything on the counters path is inlined at the access, where the site, the memory space and
// the access width are compile-time constants: the phase loops unroll, and the lanes that execute
// the access together are simply __activemask() there (in a called function, lanes from several
// call sites may run its body together and would need a __match_any_sync on the site to be told
// apart).
__device__ __forceinline__ bool recorded_in_full(const ControlView& v, uint32_t block) {
  return (v.mode & kModeFull) && block / 32 < v.full_block_words && ((v.full_blocks[block / 32] >> (block % 32)) & 1);
}

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

// Whether every lane of `group` has v == v(lo) + (lane - lo) * stride for one integer stride (lo:
// the group's first lane): the common patterns (a[tid], a[2 * tid], a[tid + s], one element for
// all). Then the counting below is arithmetic on each lane's own value, not __match_any_sync
// (whose latency, seen in Nsight Compute, dominated the recording's cost at every tree step).
// The stride is guessed from the first and last lanes and then checked exactly by every lane.
template <class V>
__device__ __forceinline__ bool lane_linear(unsigned group, V v, long long& stride) {
  const int lo = __ffs(group) - 1, hi = 31 - __clz(group);
  const V v_lo = __shfl_sync(group, v, lo);
  const V v_hi = __shfl_sync(group, v, hi);
  const long long span = static_cast<long long>(v_hi) - static_cast<long long>(v_lo);
  // A guess, so an approximate division does: a wrong guess only fails the exact check below
  // (the counting then takes the matches). IEEE division adds a slow-path branch at every access.
  stride = hi == lo ? 0 : __float2ll_rn(__fdividef(float(span), float(hi - lo)));
  const long long expected = static_cast<long long>(v_lo) + stride * (int(lane_id()) - lo);
  return __all_sync(group, static_cast<long long>(v) == expected);
}

// The bit pattern of lanes 0, q, 2q, ... (q a power of two <= 32).
__device__ __forceinline__ unsigned every_qth_lane(unsigned q) {
  return q >= 32 ? 1u : 0xffffffffu / ((1u << q) - 1u);
}

// Shared-memory wavefronts of one warp instruction: 32 banks of 4 bytes, same word multicast,
// 8-byte accesses in two half-warp phases and 16-byte ones in four quarter-warp phases. Each
// phase is handled as 32 "virtual lanes" (lane, word j of its access), so every lane of the warp
// takes part in every __match_any_sync. Returns wavefronts; `ideal` gets the phases used.
// Word indices of the shared window fit in 30 bits, so the keys are 32-bit (a cheaper match).
__device__ __forceinline__ unsigned shared_wavefronts(unsigned group, uint32_t address, unsigned width,
                                                      unsigned& ideal) {
  const unsigned lane = lane_id();
  const unsigned k = width <= 4 ? 1 : width / 4;  // words per lane
  const unsigned lanes_per_phase = 32 / k;
  const unsigned word0 = address / 4;
  unsigned total = 0;
  ideal = 0;
  long long stride;
  if (k == 1 && lane_linear(group, word0, stride)) {
    // Words w0 + lane * s: all the same (s = 0, one multicast wavefront) or all different, and
    // lanes a and b share a bank when (a - b) * s is a multiple of 32, i.e. when a = b modulo
    // q = 32 / gcd(s, 32). The busiest bank takes as many wavefronts as it has lanes.
    ideal = 1;
    if (stride == 0) return 1;
    const unsigned q = 32u >> min(__ffsll(stride) - 1, 5);
    return group_max(group, __popc(group & (every_qth_lane(q) << (lane % q))));
  }
#pragma unroll
  for (unsigned phase = 0; phase < k; ++phase) {
    const unsigned src = phase * lanes_per_phase + lane / k;
    const unsigned j = lane % k;
    const unsigned w0 = k == 1 ? word0 : __shfl_sync(group, word0, src);
    const bool valid = (group >> src) & 1;
    const unsigned word = w0 + j;
    // Dedupe words (multicast), then count distinct words per bank among the word leaders.
    const unsigned same_word = __match_any_sync(group, valid ? word : 0x80000000u | lane);
    const bool word_leader = valid && (__ffs(same_word) - 1) == int(lane);
    const unsigned same_bank = __match_any_sync(group, word_leader ? word % 32 : 0x80000000u | lane);
    const unsigned ways = word_leader ? unsigned(__popc(same_bank)) : 0u;
    total += group_max(group, ways);
    ideal += k == 1 ? 1u : (__any_sync(group, valid) ? 1u : 0u);
  }
  return total;
}

// Distinct 32-byte sectors and 128-byte lines of a global access. Lane-linear addresses (the
// usual case): a lane starts a new sector when the group's previous lane (whose address follows
// from the stride) is in another one. Otherwise, matches; their keys fold the address to 32 bits
// (bits 5..36 and 7..38, xor the rest): two lanes of one instruction would have to be 128 GiB
// apart to be miscounted.
__device__ __forceinline__ unsigned distinct_blocks(unsigned group, uint64_t address, unsigned shift) {
  const uint64_t b = address >> shift;
  const unsigned same = __match_any_sync(group, unsigned(b) ^ unsigned(b >> 32));
  return __popc(__ballot_sync(group, (__ffs(same) - 1) == int(lane_id())));
}
__device__ __forceinline__ void global_blocks(unsigned group, uint64_t address, unsigned& sectors, unsigned& lines) {
  long long stride;
  if (lane_linear(group, address, stride)) {
    const unsigned lane = lane_id();
    const unsigned below = group & ((1u << lane) - 1u);
    const int prev = 31 - __clz(below);  // -1: this is the group's first lane
    const uint64_t prev_address = address - uint64_t(stride * (int(lane) - prev));
    sectors = __popc(__ballot_sync(group, !below || (prev_address >> 5) != (address >> 5)));
    lines = __popc(__ballot_sync(group, !below || (prev_address >> 7) != (address >> 7)));
    return;
  }
  sectors = distinct_blocks(group, address, 5);
  lines = distinct_blocks(group, address, 7);
}

// Where a site's row starts in a table: the top bits of a multiplicative hash. (The key's low
// bits are the file name's address, the same for every site of a file: `key % kCounterSlots`
// started every site of a file at one row, so that each counted access walked the table, one
// dependent global load per row; seen in Nsight Compute's per-instruction samples.)
__device__ __forceinline__ unsigned site_hash(unsigned long long key) {
  return unsigned((key * 0x9e3779b97f4a7c15ull) >> 58) % kCounterSlots;
}

// The first time a warp slot meets a site (or on a hash collision): find or claim its row.
static __device__ __noinline__ SiteCounter* claim_site(SiteCounter* table, unsigned long long* keys,
                                                       unsigned long long key, uint64_t file, uint32_t line,
                                                       uint32_t column, uint32_t packed, uint32_t* overflow) {
  unsigned slot = site_hash(key);
  for (unsigned probe = 0; probe < kCounterSlots; ++probe, slot = (slot + 1) % kCounterSlots) {
    if (keys[slot] == 0ull) {  // a free slot: describe the site once (this warp owns the table now)
      SiteCounter& s = table[slot];
      s.key = key;
      s.file = file;
      s.line = line;
      s.column = column;
      s.kind = uint8_t(packed);
      s.space = uint8_t(packed >> 8);
      s.width = uint8_t(packed >> 16);
      keys[slot] = key;
    }
    if (keys[slot] == key) return table + slot;
  }
  *overflow = 1;
  return nullptr;
}

__device__ __forceinline__ void count_site(const AccessDesc& d, unsigned group, uint64_t address) {
  unsigned wavefronts = 0, ideal = 0, sectors = 0, lines = 0;
  if (d.space == kTraceShared) {
    wavefronts = shared_wavefronts(group, uint32_t(address), d.width, ideal);
  } else {
    global_blocks(group, address, sectors, lines);
  }
  if (lane_id() != unsigned(__ffs(group) - 1)) return;
  // This warp slot's own table: one warp holds a slot at a time, so the row is found with a plain
  // read of the key array (cached in L1: the sums' atomics go to other lines); the sums are
  // fire-and-forget atomics (RED), which the warp never waits for.
  const ControlView& v = WS_TRACE_CONTROL;
  const size_t table = (size_t(sm_row(v.sm_count)) * kWarpSlotsPerSm + warp_slot() % kWarpSlotsPerSm) * kCounterSlots;
  const unsigned long long key = group_key(d) | 1ull;
  const unsigned slot = site_hash(key);
  SiteCounter* s = v.counters + table + slot;
  if (v.keys[table + slot] != key)
    s = claim_site(v.counters + table, v.keys + table, key, reinterpret_cast<uintptr_t>(d.file), d.line, d.column,
                   uint32_t(d.kind) | uint32_t(d.space) << 8 | uint32_t(d.width) << 16, &v.control->counter_overflow);
  if (!s) return;
  atomicAdd(&s->instructions, 1ull);
  atomicAdd(&s->lanes, static_cast<unsigned long long>(__popc(group)));
  if (d.space == kTraceShared) {
    atomicAdd(&s->wavefronts, static_cast<unsigned long long>(wavefronts));
    atomicAdd(&s->ideal_wavefronts, static_cast<unsigned long long>(ideal));
  } else {
    atomicAdd(&s->sectors, static_cast<unsigned long long>(sectors));
    atomicAdd(&s->lines, static_cast<unsigned long long>(lines));
  }
}

// The record of reservation `slot` of SM `sm`, or null when the buffer is full. The first slot
// of a chunk to get here takes the next free chunk for all of them; none waits for another (a
// slot that waited on the one opening its chunk could wait forever on a divergent path of its
// own warp: __match_any_sync's groups in the warp-aggregated histogram hung so, and the spin kept
// the warp apart so that the next access was counted in pieces). Two that race take a chunk each
// and the one that loses the compare-and-swap leaves its chunk unused: at most a chunk per racing
// warp, at a chunk's first slots only.
static __device__ Record* record_at(Control* c, unsigned sm, unsigned long long slot) {
  using gpu_trace::kChunk;
  const unsigned long long index = slot / kChunk, within = slot % kChunk;
  if (index >= c->chunks) return nullptr;
  unsigned long long* entry = c->sm_chunk + sm * c->chunks + index;
  unsigned long long e = *reinterpret_cast<volatile unsigned long long*>(entry);
  if (e == 0) {
    const unsigned long long g = atomicAdd(c->next_chunk, 1ull);
    const unsigned long long mine = g < c->chunks ? g + 1 : ~0ull;
    const unsigned long long before = atomicCAS(entry, 0ull, mine);
    e = before == 0 ? mine : before;
  }
  return e == ~0ull ? nullptr : c->records + (e - 1) * kChunk + within;
}

// One lane's part of an access's record: its offset, and the leader's the rest.
static __device__ __forceinline__ void fill_access(Record& r, bool leader, unsigned group, const char* file, uint32_t line,
                                                   uint32_t column, uint32_t packed, uint64_t alloc, uint32_t shared_base,
                                                   uint32_t elem_size, uint32_t extent, const char* name, uint64_t offset) {
  r.offsets[lane_id()] = offset;
  if (!leader) return;
  r.time = global_time();
  r.file = reinterpret_cast<uintptr_t>(file);
  r.alloc = alloc & 0x00ffffffffffffffull;
  r.line = line;
  r.column = column;
  r.block = linear_block();
  r.mask = group;
  r.sm = sm_id();
  r.warp = uint16_t(linear_thread() / 32);
  r.type = kRecordAccess;
  r.kind = uint8_t(packed);
  r.space = uint8_t(packed >> 8);
  r.width = uint8_t(packed >> 16);
  r.flags = uint8_t(packed >> 24);
  r.atomic = uint8_t(alloc >> 56);
  r.shared_base = shared_base;
  r.elem_size = elem_size;
  r.extent = extent;
  for (int i = 0; i < 16; ++i) r.name[i] = 0;
  if (name)
    for (int i = 0; i < 15 && name[i]; ++i) r.name[i] = name[i];
}

// A full record of one warp instruction (blocks recorded in full only). Out of line: it is the
// rare path. `group` is the lanes that executed the access together, taken at the access.
static __device__ __noinline__ void record_full(Control* c, unsigned group, const char* file, uint32_t line,
                                                uint32_t column, uint32_t packed, uint64_t alloc, uint32_t shared_base,
                                                uint32_t elem_size, uint32_t extent, const char* name,
                                                uint64_t offset) {
  const unsigned lane = lane_id();
  const unsigned leader = __ffs(group) - 1;
  const unsigned sm = sm_row(c->sm_count);
  unsigned long long at = 0;
  if (lane == leader) at = reinterpret_cast<uintptr_t>(record_at(c, sm, atomicAdd(&c->sm_reserved[sm], 1ull)));
  at = __shfl_sync(group, at, leader);
  if (at) fill_access(*reinterpret_cast<Record*>(at), lane == leader, group, file, line, column, packed, alloc, shared_base,
                      elem_size, extent, name, offset);  // (else counted in sm_reserved, reported as dropped)
  // The group leaves together, as it came: the next access's __activemask() is its lanes again,
  // as on the emulator, not the leader apart from the others.
  __syncwarp(group);
}

// Records one access of this lane; every lane of the warp that executes the same instruction
// calls it together. Nothing happens (one load and a branch) when no recording is armed.
__device__ __forceinline__ void record_access(const AccessDesc& d, uint64_t offset, uint64_t address) {
  const ControlView& v = WS_TRACE_CONTROL;
  const uint32_t mode = v.mode;
  if (!mode) return;
  const bool full = recorded_in_full(v, linear_block());
  const bool counters = (mode & kModeCounters) != 0;
  if (!full && !counters) return;  // uniform per block: no lane waits for another
  const unsigned group = __activemask();
  if (counters) count_site(d, group, address);
  if (full)
    record_full(v.control, group, d.file, d.line, d.column,
                uint32_t(d.kind) | uint32_t(d.space) << 8 | uint32_t(d.width) << 16 | uint32_t(d.flags) << 24,
                d.alloc | uint64_t(d.atomic) << 56, d.shared_base, d.elem_size, d.extent, d.name, offset);
}

static __device__ __noinline__ void record_barrier_full(Control* c, const char* file, uint32_t line,
                                                        uint32_t column) {
  const unsigned active = __activemask();
  const unsigned lane = lane_id();
  const unsigned leader = __ffs(active) - 1;
  if (lane != leader) return;
  const unsigned sm = sm_row(c->sm_count);
  Record* at = record_at(c, sm, atomicAdd(&c->sm_reserved[sm], 1ull));
  if (!at) return;
  Record& r = *at;
  r.time = global_time();
  r.file = reinterpret_cast<uintptr_t>(file);
  r.alloc = 0;
  r.line = line;
  r.column = column;
  r.block = linear_block();
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

// Barriers are recorded only in the blocks recorded in full (the counters count accesses).
__device__ __forceinline__ void record_barrier(const char* file, uint32_t line, uint32_t column) {
  const ControlView& v = WS_TRACE_CONTROL;
  if (recorded_in_full(v, linear_block())) record_barrier_full(v.control, file, line, column);
}

// A warp-synchronous call, by the lowest of the lanes that make it together (before it runs:
// those lanes are __activemask() here).
static __device__ __noinline__ void record_warp_op_full(Control* c, const char* file, uint32_t line, uint32_t column,
                                                        uint8_t op, uint32_t members) {
  const unsigned active = __activemask();
  if (lane_id() != unsigned(__ffs(active) - 1)) return;
  const unsigned sm = sm_row(c->sm_count);
  Record* at = record_at(c, sm, atomicAdd(&c->sm_reserved[sm], 1ull));
  if (!at) return;
  Record& r = *at;
  r.time = global_time();
  r.file = reinterpret_cast<uintptr_t>(file);
  r.alloc = members;
  r.line = line;
  r.column = column;
  r.block = linear_block();
  r.mask = active;
  r.sm = sm_id();
  r.warp = uint16_t(linear_thread() / 32);
  r.type = kRecordWarpOp;
  r.kind = op;
  r.width = 0;
  r.space = 0;
  r.flags = 0;
  r.atomic = 0;
}

// Warp-synchronous calls too, in the blocks recorded in full only.
__device__ __forceinline__ void record_warp_op(const std::source_location& loc, uint8_t op, uint32_t members) {
  const ControlView& v = WS_TRACE_CONTROL;
  if (recorded_in_full(v, linear_block()))
    record_warp_op_full(v.control, loc.file_name(), loc.line(), loc.column(), op, members);
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
  // `a[i].m` in a plain CUDA file (`(a[i]->*&S::m)`): the member, an access of its own width.
  template <class M, class S>
    requires std::is_same_v<S, value_type>
  __device__ ref<std::conditional_t<std::is_const_v<T>, const M, M>> operator->*(M S::*member) const {
    using R = std::conditional_t<std::is_const_v<T>, const M, M>;
    static_assert(sizeof(T) % sizeof(M) == 0,
                  "a member of an element in memory is recorded when the struct's size is a multiple of the "
                  "member's: copy the element first");
    const S* element = reinterpret_cast<const S*>(p_ + index_);
    const auto offset = uint64_t(reinterpret_cast<const char*>(&(element->*member)) - reinterpret_cast<const char*>(element));
    constexpr uint64_t per = sizeof(T) / sizeof(M);
    trace_rt::AccessDesc d = d_;
    d.width = uint8_t(sizeof(M) < 16 ? sizeof(M) : 16);
    d.elem_size = uint32_t(sizeof(M));
    d.extent = uint32_t(uint64_t(d_.extent) * per);
    return ref<R>((R*)(p_), index_ * int64_t(per) + int64_t(offset / sizeof(M)), d);
  }

  // One record per access the compiler makes: a struct copy is member-wide pieces (access_pieces).
  __device__ void record(uint8_t kind, uint8_t atomic) const {
    using Pieces = access_pieces<std::remove_cv_t<T>>;
    trace_rt::AccessDesc d = d_;
    d.kind = kind;
    d.atomic = atomic;
    d.width = uint8_t(Pieces::width);
    const uint64_t offset = uint64_t(index_) * sizeof(T);
    const uint64_t address = d.space == kTraceShared ? d.shared_base + offset
                                                     : reinterpret_cast<uintptr_t>(p_ + index_);
    for (uint32_t k = 0; k < Pieces::count; ++k)
      trace_rt::record_access(d, offset + uint64_t(k) * Pieces::width, address + uint64_t(k) * Pieces::width);
  }

 private:
  T* p_;
  int64_t index_;
  trace_rt::AccessDesc d_;
};

template <class T>
class global_array;

// A pointer into a recorded array: `&a[i]`, and what a plain CUDA file's `T*` parameters, locals
// and shared arrays become (ws/plain_cuda, as on the emulator). It carries the access description
// of its array; `p[k]` records at the site of the `p[k]` expression, `ptr<volatile T>` marks its
// accesses volatile.
template <class T>
class ptr {
 public:
  ptr() = default;
  __host__ __device__ ptr(std::nullptr_t) {}
  __host__ __device__ ptr(T* p, int64_t index, const trace_rt::AccessDesc& d) : p_(p), index_(index), d_(d) {}
  template <class U>
    requires(!std::is_same_v<U, T> && std::is_convertible_v<U*, T*>)
  __host__ __device__ ptr(const ptr<U>& o) : p_(o.p_), index_(o.index_), d_(o.d_) {
    if constexpr (std::is_volatile_v<T>) d_.flags |= 1;
  }
  // A kernel parameter: the driver's global_array becomes the plain `T*` (made on the host).
  template <class U>
    requires std::is_convertible_v<U*, T*>
  __host__ __device__ ptr(const global_array<U>& a) : p_(a.allocation_data()), index_(a.offset()) {
    d_ = trace_rt::AccessDesc{nullptr, 0, 0, kTraceLoad, kTraceGlobal, uint8_t(sizeof(T)), uint8_t(std::is_volatile_v<T> ? 1 : 0),
                              0, a.alloc_id(), 0, uint32_t(sizeof(T)), uint32_t(a.allocation_size()), nullptr};
  }

  __device__ ref<T> operator[](idx i) const {
    trace_rt::AccessDesc d = d_;
    d.file = i.loc.file_name();
    d.line = i.loc.line();
    d.column = i.loc.column();
    return ref<T>(p_, index_ + i.value, d);
  }
  __device__ T* raw() const { return p_ + index_; }
  __device__ void record_atomic(uint8_t op, const std::source_location& call = std::source_location::current()) const {
    at_site(call).record(kTraceAtomic, op);
  }
  __device__ void record_load(const std::source_location& call = std::source_location::current()) const {
    at_site(call).record(kTraceLoad, 0);
  }
  __device__ void record_store(const std::source_location& call = std::source_location::current()) const {
    at_site(call).record(kTraceStore, 0);
  }

  __host__ __device__ ptr operator+(int64_t k) const { ptr q = *this; q.index_ += k; return q; }
  __host__ __device__ ptr operator-(int64_t k) const { ptr q = *this; q.index_ -= k; return q; }
  __host__ __device__ friend ptr operator+(int64_t k, const ptr& q) { return q + k; }
  __host__ __device__ int64_t operator-(const ptr& o) const { return index_ - o.index_; }
  __host__ __device__ ptr& operator+=(int64_t k) { index_ += k; return *this; }
  __host__ __device__ ptr& operator-=(int64_t k) { index_ -= k; return *this; }
  __host__ __device__ ptr& operator++() { ++index_; return *this; }
  __host__ __device__ ptr& operator--() { --index_; return *this; }
  __host__ __device__ ptr operator++(int) { ptr q = *this; ++index_; return q; }
  __host__ __device__ ptr operator--(int) { ptr q = *this; --index_; return q; }
  template <class U>
  __host__ __device__ bool operator==(const ptr<U>& o) const { return address() == o.address(); }
  template <class U>
  __host__ __device__ bool operator<(const ptr<U>& o) const { return address() < o.address(); }
  template <class U>
  __host__ __device__ bool operator>(const ptr<U>& o) const { return address() > o.address(); }
  template <class U>
  __host__ __device__ bool operator<=(const ptr<U>& o) const { return address() <= o.address(); }
  template <class U>
  __host__ __device__ bool operator>=(const ptr<U>& o) const { return address() >= o.address(); }
  __host__ __device__ explicit operator bool() const { return p_ != nullptr; }
  __host__ __device__ const volatile void* address() const { return p_ + index_; }

  // The same bytes as other elements (`reinterpret_cast<float4*>(p)`): ws::ptr_cast.
  template <class U>
  __host__ __device__ ptr<U> as() const {
    trace_rt::AccessDesc d = d_;
    d.width = uint8_t(sizeof(U));
    d.elem_size = uint32_t(sizeof(U));
    d.extent = uint32_t(uint64_t(d_.extent) * sizeof(T) / sizeof(U));
    d.flags = std::is_volatile_v<U> ? 1 : 0;
    return ptr<U>((U*)(p_), index_ * int64_t(sizeof(T)) / int64_t(sizeof(U)), d);
  }

 private:
  template <class>
  friend class ptr;
  // Made by `&a[i]`, the pointer has that site; made from an array, the site of its use.
  __device__ ref<T> at_site(const std::source_location& call) const {
    trace_rt::AccessDesc d = d_;
    if (d.line == 0) {
      d.file = call.file_name();
      d.line = call.line();
      d.column = call.column();
    }
    return ref<T>(p_, index_, d);
  }
  T* p_ = nullptr;
  int64_t index_ = 0;
  trace_rt::AccessDesc d_{};
};

template <class U, class T>
__host__ __device__ ptr<U> ptr_cast(const ptr<T>& p) {
  return p.template as<U>();
}
template <class U, class A>
  requires requires(A& a) { a.pointer(); }
__device__ ptr<U> ptr_cast(A& a) {
  return a.pointer().template as<U>();
}

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
  __host__ __device__ global_array(const global_array<U>& o)
      : data_(o.allocation_data()), extent_(o.allocation_size()), alloc_(o.alloc_id()), off_(o.offset()) {}

  __device__ ref<T> operator[](idx i) const {
    return ref<T>(data_, i.value + off_,
                  detail::desc(i.loc, kTraceGlobal, sizeof(T), 0, alloc_, 0, sizeof(T), uint32_t(extent_), nullptr));
  }
  // `a + k`: recorded as elements of the whole allocation (as the emulator does).
  __host__ __device__ global_array operator+(int64_t k) const {
    global_array v = *this;
    v.off_ += k;
    return v;
  }
  __host__ __device__ uint64_t size() const { return off_ >= 0 && uint64_t(off_) <= extent_ ? extent_ - uint64_t(off_) : 0; }
  __host__ __device__ T* data() const { return data_ + off_; }
  __host__ __device__ uint32_t alloc_id() const { return alloc_; }
  __host__ __device__ int64_t offset() const { return off_; }
  __host__ __device__ T* allocation_data() const { return data_; }
  __host__ __device__ uint64_t allocation_size() const { return extent_; }
  template <class U>
  __host__ __device__ global_array<U> reinterpret() const {
    return global_array<U>(reinterpret_cast<U*>(data_), extent_ * sizeof(T) / sizeof(U), alloc_) +
           off_ * int64_t(sizeof(T)) / int64_t(sizeof(U));
  }

 private:
  T* data_ = nullptr;
  uint64_t extent_ = 0;
  uint32_t alloc_ = 0xffffffffu;
  int64_t off_ = 0;  // `a + k`: elements past the allocation's start
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
  // The array as a plain CUDA pointer (`int* p = sdata;`, `sdata + k`, a helper's parameter).
  __device__ ptr<T> pointer(int64_t k = 0) {
    return ptr<T>(data_, k, detail::desc(std::source_location(), kTraceShared, sizeof(T), 0, 0, base(), sizeof(T), uint32_t(N), Name.c_str()));
  }
  template <class U>
    requires std::is_convertible_v<T*, U*>
  __device__ operator ptr<U>() { return pointer(); }
  __device__ ptr<T> operator+(int64_t k) { return pointer(k); }

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
  __device__ ptr<T> pointer(int64_t k = 0) {
    return ptr<T>(data(), k, detail::desc(std::source_location(), kTraceShared, sizeof(T), 0, 0, base(), sizeof(T), extent(), Name.c_str()));
  }
  template <class U>
    requires std::is_convertible_v<T*, U*>
  __device__ operator ptr<U>() { return pointer(); }
  __device__ ptr<T> operator+(int64_t k) { return pointer(k); }

 private:
  __device__ T* data() const { return reinterpret_cast<T*>(detail::dynamic_smem()); }
  __device__ uint32_t base() const { return uint32_t(__cvta_generic_to_shared(detail::dynamic_smem())); }
  __device__ uint32_t extent() const {
    unsigned bytes;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return bytes / sizeof(T);
  }
};

// A two-dimensional shared array (`__shared__ float tile[32][33];` in a plain CUDA file): `tile[r]`
// is the row, `tile[r][c]` the recorded element r*C + c.
template <class T, std::size_t R, std::size_t C, fixed_string Name>
class shared_matrix {
 public:
  using element_type = T;
  __device__ ptr<T> operator[](int64_t row) { return flat_.pointer(row * int64_t(C)); }
  template <class U>
    requires std::is_convertible_v<T*, U*>
  __device__ operator ptr<U>() { return flat_.pointer(); }

 private:
  shared_array<T, R * C, Name> flat_;
};

// A plain CUDA file's `__device__` variable (as on the emulator: ws/emu/kernel_api.h). An
// aggregate, so it stays constant-initialised as CUDA requires of `__device__` variables; the
// host writes `alloc_` before the first launch (GpuBackend::adopt).
template <class T, std::size_t N, fixed_string Name>
struct device_variable {
  using element_type = T;
  static constexpr const char* name() { return Name.c_str(); }
  static constexpr std::size_t size() { return N; }
  __device__ ref<T> operator[](idx i) {
    return ref<T>(value_, i.value, detail::desc(i.loc, kTraceGlobal, sizeof(T), 0, alloc_, 0, sizeof(T), uint32_t(N), nullptr));
  }
  __device__ ptr<T> pointer(int64_t k = 0) {
    return ptr<T>(value_, k, detail::desc(std::source_location(), kTraceGlobal, sizeof(T), 0, alloc_, 0, sizeof(T), uint32_t(N), nullptr));
  }
  template <class U>
    requires std::is_convertible_v<T*, U*>
  __device__ operator ptr<U>() { return pointer(); }
  __device__ ptr<T> operator+(int64_t k) { return pointer(k); }

  alignas(16) T value_[N];
  uint32_t alloc_ = 0xffffffffu;
};

// `auto v = a[i];` in a plain CUDA file: a copy of the element (one load).
template <class T>
__device__ std::remove_cv_t<T> value(const ref<T>& r) {
  return r.load();
}
template <class T>
inline constexpr bool is_element_ref_v = false;
template <class T>
inline constexpr bool is_element_ref_v<ref<T>> = true;
template <class T>
  requires(!is_element_ref_v<std::remove_cvref_t<T>>)
__host__ __device__ T&& value(T&& v) {
  return static_cast<T&&>(v);
}

namespace trace_rt {
__device__ __forceinline__ void barrier(std::source_location loc) {
  record_barrier(loc.file_name(), loc.line(), loc.column());
  __syncthreads();
}
// __syncthreads_count / _and / _or are barriers too (bar.red): recorded as one, then executed.
__device__ __forceinline__ int barrier_count(int predicate, std::source_location loc) {
  record_barrier(loc.file_name(), loc.line(), loc.column());
  return __syncthreads_count(predicate);
}
__device__ __forceinline__ int barrier_and(int predicate, std::source_location loc) {
  record_barrier(loc.file_name(), loc.line(), loc.column());
  return __syncthreads_and(predicate);
}
__device__ __forceinline__ int barrier_or(int predicate, std::source_location loc) {
  record_barrier(loc.file_name(), loc.line(), loc.column());
  return __syncthreads_or(predicate);
}

// Warp-synchronous calls: recorded (ws::WarpOp's numbers), then made. Named by the macros below.
enum : uint8_t {
  kOpSyncWarp = 0, kOpShfl, kOpShflUp, kOpShflDown, kOpShflXor, kOpBallot, kOpAny, kOpAll, kOpActiveMask,
  kOpMatchAny, kOpMatchAll, kOpReduceAdd, kOpReduceMin, kOpReduceMax, kOpReduceAnd, kOpReduceOr, kOpReduceXor, kOpClock,
};
template <class T>
__device__ __forceinline__ T shfl(std::source_location loc, unsigned mask, T v, int src, int width = 32) {
  record_warp_op(loc, kOpShfl, mask);
  return __shfl_sync(mask, v, src, width);
}
template <class T>
__device__ __forceinline__ T shfl_up(std::source_location loc, unsigned mask, T v, unsigned delta, int width = 32) {
  record_warp_op(loc, kOpShflUp, mask);
  return __shfl_up_sync(mask, v, delta, width);
}
template <class T>
__device__ __forceinline__ T shfl_down(std::source_location loc, unsigned mask, T v, unsigned delta, int width = 32) {
  record_warp_op(loc, kOpShflDown, mask);
  return __shfl_down_sync(mask, v, delta, width);
}
template <class T>
__device__ __forceinline__ T shfl_xor(std::source_location loc, unsigned mask, T v, int lane_mask, int width = 32) {
  record_warp_op(loc, kOpShflXor, mask);
  return __shfl_xor_sync(mask, v, lane_mask, width);
}
__device__ __forceinline__ unsigned ballot(std::source_location loc, unsigned mask, int p) {
  record_warp_op(loc, kOpBallot, mask);
  return __ballot_sync(mask, p);
}
__device__ __forceinline__ int any(std::source_location loc, unsigned mask, int p) {
  record_warp_op(loc, kOpAny, mask);
  return __any_sync(mask, p);
}
__device__ __forceinline__ int all(std::source_location loc, unsigned mask, int p) {
  record_warp_op(loc, kOpAll, mask);
  return __all_sync(mask, p);
}
// __syncwarp() or __syncwarp(mask): syncwarp_at(loc)(mask).
struct syncwarp_at {
  std::source_location loc;
  __device__ __forceinline__ void operator()(unsigned mask = 0xffffffffu) const {
    record_warp_op(loc, kOpSyncWarp, mask);
    __syncwarp(mask);
  }
};
__device__ __forceinline__ unsigned activemask(std::source_location loc) {
  const unsigned m = __activemask();
  record_warp_op(loc, kOpActiveMask, m);
  return m;
}
__device__ __forceinline__ long long clock64_at(std::source_location loc) {
  const long long t = ::clock64();
  record_warp_op(loc, kOpClock, __activemask());
  return t;
}
template <class T>
__device__ __forceinline__ unsigned match_any(std::source_location loc, unsigned mask, T v) {
  record_warp_op(loc, kOpMatchAny, mask);
  return __match_any_sync(mask, v);
}
template <class T>
__device__ __forceinline__ unsigned match_all(std::source_location loc, unsigned mask, T v, int* pred) {
  record_warp_op(loc, kOpMatchAll, mask);
  return __match_all_sync(mask, v, pred);
}
// (sm_80 and later: CUDA declares __reduce_*_sync there only, and a template's call is looked up
// where it is used.)
#define WS_TRACE_REDUCE(NAME, OP, FN)                                              \
  template <class T>                                                               \
  __device__ __forceinline__ T NAME(std::source_location loc, unsigned mask, T v) { \
    record_warp_op(loc, OP, mask);                                                 \
    return FN(mask, v);                                                            \
  }
WS_TRACE_REDUCE(reduce_add, kOpReduceAdd, __reduce_add_sync)
WS_TRACE_REDUCE(reduce_min, kOpReduceMin, __reduce_min_sync)
WS_TRACE_REDUCE(reduce_max, kOpReduceMax, __reduce_max_sync)
WS_TRACE_REDUCE(reduce_and, kOpReduceAnd, __reduce_and_sync)
WS_TRACE_REDUCE(reduce_or, kOpReduceOr, __reduce_or_sync)
WS_TRACE_REDUCE(reduce_xor, kOpReduceXor, __reduce_xor_sync)
#undef WS_TRACE_REDUCE
}  // namespace trace_rt

}  // namespace trace_api
}  // namespace ws

//-----------------------------------------------------------------------------
// [SECTION] Barriers and atomics
//-----------------------------------------------------------------------------
// The one macro of the API: __syncthreads() is a compiler builtin that cannot be overloaded, so in
// recording mode its name expands to a call that records the barrier and then executes it.
#define __syncthreads() ::ws::trace_rt::barrier(std::source_location::current())
#define __syncthreads_count(p) ::ws::trace_rt::barrier_count((p), std::source_location::current())
#define __syncthreads_and(p) ::ws::trace_rt::barrier_and((p), std::source_location::current())
#define __syncthreads_or(p) ::ws::trace_rt::barrier_or((p), std::source_location::current())

// Warp-synchronous calls: recorded as the emulator records them (their lanes and the member mask
// they named), then made. (Macros for the same reason as __syncthreads: the CUDA functions are
// already declared, with the same arguments.)
#define __shfl_sync(...) ::ws::trace_rt::shfl(std::source_location::current(), __VA_ARGS__)
#define __shfl_up_sync(...) ::ws::trace_rt::shfl_up(std::source_location::current(), __VA_ARGS__)
#define __shfl_down_sync(...) ::ws::trace_rt::shfl_down(std::source_location::current(), __VA_ARGS__)
#define __shfl_xor_sync(...) ::ws::trace_rt::shfl_xor(std::source_location::current(), __VA_ARGS__)
#define __ballot_sync(...) ::ws::trace_rt::ballot(std::source_location::current(), __VA_ARGS__)
#define __any_sync(...) ::ws::trace_rt::any(std::source_location::current(), __VA_ARGS__)
#define __all_sync(...) ::ws::trace_rt::all(std::source_location::current(), __VA_ARGS__)
#define __syncwarp(...) ::ws::trace_rt::syncwarp_at{std::source_location::current()}(__VA_ARGS__)
#define __activemask() ::ws::trace_rt::activemask(std::source_location::current())
#define __match_any_sync(...) ::ws::trace_rt::match_any(std::source_location::current(), __VA_ARGS__)
#define __match_all_sync(...) ::ws::trace_rt::match_all(std::source_location::current(), __VA_ARGS__)
#define __reduce_add_sync(...) ::ws::trace_rt::reduce_add(std::source_location::current(), __VA_ARGS__)
#define __reduce_min_sync(...) ::ws::trace_rt::reduce_min(std::source_location::current(), __VA_ARGS__)
#define __reduce_max_sync(...) ::ws::trace_rt::reduce_max(std::source_location::current(), __VA_ARGS__)
#define __reduce_and_sync(...) ::ws::trace_rt::reduce_and(std::source_location::current(), __VA_ARGS__)
#define __reduce_or_sync(...) ::ws::trace_rt::reduce_or(std::source_location::current(), __VA_ARGS__)
#define __reduce_xor_sync(...) ::ws::trace_rt::reduce_xor(std::source_location::current(), __VA_ARGS__)

// A plain CUDA file's clock() and clock64() (renamed by its rewrite: the names are libc's and a
// builtin's): recorded as the emulator records them, then the SM's cycle counter.
__device__ __forceinline__ long long ws_clock64(std::source_location loc = std::source_location::current()) {
  return ::ws::trace_rt::clock64_at(loc);
}
__device__ __forceinline__ long ws_clock(std::source_location loc = std::source_location::current()) {
  return long(::ws::trace_rt::clock64_at(loc));
}
// A plain CUDA file's printf (renamed by its rewrite, for the emulator's ordered output): the GPU's own.
// (__host__ too: a __host__ __device__ function's printf is renamed as well.)
template <class... A>
__host__ __device__ __forceinline__ int ws_printf(const char* format, A... args) {
  return printf(format, args...);
}

// __ldg(&a[i]): recorded as the load it is, then read through the read-only path.
template <class T>
__device__ std::remove_cv_t<T> __ldg(ws::ptr<T> p, std::source_location loc = std::source_location::current()) {
  p.record_load(loc);
  return __ldg(p.raw());
}

// The cache-hinted loads and stores: recorded as the loads and stores they are.
#define WS_TRACE_LOAD_HINT(NAME)                                                                   \
  template <class T>                                                                              \
  __device__ std::remove_cv_t<T> NAME(ws::ptr<T> p, std::source_location loc = std::source_location::current()) { \
    p.record_load(loc);                                                                           \
    return NAME(p.raw());                                                                         \
  }
WS_TRACE_LOAD_HINT(__ldcg)
WS_TRACE_LOAD_HINT(__ldca)
WS_TRACE_LOAD_HINT(__ldcs)
WS_TRACE_LOAD_HINT(__ldlu)
WS_TRACE_LOAD_HINT(__ldcv)
#undef WS_TRACE_LOAD_HINT
#define WS_TRACE_STORE_HINT(NAME)                                                                  \
  template <class T, class U>                                                                     \
  __device__ void NAME(ws::ptr<T> p, const U& v, std::source_location loc = std::source_location::current()) { \
    p.record_store(loc);                                                                          \
    NAME(p.raw(), static_cast<std::remove_cv_t<T>>(v));                                           \
  }
WS_TRACE_STORE_HINT(__stcg)
WS_TRACE_STORE_HINT(__stcs)
WS_TRACE_STORE_HINT(__stwb)
WS_TRACE_STORE_HINT(__stwt)
#undef WS_TRACE_STORE_HINT

#define WS_TRACE_ATOMIC(NAME, OP)                                                                             \
  template <class T, class U>                                                                                \
  __device__ std::remove_cv_t<T> NAME(ws::ptr<T> p, U v, std::source_location loc = std::source_location::current()) { \
    p.record_atomic(OP, loc);                                                                                \
    return NAME(p.raw(), static_cast<std::remove_cv_t<T>>(v));                                               \
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
__device__ std::remove_cv_t<T> atomicCAS(ws::ptr<T> p, U compare, V v,
                                         std::source_location loc = std::source_location::current()) {
  p.record_atomic(8, loc);
  using R = std::remove_cv_t<T>;
  return atomicCAS(p.raw(), static_cast<R>(compare), static_cast<R>(v));
}
