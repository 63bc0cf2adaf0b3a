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
#include <random>
#include <string>
#include <vector>

#include "common/checks.h"
#include "ws/run/entry.h"
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
struct BankEntry {
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
    s.variants = {
        {"stride", "linear addressing shared[base + s*threadIdx.x]",
         "stride s (param): conflict-free only if s is odd (no common factor with 32 banks)"},
        {"permutation", "random 1:1 permutation", "each lane reads a different word of its warp's 32: one bank each"},
        {"broadcast", "all lanes read one word", "same bank AND same address: multicast, no conflict"},
        {"vector", "struct vector {float x, y, z;}", "3 member loads, implicit stride 3 words: no conflict"},
        {"myType", "struct myType {float f; char c;}", "2 member loads, stride 8 bytes (2 words): 2-way conflicts"},
        {"pair-interleaved", "each thread stores elements 2*tid and 2*tid+1", "stride-2 stores: 2-way conflicts"},
        {"pair-blocked", "each thread stores tid and tid + blockDim.x", "stride-1 stores: conflict-free"},
    };
    s.params = {
        {"stride", "s in shared[base + s*threadIdx.x] (variant stride)", 0, 4096, 1, {}},
        {"base", "baseIndex: first element read (stride, permutation, broadcast, structs)", 0, 4096, 0, {}},
    };
    s.default_n = 32;
    s.default_block = 32;
    s.dtypes = {"float", "char", "short", "double", "float4"};
    return s;
  }

  static size_t dtype_size(const std::string& t) {
    return t == "char" ? 1 : t == "short" ? 2 : t == "double" ? 8 : t == "float4" ? 16 : 4;
  }

  // Elements of the shared array each variant needs.
  static uint64_t shared_elems(const ws::RunConfig& c) {
    const uint64_t b = c.block.x, base = uint64_t(c.param("base", 0)), s = uint64_t(c.param("stride", 1));
    const std::string& v = c.variant;
    if (v == "stride") return base + s * (b - 1) + 1;
    if (v == "permutation") return base + b;
    if (v == "broadcast") return base + 1;
    if (v == "vector") return 3 * (base + b);  // words
    if (v == "myType") return 2 * (base + b);  // words
    return 2 * b;                              // pair patterns
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the bank demos use 1D blocks: block must be (x, 1, 1)";
    const std::string& v = c.variant;
    if ((v == "vector" || v == "myType") && c.dtype != "float")
      return "variant " + v + " reads the slide's struct " + v + ": its element type is fixed (use dtype float)";
    if (c.n > (1u << 20)) return "the bank demos show one access per thread: n <= 1048576 threads";
    const size_t elem = (v == "vector" || v == "myType") ? 4 : dtype_size(c.dtype);
    const uint64_t bytes = shared_elems(c) * elem;
    if (bytes > 48 * 1024)
      return "variant " + v + " needs " + std::to_string(bytes) + " bytes of shared memory (" +
             std::to_string(shared_elems(c)) + " elements of " + std::to_string(elem) +
             " bytes for this stride/base/block), over the 48 KB per block: use a smaller stride, base or block";
    return {};
  }

  // A random permutation of the lanes of each warp (of the block's size).
  static std::vector<unsigned> lane_permutation(uint32_t block, uint64_t seed) {
    std::vector<unsigned> p(block);
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 99);
    for (uint32_t w = 0; w < block; w += 32) {
      const uint32_t end = std::min<uint32_t>(block, w + 32);
      for (uint32_t t = w; t < end; ++t) p[t] = t;
      std::shuffle(p.begin() + w, p.begin() + end, rng);
    }
    return p;
  }

  // Random values of any element type: bytes 0..9 in every byte of a char/short/float4 is not a
  // useful float, so build them member by member.
  template <class T>
  static std::vector<T> random_elems(uint64_t n, uint64_t seed) {
    if constexpr (std::is_same_v<T, float4>) {
      const std::vector<float> f = ws::random_input<float>(4 * n, seed, -9, 9);
      std::vector<float4> v(n);
      for (uint64_t i = 0; i < n; ++i) v[i] = make_float4(f[4 * i], f[4 * i + 1], f[4 * i + 2], f[4 * i + 3]);
      return v;
    } else if constexpr (std::is_integral_v<T>) {
      return ws::random_input<T>(n, seed, 0, 99);
    } else {
      return ws::random_input<T>(n, seed, -9, 9);
    }
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
    const std::string& v = c.variant;
    const uint32_t block = c.block.x;
    const unsigned n = unsigned(c.n);
    const unsigned base = unsigned(c.param("base", 0)), s = unsigned(c.param("stride", 1));
    const ws::Dim3 blk{block, 1, 1};

    if (v == "pair-interleaved" || v == "pair-blocked") {
      const std::vector<T> host = random_elems<T>(c.n, c.seed);
      ws::global_array<T> g = be.upload("global", host);
      ws::global_array<T> o = be.template alloc<T>("out", c.n);
      const ws::Dim3 grid{uint32_t((c.n + 2ull * block - 1) / (2ull * block)), 1, 1};
      const uint32_t smem = uint32_t(2 * block * sizeof(T));
      const bool ok = v == "pair-interleaved"
                          ? be.launch("bank_pair_interleaved", grid, blk, smem, bank_pair_interleaved<T>, g, o, n)
                          : be.launch("bank_pair_blocked", grid, blk, smem, bank_pair_blocked<T>, g, o, n);
      if (ok) check(out, be.download(o), host);
      return;
    }

    const uint64_t len = shared_elems(c);
    const std::vector<T> host = random_elems<T>(len, c.seed);
    ws::global_array<T> in = be.upload("in", host);
    ws::global_array<T> o = be.template alloc<T>("out", c.n);
    const ws::Dim3 grid{uint32_t((c.n + block - 1) / block), 1, 1};
    const uint32_t smem = uint32_t(len * sizeof(T));
    std::vector<T> want(c.n);
    bool ok = false;
    if (v == "stride") {
      ok = be.launch("bank_stride", grid, blk, smem, bank_stride<T>, in, o, unsigned(len), base, s, n);
      for (uint64_t g = 0; g < c.n; ++g) want[g] = host[base + s * (g % block)];
    } else if (v == "permutation") {
      const std::vector<unsigned> hp = lane_permutation(block, c.seed);
      ws::global_array<unsigned> perm = be.upload("perm", hp);
      ok = be.launch("bank_permutation", grid, blk, smem, bank_permutation<T>, in, o, perm, unsigned(len), base, n);
      for (uint64_t g = 0; g < c.n; ++g) want[g] = host[base + hp[g % block]];
    } else {
      ok = be.launch("bank_broadcast", grid, blk, smem, bank_broadcast<T>, in, o, unsigned(len), base, n);
      for (uint64_t g = 0; g < c.n; ++g) want[g] = host[base];
    }
    if (ok) check(out, be.download(o), want);
  }

  // The struct demos: the arrays are uploaded as their bytes (float words), read member by member.
  template <class S, class B>
  static void run_struct(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint32_t block = c.block.x;
    const unsigned n = unsigned(c.n), base = unsigned(c.param("base", 0));
    const uint64_t elems = base + block;
    const std::vector<float> f = ws::random_input<float>(3 * elems, c.seed, -9, 9);
    std::vector<S> structs(elems);
    std::vector<float> words(elems * sizeof(S) / 4);
    for (uint64_t e = 0; e < elems; ++e) {
      if constexpr (std::is_same_v<S, vector>) structs[e] = {f[3 * e], f[3 * e + 1], f[3 * e + 2]};
      else {
        std::memset(&structs[e], 0, sizeof(S));
        structs[e].f = f[3 * e];
        structs[e].c = char(int(f[3 * e + 1] + 9) * 5);  // 0..90
      }
    }
    std::memcpy(words.data(), structs.data(), words.size() * 4);
    ws::global_array<float> in = be.upload(std::is_same_v<S, vector> ? "vectors_in" : "myTypes_in", words);
    ws::global_array<float> o = be.template alloc<float>("out", c.n);
    const ws::Dim3 grid{uint32_t((c.n + block - 1) / block), 1, 1}, blk{block, 1, 1};
    const uint32_t smem = uint32_t(words.size() * 4);
    std::vector<float> want(c.n);
    bool ok = false;
    if constexpr (std::is_same_v<S, vector>) {
      ok = be.launch("bank_struct_vector", grid, blk, smem, bank_struct_vector, in, o, unsigned(words.size()), base, n);
      for (uint64_t g = 0; g < c.n; ++g) {
        const vector& x = structs[base + g % block];
        want[g] = x.x + x.y + x.z;
      }
    } else {
      ok = be.launch("bank_struct_mytype", grid, blk, smem, bank_struct_mytype, in, o, unsigned(words.size()), base, n);
      for (uint64_t g = 0; g < c.n; ++g) {
        const myType& m = structs[base + g % block];
        want[g] = m.f + float(m.c);
      }
    }
    if (ok) check(out, be.download(o), want);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.variant == "vector") return run_struct<vector>(be, c, out);
    if (c.variant == "myType") return run_struct<myType>(be, c, out);
    if (c.dtype == "char") run_typed<char>(be, c, out);
    else if (c.dtype == "short") run_typed<short>(be, c, out);
    else if (c.dtype == "double") run_typed<double>(be, c, out);
    else if (c.dtype == "float4") run_typed<float4>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
