// Seed 003's sparse matrix-vector product in CSR form, pasted from the slides: multiply_row as the
// slide writes it (with the __device__ its declaration on the next slide gives it) and
// csrmul_kernel as it stands. Only the description and the host helpers for it are added.
//   Row r holds r % 4 non-zeros: Ap[r] = 6 * (r / 4) + (r % 4) * (r % 4 - 1) / 2, column
//   Aj[c] = 7c mod rows, value Av[c] = 1 + c % 3, and x[j] = j % 5.
/* warpscope
kernel = "csrmul_kernel"
n = 1024
block = 128
args = ["Ap", "Aj", "Av", "n", "x", "y"]

[arrays.Ap]
type = "unsigned"
size = "n + 1"
fill = "row_start(i)"

[arrays.Aj]
type = "unsigned"
size = "row_start(n)"
fill = "(7 * i) % n"

[arrays.Av]
type = "float"
size = "row_start(n)"
fill = "1 + i % 3"

[arrays.x]
type = "float"
size = "n"
fill = "i % 5"

[arrays.y]
type = "float"
size = "n"
fill = "0"
expect = "row_product(i, n)"
*/
#include <cstddef>

unsigned row_start(size_t r) { return unsigned(6 * (r / 4) + (r % 4) * (r % 4 == 0 ? 0 : r % 4 - 1) / 2); }

// Row r of A times x, from the formulas above (not from the arrays the kernel reads).
float row_product(size_t r, size_t rows) {
  float sum = 0;
  for (size_t c = row_start(r); c < row_start(r + 1); ++c) sum += float(1 + c % 3) * float((7 * c) % rows % 5);
  return sum;
}

__device__ float multiply_row(uint rowsize, // number of non-zeros in row
                  uint *Aj,      // column indices for row
                  float *Av,      // non-zero entries for row
                  float *x)      // the RHS vector
{
    float sum = 0;
    for (uint column=0; column<rowsize; ++column)
        sum += Av[column] * x[Aj[column]];
    return sum;
}

__global__ void csrmul_kernel(uint *Ap, uint *Aj, float *Av, uint
    num_rows, float *x, float *y)
{
    uint row = blockIdx.x*blockDim.x + threadIdx.x;
    if( row < num_rows )
    {
        uint row_begin = Ap[row];
        uint row_end = Ap[row+1];
        y[row] = multiply_row(row_end-row_begin, Aj+row_begin,
                               Av+row_begin, x);
    }
}
