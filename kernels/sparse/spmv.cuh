// Sparse matrix-vector multiplication in CSR format (seed 003, "Case 2"): y = A x, one thread per
// row, exactly the lecture's two kernels.
//
// CSR keeps the non-zeros row by row: Av (values), Aj (their columns), Ap (where each row starts;
// row r is Av[Ap[r] .. Ap[r+1])). The lecture's example:
//   | 3 0 1 0 |     Av = {3, 1, 2, 4, 1, 1, 1}
//   | 0 0 0 0 |     Aj = {0, 2, 1, 2, 3, 0, 3}
//   | 0 2 4 1 |     Ap = {0, 2, 2, 5, 7}
//   | 1 0 0 1 |
// What warpscope shows: the rows have different lengths, so a warp's lanes leave the row loop at
// different iterations (the loop's masks thin out; in the SIMT model the store of y issues with all
// lanes again, while an H100 lets the lanes that finished early store at once: compare the two
// timelines, or `warpscope crosscheck --kernel spmv --details` on a GPU);
// neighbouring threads read Av and Aj a row apart (uncoalesced); and in `shared` the cached-or-not
// choice of x inside the loop splits the warp at every element, meeting again after each one.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/checks.h"
#include "common/variant_table.h"
#include "sparse/spmv_reference.h"
#include "ws/kernel.cuh"

// The lecture's multiply_row: one row's dot product with x (a row starts at `begin` in Aj/Av).
template <class T>
__device__ T multiply_row(unsigned begin, unsigned end, ws::global_array<const unsigned> Aj,
                          ws::global_array<const T> Av, ws::global_array<const T> x) {
  T sum = 0;
  for (unsigned column = begin; column < end; ++column) sum += Av[column] * x[Aj[column]];
  return sum;
}

// csrmul_kernel: one thread per row.
template <class T>
__global__ void csrmul_kernel(ws::global_array<const unsigned> Ap, ws::global_array<const unsigned> Aj,
                              ws::global_array<const T> Av, unsigned num_rows, ws::global_array<const T> x,
                              ws::global_array<T> y) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    unsigned row_begin = Ap[row];
    unsigned row_end = Ap[row + 1];
    y[row] = multiply_row<T>(row_begin, row_end, Aj, Av, x);
  }
}

// csrmul_shared: the block first caches its own slice of x (x[begin .. end), the entries whose
// index is one of the block's rows) in shared memory; an element whose column falls in that slice
// reads the cache, the others read x in global memory.
template <class T>
__global__ void csrmul_shared(ws::global_array<const unsigned> Ap, ws::global_array<const unsigned> Aj,
                              ws::global_array<const T> Av, unsigned num_rows, ws::global_array<const T> x,
                              ws::global_array<T> y) {
  ws::dynamic_shared<T, "cache"> cache;  // __shared__ T cache[blockDim.x]: the block's rows of x
  unsigned begin = blockIdx.x * blockDim.x, end = begin + blockDim.x;
  unsigned row = begin + threadIdx.x;
  if (row < num_rows) cache[threadIdx.x] = x[row];  // fetch to shared memory
  __syncthreads();
  if (row < num_rows) {
    unsigned row_begin = Ap[row], row_end = Ap[row + 1];
    T sum = 0;
    for (unsigned col = row_begin; col < row_end; ++col) {
      unsigned j = Aj[col];
      // Fetch from the cached rows when possible.
      T x_j;
      if (j >= begin && j < end) {
        x_j = cache[j - begin];
      } else {
        x_j = x[j];
      }
      sum += Av[col] * x_j;
    }
    y[row] = sum;
  }
}

struct SpmvEntry {
  template <class T>
  struct Pass {
    ws::Dim3 grid, block;
    ws::global_array<const unsigned> Ap, Aj;
    ws::global_array<const T> Av;
    unsigned num_rows;
    ws::global_array<const T> x;
    ws::global_array<T> y;
  };

  template <class T>
  static auto rows() {
    using P = Pass<T>;
    return std::make_tuple(
        ws::row({.id = "scalar", .name = "csrmul_kernel: one thread per row",
                 .summary = "each thread loops over its row's non-zeros: lanes drop out as rows end"},
                [](auto& be, const P& p) {
                  return be.launch("csrmul_kernel", p.grid, p.block, 0, csrmul_kernel<T>, p.Ap, p.Aj, p.Av, p.num_rows, p.x, p.y);
                }),
        ws::row({.id = "shared", .name = "csrmul_shared: x cached in shared memory",
                 .summary = "x[j] from the block's shared cache when j is one of its rows, else from global memory"},
                [](auto& be, const P& p) {
                  return be.launch("csrmul_shared", p.grid, p.block, p.block.x * uint32_t(sizeof(T)), csrmul_shared<T>, p.Ap,
                                   p.Aj, p.Av, p.num_rows, p.x, p.y);
                }));
  }

