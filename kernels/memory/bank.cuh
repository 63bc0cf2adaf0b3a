// Shared-memory bank demos (seed 001, "Bank addressing examples" to "Common array bank conflict
// patterns"). Shared memory has 32 banks of 4 bytes: bank = (byte address / 4) % 32. Lanes of a
// warp that touch different words of one bank are served one after another (a bank conflict:
// "cost = max # of simultaneous accesses to a single bank"); lanes touching the same word are
// served together (multicast). 8-byte accesses are served per half-warp, 16-byte per
// quarter-warp.
//
// Every kernel first fills its shared array from global memory (a conflict-free loop of stores),
// waits at __syncthreads(), then does THE access the slide shows -- a load (stride, permutation,
// broadcast, types, structs) or a store (the "each thread loads 2 elements" patterns) -- and writes
// what it read to out[] so the CPU reference can check it. In the analysis, look at the site of
// that one access (the loads for the read demos, the stores for the pair demos).
//
// n = the number of threads that take part (default one warp); the element type is the dtype.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "common/checks.h"
#include "common/variant_table.h"
#include "memory/bank_reference.h"
#include "ws/kernel.cuh"

// The two structs of the "Structs and bank conflicts" slides.
struct vector {
  float x, y, z;  // 12 bytes: 3 words
};
struct myType {
  float f;  // byte 0
  char c;   // byte 4, then 3 bytes of padding: sizeof(myType) == 8 (the float's 4-byte alignment)
};
static_assert(sizeof(vector) == 12 && sizeof(myType) == 8 && offsetof(myType, c) == 4, "struct layout of the slides");

// Conflict-free fill of the first `len` elements of a shared array: consecutive threads store
// consecutive elements (stride 1).
template <class T, class Shared>
__device__ void fill_shared(Shared& shared, ws::global_array<const T> in, unsigned len) {
  for (unsigned k = threadIdx.x; k < len; k += blockDim.x) shared[k] = in[k];
  __syncthreads();
}

// Linear addressing: `float foo = shared[baseIndex + s * threadIdx.x];` -- "only bank-conflict-free
// if s shares no common factors with the number of banks": stride 1 -> none, 2 -> 2-way,
// 8 -> 8-way, 32 -> 32-way, 33 -> none. With char/short/double/float4 elements the same line shows
// the "data types and bank conflicts" slide.
template <class T>
__global__ void bank_stride(ws::global_array<const T> in, ws::global_array<T> out, unsigned len,
                            unsigned baseIndex, unsigned s, unsigned n) {
  ws::dynamic_shared<T, "shared"> shared;
  fill_shared<T>(shared, in, len);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) {
    T foo = shared[baseIndex + s * threadIdx.x];
    out[gid] = foo;
  }
}

// Random 1:1 permutation inside each warp: "each thread accesses unique bank -> no bank conflicts".
template <class T>
__global__ void bank_permutation(ws::global_array<const T> in, ws::global_array<T> out,
                                 ws::global_array<const unsigned> perm, unsigned len,
                                 unsigned baseIndex, unsigned n) {
  ws::dynamic_shared<T, "shared"> shared;
  fill_shared<T>(shared, in, len);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) {
    unsigned p = perm[threadIdx.x];  // a lane of this thread's warp, in shuffled order
    T foo = shared[baseIndex + p];
    out[gid] = foo;
  }
}

// Broadcast: every lane reads the same word -- one wavefront, whatever the warp size.
template <class T>
__global__ void bank_broadcast(ws::global_array<const T> in, ws::global_array<T> out, unsigned len,
                               unsigned baseIndex, unsigned n) {
  ws::dynamic_shared<T, "shared"> shared;
  fill_shared<T>(shared, in, len);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) {
    T foo = shared[baseIndex];
    out[gid] = foo;
  }
}

