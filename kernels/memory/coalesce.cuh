// Global-memory coalescing demos (seed 001, "Global memory access", "Coalesced global memory
// access"). A warp's load is served in 32-byte sectors of 128-byte lines: "# transactions = #
// different cache lines accessed by a warp in a single load instruction". The analysis counts
// sectors and lines per request and the efficiency (bytes requested / bytes moved).
//
//   offset : out[i] = in[i + offset]. offset 0: a warp of floats reads one aligned 128-byte line
//            (4 sectors); offset 1 straddles two lines (5 sectors). The dtype gives 4/8/16-byte
//            elements (float, float2, float4: "device can access 32 bit, 64 bit, or 128 bit at
//            once"): one instruction moves 128, 256 or 512 bytes per warp.
//   stride : out[i] = in[i * stride]: stride 2 uses half of every sector, from stride 8 (floats)
//            every lane needs its own sector.
//   aos    : array of structs, struct Point {float x, y, z;} (12 bytes: no single load
//            instruction, so one 4-byte load per member, 12 bytes apart):
//            out[i] = p[i].x + p[i].y + p[i].z.
//   soa    : struct of arrays, xs[], ys[], zs[]: the same sum with three fully coalesced loads.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/checks.h"
#include "ws/run/entry.h"
#include "ws/kernel.cuh"

template <class T>
__global__ void coalesce_offset(ws::global_array<const T> in, ws::global_array<T> out, unsigned n, unsigned offset) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + offset];
}

template <class T>
__global__ void coalesce_stride(ws::global_array<const T> in, ws::global_array<T> out, unsigned n, unsigned stride) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride];
}

struct Point {
  float x, y, z;
};

// `Point p = points[i];` is three loads, one per member, each 12 bytes apart across the warp. They
// are written out member by member on a float view of the array, as the compiler emits them.
__global__ void coalesce_aos(ws::global_array<const float> points, ws::global_array<float> out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Point p;
    p.x = points[3 * i + 0];
    p.y = points[3 * i + 1];
    p.z = points[3 * i + 2];
    out[i] = p.x + p.y + p.z;
  }
}

__global__ void coalesce_soa(ws::global_array<const float> xs, ws::global_array<const float> ys,
                             ws::global_array<const float> zs, ws::global_array<float> out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = xs[i];
    float y = ys[i];
    float z = zs[i];
    out[i] = x + y + z;
  }
}

