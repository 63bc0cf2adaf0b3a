// What students write that is not in the lecture's kernels: CUDA's vector types (a float3 point,
// a uchar4 pixel), a double atomicAdd built from atomicCAS as the programming guide shows it, a
// template kernel, __launch_bounds__, #pragma unroll, a lambda, a struct with a __device__
// member function, printf of elements, assert, and the warp vote and shuffle intrinsics.
#include <cassert>
#include <cstdio>
/* warpscope
n = 256
block = 128
args = ["pos", "img", "acc", "hist", "n"]

[[variants]]
id = "float"
kernel = "points<float>"

[[variants]]
id = "double"
kernel = "points<double>"

[arrays.pos]
type = "float3"
size = "n"
fill = "make_float3(i, 2 * i, 3 * i)"

[arrays.img]
type = "uchar4"
size = "n"
fill = "make_uchar4(i % 256, 1, 2, 3)"

[arrays.acc]
type = "double"
size = "1"
expect = "6.0 * n * (n - 1) / 2"

[arrays.hist]
type = "unsigned int"
size = "4"
expect = "n / 4"
*/
#define BLOCK 128

__device__ double atomicAddViaCas(double* address, double val) {
    unsigned long long int* address_as_ull = (unsigned long long int*)address;
    unsigned long long int old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}

struct Brightness {
    unsigned char level;
    __device__ unsigned char raised() const { return level + 9; }
};

template <typename T>
__global__ void __launch_bounds__(BLOCK) points(const float3* pos, uchar4* img, double* acc, unsigned int* hist, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    assert(i < n);
    float3 p = pos[i];
    auto sum3 = [](float3 q) { return q.x + q.y + q.z; };
    T s = T(sum3(p));
    uchar4 c = img[i];
    c.y = Brightness{c.y}.raised() - 9 + 9;
    img[i] = c;
    #pragma unroll
    for (int k = 0; k < 1; ++k) atomicAddViaCas(acc, double(s));
    atomicAdd(&hist[i % 4], 1u);
    int evens = __syncthreads_count(i % 2 == 0);
    unsigned odd_lanes = __ballot_sync(0xffffffff, i % 2);
    if (i == 0) printf("pos[1].y = %f, img[0].x = %d, evens = %d, odd lanes = %08x\n", pos[1].y, img[0].x, evens, odd_lanes);
}
