// A kernel's variants as one table: one row per variant, holding everything that differs between
// variants (its text and flags, the blocks it accepts, its grid rule and its launch), so that
// adding a variant is adding one row. The entry's spec(), validate() and driver all read the
// table; none of them compares variant ids itself.
//
// A row is a ws::Variant (plain data) and a launch: a generic lambda that takes the backend and
// the kernel's own "pass" struct (the arguments its launches need) and returns false when the
// launch failed (the fault is already in the RunResult). The rows live in a std::tuple made by a
// function template on the element type; the lambdas are only instantiated when the driver calls
// them, so spec() and validate() may read rows<int>() whatever the run's element type is.
//
//   template <class T>
//   struct Pass { ws::Dim3 grid, block; ws::global_array<const T> in; ws::global_array<T> out; unsigned n; };
//
//   static std::string whole_warps(const ws::RunConfig& c) {
//     return c.block.x % 32 ? "the block size must be a multiple of 32" : "";
//   }
//
//   template <class T>
//   static auto rows() {
//     return std::make_tuple(
//         ws::row({.id = "1", .name = "one element per thread", .summary = "...", .grid = {.per_thread = 1}},
//                 [](auto& be, const Pass<T>& p) { return be.launch("sum1", p.grid, p.block, 0, sum1<T>, p.in, p.out, p.n); }),
//         ws::row({.id = "2", .name = "warp shuffles", .summary = "...", .accepts = whole_warps,
//                  .grid = {.per_thread = 2, .grid_stride = true}},
//                 [](auto& be, const Pass<T>& p) { return be.launch("sum2", p.grid, p.block, 0, sum2<T>, p.in, p.out, p.n); }));
//   }
//
//   spec():     s.variants = ws::variant_specs(rows<int>());
//   validate(): if (std::string why = ws::check_variant(rows<int>(), c); !why.empty()) return why;
//   driver:     const ws::Variant v = *ws::find_variant(rows<T>(), c.variant);
//               Pass<T> p{{v.grid.blocks(c.n, c.block.x, c), 1, 1}, c.block, in, out, unsigned(c.n)};
//               if (!ws::launch_variant(rows<T>(), c.variant, be, p)) return;
//
// A row may carry data of the kernel's own between the two (ws::row(variant, extra, launch)),
// e.g. the reference path of each branch of the divergence demos; variant_extra() reads it.
//
// Kernels whose variants need different arguments (the atomics' maximum, sums and counts) keep one
// table per group, each with its own pass struct, and join them in lecture order with
// std::tuple_cat for the spec; the driver asks find_variant() which group a variant is in.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ws/run/entry.h"

namespace ws {

// "" when a variant takes the launch (block shape, element type, sizes), else why not, as the user
// reads it. Checked after the kernel's own checks, in the place validate() puts it.
using LaunchRule = std::string (*)(const RunConfig&);

// How many blocks a variant launches.
struct GridRule {
  // Elements one thread covers in a pass: a 1D pass over `count` elements launches
  // ceil(count / (block * per_thread)) blocks; a 2D launch covers block.x * per_thread columns and
  // block.y * per_thread rows per block.
  uint32_t per_thread = 1;
  // The kernel loops over the input with a grid-stride loop, so the grid is a choice: the kernel's
  // `per_thread` parameter (elements per thread, when > 0) sets it, otherwise its `max_blocks`
  // parameter caps it.
  bool grid_stride = false;
  // One launch does the whole job (the last block adds the partial results, or a library call
  // does): no second launch over the blocks' partial results.
  bool single_launch = false;
  // 2D: a block covers a square tile of block.x * per_thread on a side (each thread per_thread
  // of its columns and tile / block.y of its rows).
  bool square_tile = false;
  // 2D: threadIdx.x walks the rows of the matrix and threadIdx.y its columns.
  bool transposed = false;

  // Blocks of a 1D pass over `count` elements (at least one). --grid sets the first pass's grid of
  // a grid-stride variant; later passes over the partial sums follow the rule.
  uint32_t blocks(uint64_t count, uint32_t block, const RunConfig& c, bool first_pass = true) const {
    const uint64_t per_block = uint64_t(block) * per_thread;
    uint64_t n = (count + per_block - 1) / per_block;
    if (grid_stride) {
      if (c.grid.x > 0 && first_pass) return c.grid.x;  // --grid: the variant takes any grid
      if (const int64_t pt = c.param("per_thread", 0); pt > 0)
        n = (count + uint64_t(block) * uint64_t(pt) - 1) / (uint64_t(block) * uint64_t(pt));
      else
        n = std::min<uint64_t>(n, uint64_t(c.param("max_blocks", 64)));
    }
    return uint32_t(std::max<uint64_t>(n, 1));
  }

