// Exercise: a conflict-free tile. The transpose is coalesced through a shared tile, but reading the
// tile by columns, tile[threadIdx.x][...], puts all 32 lanes of a warp on one bank. Pad the tile so
// that a column of it falls on 32 different banks.
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
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;   // the transposed block's column
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