// `struct vector v = vectors[bi + threadIdx.x];` -- "struct assignments compile into as many
// memory accesses as there are struct members": three 4-byte loads, each with an implicit stride
// of 3 words ("no common factor with 32"): no bank conflicts. The member loads are written out
// on a float view of the array, as the compiler emits them (one load per member).
__global__ void bank_struct_vector(ws::global_array<const float> in, ws::global_array<float> out,
                                   unsigned len_words, unsigned bi, unsigned n) {
  ws::dynamic_shared<float, "vectors"> vectors;  // __shared__ struct vector vectors[...], as words
  fill_shared<float>(vectors, in, len_words);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) {
    unsigned e = bi + threadIdx.x;  // struct vector v = vectors[e]:
    vector v;
    v.x = vectors[3 * e + 0];  // word 3e
    v.y = vectors[3 * e + 1];  // word 3e + 1
    v.z = vectors[3 * e + 2];  // word 3e + 2
    out[gid] = v.x + v.y + v.z;
  }
}

// `struct myType m = myTypes[bi + threadIdx.x];` -- "this has bank conflicts for myType: 2 accesses
// per thread". The slide's "stride of 5 bytes" holds for a packed struct; a C++ compiler pads
// myType to 8 bytes (the float's alignment), so each member load strides 2 words: 2-way conflicts
// on both the f load and the c load. Two views of the same (extern __shared__) bytes give the
// 4-byte load of f and the 1-byte load of c.
__global__ void bank_struct_mytype(ws::global_array<const float> in, ws::global_array<float> out,
                                   unsigned len_words, unsigned bi, unsigned n) {
  ws::dynamic_shared<float, "myTypes"> myTypes;             // the array, as 4-byte words
  ws::dynamic_shared<char, "myTypes_bytes"> myTypes_bytes;  // the same bytes, one by one
  fill_shared<float>(myTypes, in, len_words);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) {
    unsigned e = bi + threadIdx.x;  // struct myType m = myTypes[e]:
    myType m;
    m.f = myTypes[2 * e];            // bytes 8e .. 8e+3: word 2e
    m.c = myTypes_bytes[8 * e + 4];  // byte 8e+4: word 2e+1
    out[gid] = m.f + float(m.c);
  }
}

// "Each thread loads 2 elements into shared memory", 2-way interleaved: thread tid stores elements
// 2*tid and 2*tid+1 -> each store strides 2 elements: 2-way bank conflicts (for 4-byte elements).
// "This makes sense for traditional CPU threads ... not in shared memory."
template <class T>
__global__ void bank_pair_interleaved(ws::global_array<const T> global, ws::global_array<T> out, unsigned n) {
  ws::dynamic_shared<T, "shared"> shared;
  unsigned tid = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x * 2;
  if (base + 2 * tid < n) shared[2 * tid] = global[base + 2 * tid];
  if (base + 2 * tid + 1 < n) shared[2 * tid + 1] = global[base + 2 * tid + 1];
  __syncthreads();
  // Read back conflict-free (stride 1) and write out: element k of the block's 2*blockDim.
  for (unsigned k = threadIdx.x; k < 2 * blockDim.x; k += blockDim.x)
    if (base + k < n) out[base + k] = shared[k];
}

// "Better array access pattern: each thread loads one element in every consecutive group of
// blockDim elements" -- both stores are stride 1: conflict-free.
template <class T>
__global__ void bank_pair_blocked(ws::global_array<const T> global, ws::global_array<T> out, unsigned n) {
  ws::dynamic_shared<T, "shared"> shared;
  unsigned tid = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x * 2;
  if (base + tid < n) shared[tid] = global[base + tid];
  if (base + tid + blockDim.x < n) shared[tid + blockDim.x] = global[base + tid + blockDim.x];
  __syncthreads();
  for (unsigned k = threadIdx.x; k < 2 * blockDim.x; k += blockDim.x)
    if (base + k < n) out[base + k] = shared[k];
}

// ---------------------------------------------------------------------------------------------
// The entry. Three groups of demos with their own inputs (one table each, joined in the spec's
// order by rows()): the loads of an element type, the slides' structs (float words) and the
// "each thread loads 2 elements" stores.
struct BankEntry {
  static uint64_t base(const ws::RunConfig& c) { return uint64_t(c.param("base", 0)); }
  static uint64_t stride(const ws::RunConfig& c) { return uint64_t(c.param("stride", 1)); }

  // Each row's shared array: how many elements the demo fills (and reads) for a launch.
  struct Shared {
    uint64_t (*elems)(const ws::RunConfig& c);
  };