// ---------------------------------------------------------------------------------------------
struct CoalesceEntry {
  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "coalesce";
    s.title = "Global-memory coalescing: offset, stride, AoS vs SoA, element width";
    s.description =
        "One load per thread: with a misaligned start (offset), a stride, from an array of structs or "
        "a struct of arrays, with 4/8/16-byte elements (dtype float, float2, float4). The analysis shows "
        "sectors and lines per request and bytes requested over bytes moved.";
    s.source = "memory/coalesce.cuh";
    s.lecture = "seed 001 (global memory access, coalesced global memory access)";
    s.variants = {
        {"offset", "in[i + offset]", "offset 0: aligned, one line per warp of floats; offset 1: one more sector and line"},
        {"stride", "in[i * stride]", "stride 2 wastes half of each sector; stride >= 8 floats: one sector per lane"},
        {"aos", "array of structs {x, y, z}", "three member loads 12 bytes apart: 12 sectors each for 4 useful"},
        {"soa", "struct of arrays xs, ys, zs", "three coalesced loads: 4 sectors each"},
    };
    s.params = {
        {"offset", "elements skipped at the start (variant offset)", 0, 4096, 0, {}},
        {"stride", "elements between neighbouring threads (variant stride)", 1, 4096, 2, {}},
    };
    s.default_n = 1024;
    s.default_block = 256;
    s.dtypes = {"float", "float2", "float4"};
    return s;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the coalescing demos use 1D blocks: block must be (x, 1, 1)";
    if ((c.variant == "aos" || c.variant == "soa") && c.dtype != "float")
      return "variant " + c.variant + " reads struct Point {float x, y, z;}: its element type is fixed (use dtype float)";
    const uint64_t elems = c.variant == "stride" ? (c.n - 1) * uint64_t(c.param("stride", 2)) + 1 : c.n + uint64_t(c.param("offset", 0));
    if (elems > (1u << 26)) return "the input would have " + std::to_string(elems) + " elements: too large for the demo (<= 67108864)";
    return {};
  }

  template <class T>
  static std::vector<T> random_elems(uint64_t n, uint64_t seed) {
    const size_t k = sizeof(T) / sizeof(float);
    const std::vector<float> f = ws::random_input<float>(n * k, seed, -9, 9);
    std::vector<T> v(n);
    if (n) std::memcpy(static_cast<void*>(v.data()), f.data(), n * sizeof(T));
    return v;
  }

  template <class T>
  static void check(ws::RunResult& out, const std::vector<T>& got, const std::vector<T>& want) {
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < want.size(); ++i)
      if (std::memcmp(&got[i], &want[i], sizeof(T)) && bad++ == 0) first = i;
    out.passed = bad == 0;
    out.check = "exact, element by element";
    auto text = [](const T& v) {
      const float* f = reinterpret_cast<const float*>(&v);
      std::string s = ws::value_text(f[0]);
      for (size_t k = 1; k < sizeof(T) / sizeof(float); ++k) s += ", " + ws::value_text(f[k]);
      return sizeof(T) > 4 ? "(" + s + ")" : s;
    };
    out.result = bad ? std::to_string(bad) + " of " + std::to_string(want.size()) + " wrong, first out[" + std::to_string(first) +
                           "] = " + text(got[first])
                     : "out[] correct (" + std::to_string(want.size()) + " elements)";
    out.expected = want.empty() ? "" : "out[" + std::to_string(first) + "] = " + text(want[first]);
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint32_t block = c.block.x;
    const ws::Dim3 grid{uint32_t((c.n + block - 1) / block), 1, 1}, blk{block, 1, 1};
    const unsigned n = unsigned(c.n);
    std::vector<T> want(c.n);
    ws::global_array<T> o = be.template alloc<T>("out", c.n);
    bool ok;
    if (c.variant == "offset") {
      const unsigned offset = unsigned(c.param("offset", 0));
      const std::vector<T> host = random_elems<T>(c.n + offset, c.seed);
      ws::global_array<T> in = be.upload("in", host);
      ok = be.launch("coalesce_offset", grid, blk, 0, coalesce_offset<T>, in, o, n, offset);
      for (uint64_t i = 0; i < c.n; ++i) want[i] = host[i + offset];
    } else {
      const unsigned stride = unsigned(c.param("stride", 2));
      const std::vector<T> host = random_elems<T>((c.n - 1) * stride + 1, c.seed);
      ws::global_array<T> in = be.upload("in", host);
      ok = be.launch("coalesce_stride", grid, blk, 0, coalesce_stride<T>, in, o, n, stride);
      for (uint64_t i = 0; i < c.n; ++i) want[i] = host[i * stride];
    }
    if (ok) check(out, be.download(o), want);
  }

  template <class B>
  static void run_points(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint32_t block = c.block.x;
    const ws::Dim3 grid{uint32_t((c.n + block - 1) / block), 1, 1}, blk{block, 1, 1};
    const std::vector<float> xyz = ws::random_input<float>(3 * c.n, c.seed, -9, 9);  // point i = xyz[3i .. 3i+2]
    std::vector<float> want(c.n);
    for (uint64_t i = 0; i < c.n; ++i) want[i] = xyz[3 * i] + xyz[3 * i + 1] + xyz[3 * i + 2];
    ws::global_array<float> o = be.template alloc<float>("out", c.n);
    bool ok;
    if (c.variant == "aos") {
      ws::global_array<float> points = be.upload("points", xyz);
      ok = be.launch("coalesce_aos", grid, blk, 0, coalesce_aos, points, o, unsigned(c.n));
    } else {
      std::vector<float> x(c.n), y(c.n), z(c.n);
      for (uint64_t i = 0; i < c.n; ++i) x[i] = xyz[3 * i], y[i] = xyz[3 * i + 1], z[i] = xyz[3 * i + 2];
      ws::global_array<float> xs = be.upload("xs", x), ys = be.upload("ys", y), zs = be.upload("zs", z);
      ok = be.launch("coalesce_soa", grid, blk, 0, coalesce_soa, xs, ys, zs, o, unsigned(c.n));
    }
    if (ok) check(out, be.download(o), want);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.variant == "aos" || c.variant == "soa") return run_points(be, c, out);
    if (c.dtype == "float2") run_typed<float2>(be, c, out);
    else if (c.dtype == "float4") run_typed<float4>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