  // The grid of a 2D launch over a rows x cols matrix.
  Dim3 blocks_2d(Dim3 block, uint64_t rows, uint64_t cols) const {
    auto div_up = [](uint64_t a, uint64_t b) { return uint32_t((a + b - 1) / b); };
    const uint64_t along_x = transposed ? rows : cols, along_y = transposed ? cols : rows;
    const uint64_t tile_y = square_tile ? uint64_t(block.x) * per_thread : uint64_t(block.y) * per_thread;
    return {div_up(along_x, uint64_t(block.x) * per_thread), div_up(along_y, tile_y), 1};
  }
};

// One variant's data: what the spec shows (text, flags) and the rules the entry applies.
struct Variant {
  const char* id = "";       // "3"
  const char* name = "";     // "sequential addressing"
  const char* summary = "";  // one line: what this step changes, as the lecture says it
  bool broken = false;       // kept on purpose to show a bug; `broken_note` says which
  const char* broken_note = "";
  bool gpu_only = false;         // e.g. CUB's DeviceReduce::Sum
  bool order_dependent = false;  // see VariantSpec::order_dependent
  // The launches it takes beyond the kernel's own checks; null: all. It sees the block the
  // variant launches (after `shape`).
  LaunchRule accepts = nullptr;
  // 2D kernels: the block a 1D --block x stands for (e.g. x -> (x, x)); null: the block as given.
  Dim3 (*shape)(Dim3 block) = nullptr;
  GridRule grid = {};
  // The instruction the variant is about, as text of its source line (VariantSpec::focus).
  const char* focus = "";

  VariantSpec spec() const {
    VariantSpec s(id, name, summary, broken, broken_note, gpu_only);
    s.order_dependent = order_dependent;
    s.takes_grid = grid.grid_stride;
    s.focus = focus;
    return s;
  }
  Dim3 block_for(Dim3 block) const { return shape ? shape(block) : block; }
};

struct NoExtra {};

template <class Launch, class Extra = NoExtra>
struct Row {
  Variant v;
  Extra extra;
  Launch launch;
};

template <class Launch>
Row<Launch> row(Variant v, Launch launch) {
  return {v, {}, launch};
}
template <class Extra, class Launch>
Row<Launch, Extra> row(Variant v, Extra extra, Launch launch) {
  return {v, extra, launch};
}

// The spec's variant list, in the table's order.
template <class... R>
std::vector<VariantSpec> variant_specs(const std::tuple<R...>& rows) {
  return std::apply([](const R&... r) { return std::vector<VariantSpec>{r.v.spec()...}; }, rows);
}

// The variant of that id; none when the table has no such row.
template <class... R>
std::optional<Variant> find_variant(const std::tuple<R...>& rows, std::string_view id) {
  std::optional<Variant> found;
  std::apply([&](const R&... r) { ((id == r.v.id ? (found = r.v, true) : false) || ...); }, rows);
  return found;
}

// The row's own data (the `extra` of ws::row(variant, extra, launch)); every row of the table
// carries the same type of it.
template <class... R>
auto variant_extra(const std::tuple<R...>& rows, std::string_view id) {
  using Extra = decltype(std::get<0>(rows).extra);
  std::optional<Extra> found;
  std::apply([&](const R&... r) { ((id == r.v.id ? (found = r.extra, true) : false) || ...); }, rows);
  return found;
}

// The variant's rule for this launch: "" or the refusal. (The Catalog has already checked that
// the variant exists; an unknown one is refused here too.)
template <class... R>
std::string check_variant(const std::tuple<R...>& rows, const RunConfig& c) {
  const std::optional<Variant> v = find_variant(rows, c.variant);
  if (!v) return "no variant '" + c.variant + "'";
  if (!v->accepts) return {};
  if (!v->shape) return v->accepts(c);
  RunConfig shaped = c;  // the rule judges the block the variant launches
  shaped.block = v->shape(c.block);
  return v->accepts(shaped);
}

// Runs the launch of the row `id` with `args` (the backend, then the kernel's pass struct);
// false when it failed or no row has that id.
template <class... R, class... Args>
bool launch_variant(const std::tuple<R...>& rows, std::string_view id, Args&&... args) {
  bool ok = false;
  std::apply([&](const R&... r) { ((id == r.v.id ? (ok = bool(r.launch(args...)), true) : false) || ...); }, rows);
  return ok;
}

// Calls f(std::integral_constant<unsigned, V>{}) for the V of `Vs` that equals `value`: a
// runtime block or tile size becomes a template argument. False when none does.
//   ws::with_constant<8, 16, 32>(block.x, [&](auto tile) { return be.launch(..., transpose_tile<T, tile()>, ...); });
template <unsigned... Vs, class F>
bool with_constant(unsigned value, F&& f) {
  bool ok = false;
  ((value == Vs ? (ok = bool(f(std::integral_constant<unsigned, Vs>{})), true) : false) || ...);
  return ok;
}

}  // namespace ws
