// The reduction table's steps 1 to 6 in plain CUDA, statement for statement as the catalog's
// kernels/reduction/reduce.cuh writes them in warpscope's dialect (test_plain_cuda.cpp holds
// their per-line counts equal).
/* warpscope
n = 4096
block = 256
shared = "block.x * sizeof(int)"
args = ["in", "out", "n"]

[[variants]]
id = "1"
kernel = "reduce1"

[[variants]]
id = "2"
kernel = "reduce2"

[[variants]]
id = "3"
kernel = "reduce3"

[[variants]]
id = "4"
kernel = "reduce4"
grid = "n / (2 * block.x)"

[[variants]]
id = "5"
kernel = "reduce5"
grid = "n / (2 * block.x)"

[[variants]]
id = "6"
kernel = "reduce6<256>"
grid = "n / (2 * block.x)"

[arrays.in]
type = "int"
size = "n"
fill = "random"

[arrays.out]
type = "int"
size = "n"
*/

__global__ void reduce1(const int *g_idata, int *g_odata, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void reduce2(const int *g_idata, int *g_odata, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void reduce3(const int *g_idata, int *g_odata, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void reduce4(const int *g_idata, int *g_odata, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  int sum = i < n ? g_idata[i] : 0;
  if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__device__ void warpReduce(volatile int *vs, unsigned tid) {
  int v = vs[tid];
  v += vs[tid + 32]; __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 16]; __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 8];  __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 4];  __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 2];  __syncwarp(); vs[tid] = v; __syncwarp();
  v += vs[tid + 1];  __syncwarp(); vs[tid] = v;
}

__global__ void reduce5(const int *g_idata, int *g_odata, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  int sum = i < n ? g_idata[i] : 0;
  if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid < 32) warpReduce(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template <unsigned blockSize>
__global__ void reduce6(const int *g_idata, int *g_odata, unsigned n) {
  __shared__ int sdata[blockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  int sum = i < n ? g_idata[i] : 0;
  if (i + blockSize < n) sum += g_idata[i + blockSize];
  sdata[tid] = sum;
  __syncthreads();
  if (blockSize >= 1024) { if (tid < 512) { sdata[tid] += sdata[tid + 512]; } __syncthreads(); }
  if (blockSize >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }
  if (blockSize >= 64) {
    if (tid < 32) warpReduce(sdata, tid);
  } else if (tid == 0) {
    for (unsigned k = 1; k < blockSize; ++k) sdata[0] += sdata[k];
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