  // The struct demos' element type is the slide's struct: its words are floats.
  static std::string slide_struct(const ws::RunConfig& c) {
    if (c.dtype == "float") return {};
    return "variant " + c.variant + " reads the slide's struct " + c.variant + ": its element type is fixed (use dtype float)";
  }

  // ---- loads of one element type: stride, permutation, broadcast ----
  template <class T>
  struct LoadPass {
    ws::Dim3 grid, block;
    uint32_t smem;
    ws::global_array<const T> in;  // the shared array's contents, `len` elements
    ws::global_array<T> out;
    unsigned len, base, s, n;
    const std::vector<T>& host;  // what `in` holds
    uint64_t seed;
    std::vector<T> want = {};  // what out[] must hold (bank_reference.h)
  };

  template <class T>
  static auto load_rows() {
    using P = LoadPass<T>;
    return std::make_tuple(
        ws::row({.id = "stride", .name = "linear addressing shared[base + s*threadIdx.x]",
                 .summary = "stride s (param): conflict-free only if s is odd (no common factor with 32 banks)",
                 .focus = "T foo = shared[baseIndex + s * threadIdx.x]"},
                Shared{[](const ws::RunConfig& c) { return base(c) + stride(c) * (c.block.x - 1) + 1; }},
                [](auto& be, P& p) {
                  p.want = ws::reference::bank::strided(p.host, p.n, p.block.x, p.base, p.s);
                  return be.launch("bank_stride", p.grid, p.block, p.smem, bank_stride<T>, p.in, p.out, p.len, p.base, p.s, p.n);
                }),
        ws::row({.id = "permutation", .name = "random 1:1 permutation",
                 .summary = "each lane reads a different word of its warp's 32: one bank each",
                 .focus = "T foo = shared[baseIndex + p]"},
                Shared{[](const ws::RunConfig& c) { return base(c) + c.block.x; }},
                [](auto& be, P& p) {
                  const std::vector<unsigned> hp = ws::reference::bank::lane_permutation(p.block.x, p.seed);
                  ws::global_array<unsigned> perm = be.upload("perm", hp);
                  p.want = ws::reference::bank::permuted(p.host, p.n, p.block.x, p.base, hp);
                  return be.launch("bank_permutation", p.grid, p.block, p.smem, bank_permutation<T>, p.in, p.out, perm, p.len,
                                   p.base, p.n);
                }),
        ws::row({.id = "broadcast", .name = "all lanes read one word", .summary = "same bank AND same address: multicast, no conflict",
                 .focus = "T foo = shared[baseIndex]"},
                Shared{[](const ws::RunConfig& c) { return base(c) + 1; }},
                [](auto& be, P& p) {
                  p.want = ws::reference::bank::broadcast(p.host, p.n, p.base);
                  return be.launch("bank_broadcast", p.grid, p.block, p.smem, bank_broadcast<T>, p.in, p.out, p.len, p.base, p.n);
                }));
  }

  // ---- the slides' structs, as float words ----
  struct StructPass {
    ws::Dim3 grid, block;
    unsigned base, n;
    uint64_t elems, seed;  // structs in the array (base + blockDim.x)
    std::vector<float> got = {}, want = {};
  };

  static auto struct_rows() {
    return std::make_tuple(
        ws::row({.id = "vector", .name = "struct vector {float x, y, z;}",
                 .summary = "3 member loads, implicit stride 3 words: no conflict", .accepts = slide_struct},
                Shared{[](const ws::RunConfig& c) { return 3 * (base(c) + c.block.x); }},  // words
                [](auto& be, StructPass& p) {
                  const std::vector<float> words = ws::reference::bank::vector_words(p.elems, p.seed);
                  ws::global_array<float> in = be.upload("vectors_in", words);
                  ws::global_array<float> o = be.template alloc<float>("out", p.n);
                  if (!be.launch("bank_struct_vector", p.grid, p.block, uint32_t(words.size() * 4), bank_struct_vector, in, o,
                                 unsigned(words.size()), p.base, p.n))
                    return false;
                  p.got = be.download(o);
                  p.want = ws::reference::bank::vector_sums(words, p.n, p.block.x, p.base);
                  return true;
                }),
        ws::row({.id = "myType", .name = "struct myType {float f; char c;}",
                 .summary = "2 member loads, stride 8 bytes (2 words): 2-way conflicts", .accepts = slide_struct},
                Shared{[](const ws::RunConfig& c) { return 2 * (base(c) + c.block.x); }},  // words
                [](auto& be, StructPass& p) {
                  const std::vector<float> words = ws::reference::bank::mytype_words(p.elems, p.seed);
                  ws::global_array<float> in = be.upload("myTypes_in", words);
                  ws::global_array<float> o = be.template alloc<float>("out", p.n);
                  if (!be.launch("bank_struct_mytype", p.grid, p.block, uint32_t(words.size() * 4), bank_struct_mytype, in, o,
                                 unsigned(words.size()), p.base, p.n))
                    return false;
                  p.got = be.download(o);
                  p.want = ws::reference::bank::mytype_values(words, p.n, p.block.x, p.base);
                  return true;
                }));
  }

