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
//            out[i] = p[i].x + p[i].y + p[i].z; aos-struct writes it `Point p = points[i];`.
//   soa    : struct of arrays, xs[], ys[], zs[]: the same sum with three fully coalesced loads.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "common/checks.h"
#include "common/variant_table.h"
#include "memory/coalesce_reference.h"
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

// The same written as one would: `Point p = points[i];`. The struct copy is recorded as the
// compiler makes it (three 4-byte loads, ws/kernel/access_pieces.h): the counts equal coalesce_aos's.
__global__ void coalesce_aos_struct(ws::global_array<const Point> points, ws::global_array<float> out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Point p = points[i];
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
// The entry. Two groups of demos (one table each, joined by rows()): one load of an element type
// (offset, stride) and the three-member points (aos, soa).
struct CoalesceEntry {
  static uint64_t offset(const ws::RunConfig& c) { return uint64_t(c.param("offset", 0)); }
  static uint64_t stride(const ws::RunConfig& c) { return uint64_t(c.param("stride", 2)); }

  // Each row's input size, for the size limit (and the input of the element-type demos).
  struct Input {
    uint64_t (*elems)(const ws::RunConfig& c);
  };
  // n + offset: the offset demo's input (and the count the limit applies to the points too).
  static uint64_t offset_elems(const ws::RunConfig& c) { return c.n + offset(c); }

  static std::string point_struct(const ws::RunConfig& c) {
    if (c.dtype == "float") return {};
    return "variant " + c.variant + " reads struct Point {float x, y, z;}: its element type is fixed (use dtype float)";
  }

  // ---- one load per thread, of a float, float2 or float4 ----
  template <class T>
  struct LoadPass {
    ws::Dim3 grid, block;
    ws::global_array<const T> in;
    ws::global_array<T> out;
    unsigned n, offset, stride;
    const std::vector<T>& host;  // what `in` holds
    std::vector<T> want = {};    // what out[] must hold (coalesce_reference.h)
  };

  template <class T>
  static auto load_rows() {
    using P = LoadPass<T>;
    return std::make_tuple(
        ws::row({.id = "offset", .name = "in[i + offset]",
                 .summary = "offset 0: aligned, one line per warp of floats; offset 1: one more sector and line"},
                Input{offset_elems},
                [](auto& be, P& p) {
                  p.want = ws::reference::coalesce::offset_gather(p.host, p.n, p.offset);
                  return be.launch("coalesce_offset", p.grid, p.block, 0, coalesce_offset<T>, p.in, p.out, p.n, p.offset);
                }),
        ws::row({.id = "stride", .name = "in[i * stride]",
                 .summary = "stride 2 wastes half of each sector; stride >= 8 floats: one sector per lane"},
                Input{[](const ws::RunConfig& c) { return (c.n - 1) * stride(c) + 1; }},
                [](auto& be, P& p) {
                  p.want = ws::reference::coalesce::stride_gather(p.host, p.n, p.stride);
                  return be.launch("coalesce_stride", p.grid, p.block, 0, coalesce_stride<T>, p.in, p.out, p.n, p.stride);
                }));
  }

  // ---- struct Point {float x, y, z;}: as an array of structs or as a struct of arrays ----
  struct PointPass {
    ws::Dim3 grid, block;
    const std::vector<float>& xyz;  // point i = xyz[3i .. 3i+2]
    ws::global_array<float> out;
    unsigned n;
  };

  static auto point_rows() {
    return std::make_tuple(
        ws::row({.id = "aos", .name = "array of structs {x, y, z}",
                 .summary = "three member loads 12 bytes apart: 12 sectors each for 4 useful", .accepts = point_struct},
                Input{offset_elems},
                [](auto& be, const PointPass& p) {
                  ws::global_array<float> points = be.upload("points", p.xyz);
                  return be.launch("coalesce_aos", p.grid, p.block, 0, coalesce_aos, points, p.out, p.n);
                }),
        ws::row({.id = "aos-struct", .name = "array of structs, copied whole: Point p = points[i]",
                 .summary = "the same three member loads, written as a struct copy", .accepts = point_struct},
                Input{offset_elems},
                [](auto& be, const PointPass& p) {
                  std::vector<Point> pts(p.n);
                  for (uint64_t i = 0; i < p.n; ++i) pts[i] = {p.xyz[3 * i], p.xyz[3 * i + 1], p.xyz[3 * i + 2]};
                  ws::global_array<Point> points = be.upload("points", pts);
                  return be.launch("coalesce_aos_struct", p.grid, p.block, 0, coalesce_aos_struct, points, p.out, p.n);
                }),
        ws::row({.id = "soa", .name = "struct of arrays xs, ys, zs", .summary = "three coalesced loads: 4 sectors each",
                 .accepts = point_struct},
                Input{offset_elems},
                [](auto& be, const PointPass& p) {
                  std::vector<float> x(p.n), y(p.n), z(p.n);
                  for (uint64_t i = 0; i < p.n; ++i) x[i] = p.xyz[3 * i], y[i] = p.xyz[3 * i + 1], z[i] = p.xyz[3 * i + 2];
                  ws::global_array<float> xs = be.upload("xs", x), ys = be.upload("ys", y), zs = be.upload("zs", z);
                  return be.launch("coalesce_soa", p.grid, p.block, 0, coalesce_soa, xs, ys, zs, p.out, p.n);
                }));
  }

  template <class T>
  static auto rows() {
    return std::tuple_cat(load_rows<T>(), point_rows());
  }

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
    s.variants = ws::variant_specs(rows<float>());
    s.params = {
        {"offset", "elements skipped at the start (variant offset)", 0, 4096, 0, {}},
        {"stride", "elements between neighbouring threads (variant stride)", 1, 4096, 2, {}},
    };
    s.default_n = 1024;
    s.default_block = 256;
    s.dtypes = {"float", "float2", "float4"};
    s.elements = [](const ws::RunConfig& c) { return input_elems(c); };
    s.emulator_limit = [](const ws::RunConfig& c) -> std::string {
      if (input_elems(c) <= (1u << 26)) return {};
      return "the input would have " + std::to_string(input_elems(c)) + " elements: too many for the emulator (<= 67108864)";
    };
    s.timing.n = 1 << 24;
    s.timing.sizes = {1 << 20, 1 << 22, 1 << 24};
    s.timing.ceiling = ws::TimingSpec::Ceiling::Copy;
    // Useful bytes: what the threads read and write, not the strided input's whole allocation (so
    // stride 2's GB/s shows the half of every sector it wastes).
    s.timing.bytes = [](const ws::RunConfig& c) -> uint64_t {
      const bool points = ws::find_variant(point_rows(), c.variant).has_value();
      const uint64_t elem = c.dtype == "float4" ? 16 : c.dtype == "float2" ? 8 : 4;
      return points ? c.n * 16 : 2 * c.n * elem;
    };
    return s;
  }

  static uint64_t input_elems(const ws::RunConfig& c) { return ws::variant_extra(rows<float>(), c.variant)->elems(c); }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "the coalescing demos use 1D blocks: block must be (x, 1, 1)";
    if (std::string why = ws::check_variant(rows<float>(), c); !why.empty()) return why;
    const uint64_t elems = input_elems(c);
    if (elems >= (1ull << 32))
      return "the input would have " + std::to_string(elems) + " elements: the kernels index with 32-bit unsigned integers (< 4294967296)";
    return {};
  }

  template <class T>
  static void check(ws::RunResult& out, const std::vector<T>& got, const std::vector<T>& want) {
    ws::keep_checked(out, "out", got.data(), got.size());
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
    const ws::Dim3 grid{ws::find_variant(load_rows<T>(), c.variant)->grid.blocks(c.n, block, c), 1, 1}, blk{block, 1, 1};
    ws::global_array<T> o = be.template alloc<T>("out", c.n);
    const std::vector<T> host = ws::reference::coalesce::elements<T>(input_elems(c), c.seed);
    ws::global_array<T> in = be.upload("in", host);
    LoadPass<T> p{grid, blk, in, o, unsigned(c.n), unsigned(offset(c)), unsigned(stride(c)), host};
    if (ws::launch_variant(load_rows<T>(), c.variant, be, p)) check(out, be.download(o), p.want);
  }

  template <class B>
  static void run_points(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    const uint32_t block = c.block.x;
    const ws::Dim3 grid{ws::find_variant(point_rows(), c.variant)->grid.blocks(c.n, block, c), 1, 1}, blk{block, 1, 1};
    const std::vector<float> xyz = ws::reference::coalesce::points(c.n, c.seed);
    const std::vector<float> want = ws::reference::coalesce::point_sums(xyz, c.n);
    ws::global_array<float> o = be.template alloc<float>("out", c.n);
    if (ws::launch_variant(point_rows(), c.variant, be, PointPass{grid, blk, xyz, o, unsigned(c.n)}))
      check(out, be.download(o), want);
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (ws::find_variant(point_rows(), c.variant)) return run_points(be, c, out);
    if (c.dtype == "float2") run_typed<float2>(be, c, out);
    else if (c.dtype == "float4") run_typed<float4>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
