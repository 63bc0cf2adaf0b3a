// Exercise: a coalesced transpose. Each thread copies in[y][x] to out[x][y]: the warp reads a row
// (coalesced) but writes a column, 32 floats n apart. Stage a 32 x 32 tile in shared memory so that
// both the read of `in` and the write of `out` are rows: 4 sectors per warp request.
/* warpscope
kernel = "transpose"
n = 128                                     # the matrix is n x n floats
block = [32, 8]                             # a 32 x 32 tile, each thread copies 4 of its elements
grid = ["n / 32", "n / 32"]
accepts = ["block.x == 32 && block.y == 8", "n % 32 == 0"]
args = ["in", "out", "n"]

[arrays.in]
type = "float"
size = "n * n"
fill = "iota"
row_length = "n"

[arrays.out]
type = "float"
size = "n * n"
row_length = "n"
expect = "in[(i % n) * n + i / n]"
*/

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose(const float *in, float *out, int n) {
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}