  static ws::KernelSpec spec() {
    ws::KernelSpec s;
    s.name = "spmv";
    s.title = "Sparse matrix-vector product (CSR)";
    s.description =
        "y = A x for a sparse n x n matrix in CSR form (values Av, columns Aj, row starts Ap), one "
        "thread per row, as the lecture writes it. Rows have different lengths (0 to 2 x avg_nnz "
        "non-zeros, random), so a warp's lanes leave the row loop at different iterations; "
        "neighbouring threads read Av and Aj a whole row apart (uncoalesced). The shared variant "
        "caches the block's slice of x and picks cache or global memory per element.";
    s.source = "sparse/spmv.cuh";
    s.lecture = "seed 003 (case 2: sparse matrix-vector multiplication, CSR)";
    s.variants = ws::variant_specs(rows<float>());
    s.params = {
        {"avg_nnz", "average non-zeros per row (row lengths uniform in 0 .. 2 x avg_nnz)", 1, 64, 4, {}},
        {"band", "columns within this distance of the diagonal (0: anywhere in the row)", 0, 1 << 20, 64, {}},
    };
    s.default_n = 4096;
    s.default_block = 256;
    s.dtypes = {"float", "int"};
    s.timing.n = 1 << 22;
    s.timing.sizes = {1 << 18, 1 << 20, 1 << 22};
    return s;
  }

  static std::string validate(const ws::RunConfig& c) {
    if (c.block.y != 1 || c.block.z != 1) return "spmv runs one thread per row: block must be (x, 1, 1)";
    if (c.n == 0 || c.n > (1u << 22)) return "n (rows) must be 1 to 4194304 (got " + std::to_string(c.n) + ")";
    if (c.n * uint64_t(2 * c.param("avg_nnz", 4) + 1) > (uint64_t(1) << 26))
      return "n x (2 x avg_nnz + 1) must stay within 67108864 non-zeros: a smaller n or avg_nnz";
    return ws::check_variant(rows<float>(), c);
  }

  template <class T, class B>
  static void run_typed(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    namespace ref = ws::reference::spmv;
    const ref::Csr m = ref::matrix(c.n, c.seed, unsigned(c.param("avg_nnz", 4)), unsigned(c.param("band", 64)));
    const std::vector<T> av = ref::values<T>(m, c.seed);
    const std::vector<T> hx = ref::vector_x<T>(c.n, c.seed);
    // (An empty matrix still gets a one-element array: a view of nothing cannot be uploaded.)
    auto d_ap = be.upload("Ap", m.ap);
    auto d_aj = be.upload("Aj", m.aj.empty() ? std::vector<unsigned>{0} : m.aj);
    auto d_av = be.upload("Av", av.empty() ? std::vector<T>{T(0)} : av);
    auto d_x = be.upload("x", hx);
    auto d_y = be.template alloc<T>("y", c.n);
    const ws::Dim3 blk{c.block.x, 1, 1};
    const ws::Dim3 grid{ws::find_variant(rows<T>(), c.variant)->grid.blocks(c.n, c.block.x, c), 1, 1};
    if (!ws::launch_variant(rows<T>(), c.variant, be, Pass<T>{grid, blk, d_ap, d_aj, d_av, unsigned(c.n), d_x, d_y})) return;
    const std::vector<T> got = be.download(d_y);
    ws::keep_checked(out, "y", got.data(), got.size());
    // Per row, the double reference and its tolerance (spmv_reference.h).
    const ref::Rows want = ref::product(m, av, hx);
    uint64_t bad = 0, first = 0;
    for (uint64_t r = 0; r < c.n; ++r) {
      const double err = std::fabs(double(got[r]) - want.value[r]);
      if (err > ref::tolerance<T>(m, r, want.abs[r]) && bad++ == 0) first = r;
    }
    out.passed = bad == 0;
    out.check = std::is_integral_v<T> ? "exact per row (integer)"
                                      : "per row |y - ref| <= (nnz + 2) eps(float) sum |Av x|, ref in double";
    out.result = bad ? std::to_string(bad) + " of " + std::to_string(c.n) + " rows wrong, first y[" +
                           std::to_string(first) + "] = " + ws::value_text(got[first])
                     : "y correct (" + std::to_string(c.n) + " rows, " + std::to_string(m.aj.size()) + " non-zeros)";
    out.expected = bad ? "y[" + std::to_string(first) + "] within the tolerance of the double reference"
                       : "every row within the tolerance";
  }

  template <class B>
  static void run(B& be, const ws::RunConfig& c, ws::RunResult& out) {
    if (c.dtype == "int") run_typed<int>(be, c, out);
    else run_typed<float>(be, c, out);
  }
};
