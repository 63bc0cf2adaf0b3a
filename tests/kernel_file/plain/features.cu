// Plain CUDA as code bases write it: struct arrays and their members, `auto` copies, a shared
// scalar, a two-dimensional tile with and without padding, 16-byte vector loads through a cast,
// a __device__ helper taking pointers, pointer arithmetic.
/* warpscope
n = 1024
block = [32, 8]
grid = "n / 256"
args = ["in", "pts", "out", "n"]

[[variants]]
id = "member"
kernel = "member_of_struct"

[[variants]]
id = "auto"
kernel = "auto_copy"

[[variants]]
id = "scalar"
kernel = "shared_scalar"
args = ["in", "pts", "counts", "n"]

[[variants]]
id = "padded"
kernel = "tile_column<33>"
grid = "n / 1024"
args = ["in", "pts", "transposed", "n"]

[[variants]]
id = "unpadded"
kernel = "tile_column<32>"
grid = "n / 1024"
args = ["in", "pts", "transposed", "n"]

[[variants]]
id = "vector"
kernel = "vector_load"

[[variants]]
id = "helper"
kernel = "through_helper"
args = ["in", "pts", "doubled", "n"]

[arrays.in]
type = "float"
size = "n"
fill = "iota"

[arrays.pts]
type = "Vec3"
size = "n"
fill = "Vec3{float(i), 2.0f * i, 3.0f * i}"

[arrays.out]
type = "float"
size = "n"

[arrays.counts]                   # every block counts its own threads in a shared scalar
type = "float"
size = "n"
expect = "256"

[arrays.transposed]               # warp y reads column y of the 32 x 32 tile
type = "float"
size = "n"
expect = "i < 256 ? in[(i % 32) * 32 + i / 32] : 0"

[arrays.doubled]
type = "float"
size = "n"
expect = "2 * in[i]"
*/
struct Vec3 { float x, y, z; };

__global__ void member_of_struct(const float* in, const Vec3* pts, float* out, int n) {
  int i = blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x;
  out[i] = pts[i].y;
}

__global__ void auto_copy(const float* in, const Vec3* pts, float* out, int n) {
  int i = blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x;
  auto v = in[i];
  out[i] = v * v + v;
}

__global__ void shared_scalar(const float* in, const Vec3* pts, float* out, int n) {
  __shared__ int count;
  if (threadIdx.x == 0 && threadIdx.y == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x] = count;
}

template <int Pitch>
__global__ void tile_column(const float* in, const Vec3* pts, float* out, int n) {
  __shared__ float tile[32][Pitch];
  for (int r = threadIdx.y; r < 32; r += 8) tile[r][threadIdx.x] = in[r * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void vector_load(const float* in, const Vec3* pts, float* out, int n) {
  int i = blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x;
  if (i < n / 4) {
    float4 v = reinterpret_cast<const float4*>(in)[i];
    out[i] = v.x + v.y + v.z + v.w;
  }
}

__device__ float twice(const float* p, int k) { return 2.0f * p[k]; }

__global__ void through_helper(const float* in, const Vec3* pts, float* out, int n) {
  int i = blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x;
  const float* row = in + blockIdx.x * 256;
  float* dst = out + blockIdx.x * 256;
  *(dst + threadIdx.y * 32 + threadIdx.x) = twice(row, threadIdx.y * 32 + threadIdx.x);
}