  // ---- each thread stores 2 elements (the block stages 2 * blockDim.x; out[] = the input) ----
  template <class T>
  struct PairPass {
    ws::Dim3 grid, block;
    uint32_t smem;
    ws::global_array<const T> global;
    ws::global_array<T> out;
    unsigned n;
  };

  template <class T>
  static auto pair_rows() {
    using P = PairPass<T>;
    return std::make_tuple(
        ws::row({.id = "pair-interleaved", .name = "each thread stores elements 2*tid and 2*tid+1",
                 .summary = "stride-2 stores: 2-way conflicts", .grid = {.per_thread = 2}},
                Shared{[](const ws::RunConfig& c) { return 2 * uint64_t(c.block.x); }},
                [](auto& be, const P& p) {
                  return be.launch("bank_pair_interleaved", p.grid, p.block, p.smem, bank_pair_interleaved<T>, p.global, p.out, p.n);
                }),
        ws::row({.id = "pair-blocked", .name = "each thread stores tid and tid + blockDim.x",
                 .summary = "stride-1 stores: conflict-free", .grid = {.per_thread = 2}},
                Shared{[](const ws::RunConfig& c) { return 2 * uint64_t(c.block.x); }},
                [](auto& be, const P& p) {
                  return be.launch("bank_pair_blocked", p.grid, p.block, p.smem, bank_pair_blocked<T>, p.global, p.out, p.n);
                }));
  }

  // Every demo, in the spec's order.
  template <class T>
  static auto rows() {
    return std::tuple_cat(load_rows<T>(), struct_rows(), pair_rows<T>());
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "bank";
    s.title = "Shared-memory bank conflicts";
    s.description =
        "One warp-wide shared-memory access per demo: shared[base + s*threadIdx.x] for any stride, a "
        "random permutation, a broadcast, char/short/float/double/float4 elements, the slides' struct "
        "vector and struct myType, and the 'each thread loads 2 elements' interleaved vs blocked stores. "
        "Wavefronts and conflicts are in the analysis (32 banks of 4 bytes).";
    s.source = "memory/bank.cuh";
    s.lecture = "seed 001 (bank addressing examples, data types, structs, array patterns)";
    s.variants = ws::variant_specs(rows<float>());
    s.params = {
        {"stride", "s in shared[base + s*threadIdx.x] (variant stride)", 0, 4096, 1, {}},
        {"base", "baseIndex: first element read (stride, permutation, broadcast, structs)", 0, 4096, 0, {}},
    };
    s.default_n = 32;
    s.default_block = 32;
    s.dtypes = {"float", "char", "short", "double", "float4"};
    s.timing.scales = false;  // one warp's access: the picture is the lesson, the time is the launch
    return s;
  }

  static size_t dtype_size(const std::string& t) {
    return t == "char" ? 1 : t == "short" ? 2 : t == "double" ? 8 : t == "float4" ? 16 : 4;
  }

  // Elements of the shared array the variant needs (words for the struct demos).
  static uint64_t shared_elems(const ws::RunConfig& c) { return ws::variant_extra(rows<float>(), c.variant)->elems(c); }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the bank demos use 1D blocks: block must be (x, 1, 1)";
    if (std::string why = ws::check_variant(rows<float>(), c); !why.empty()) return why;
    if (c.n > (1u << 20)) return "the bank demos show one access per thread: n <= 1048576 threads";
    const size_t elem = dtype_size(c.dtype);  // (the struct demos' words: dtype float)
    const uint64_t bytes = shared_elems(c) * elem;
    if (bytes > 48 * 1024)
      return "variant " + c.variant + " needs " + std::to_string(bytes) + " bytes of shared memory (" +
             std::to_string(shared_elems(c)) + " elements of " + std::to_string(elem) +
             " bytes for this stride/base/block), over the 48 KB per block: use a smaller stride, base or block";
    return {};
  }

  template <class T>
  static bool same(const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

  template <class T>
  static std::string text(const T& v) {
    if constexpr (std::is_same_v<T, float4>)
      return "(" + ws::value_text(v.x) + ", " + ws::value_text(v.y) + ", " + ws::value_text(v.z) + ", " + ws::value_text(v.w) + ")";
    else if constexpr (sizeof(T) < 4 && std::is_integral_v<T>)
      return std::to_string(int(v));
    else
      return ws::value_text(v);
  }

  // Compares out[] with want[] element by element (exact: the kernels only move values, or add
  // the same floats in the same order).
  template <class T>
  static void check(ws::RunResult& out, const std::vector<T>& got, const std::vector<T>& want) {
    ws::keep_checked(out, "out", got.data(), got.size());
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < want.size(); ++i)
      if (!same(got[i], want[i]) && bad++ == 0) first = i;
    out.passed = bad == 0;
    out.check = "exact, element by element";
    out.result = bad ? std::to_string(bad) + " of " + std::to_string(want.size()) + " wrong, first out[" +
                           std::to_string(first) + "] = " + text(got[first])
                     : "out[] correct (" + std::to_string(want.size()) + " elements)";
    out.expected = want.empty() ? "" : "out[" + std::to_string(first) + "] = " + text(want[first]);
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint32_t block = c.block.x;
    const unsigned n = unsigned(c.n);
    const ws::Dim3 blk{block, 1, 1};
    const ws::Variant v = *ws::find_variant(rows<T>(), c.variant);
    const ws::Dim3 grid{v.grid.blocks(c.n, block, c), 1, 1};
    const uint64_t len = shared_elems(c);
    const uint32_t smem = uint32_t(len * sizeof(T));

    if (ws::find_variant(pair_rows<T>(), c.variant)) {
      const std::vector<T> host = ws::reference::bank::elements<T>(c.n, c.seed);
      ws::global_array<T> g = be.upload("global", host);
      ws::global_array<T> o = be.template alloc<T>("out", c.n);
      if (ws::launch_variant(pair_rows<T>(), c.variant, be, PairPass<T>{grid, blk, smem, g, o, n}))
        check(out, be.download(o), host);
      return;
    }

    const std::vector<T> host = ws::reference::bank::elements<T>(len, c.seed);
    ws::global_array<T> in = be.upload("in", host);
    ws::global_array<T> o = be.template alloc<T>("out", c.n);
    LoadPass<T> p{grid, blk, smem, in, o, unsigned(len), unsigned(base(c)), unsigned(stride(c)), n, host, c.seed};
    if (ws::launch_variant(load_rows<T>(), c.variant, be, p)) check(out, be.download(o), p.want);
  }

  // The struct demos: the arrays are uploaded as their bytes (float words), read member by member.
  template <class B>
  static void run_struct(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint32_t block = c.block.x;
    StructPass p{{ws::find_variant(struct_rows(), c.variant)->grid.blocks(c.n, block, c), 1, 1}, {block, 1, 1},
                 unsigned(base(c)), unsigned(c.n), base(c) + block, c.seed};
    if (ws::launch_variant(struct_rows(), c.variant, be, p)) check(out, p.got, p.want);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (ws::find_variant(struct_rows(), c.variant)) return run_struct(be, c, out);
    if (c.dtype == "char") run_typed<char>(be, c, out);
    else if (c.dtype == "short") run_typed<short>(be, c, out);
    else if (c.dtype == "double") run_typed<double>(be, c, out);
    else if (c.dtype == "float4") run_typed<float4>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
