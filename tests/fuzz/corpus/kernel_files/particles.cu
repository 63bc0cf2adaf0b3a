// Moving particles stored two ways. As an array of structs (Vec3 {x, y, z}), `Vec3 p = pos[i]` is
// three 4-byte loads 12 bytes apart: each of a warp's three requests touches 12 sectors for the 4
// it uses. As a struct of arrays (xs, ys, zs), each load is one coalesced 128-byte row.
#include "ws/kernel.cuh"

struct Vec3 {
  float x, y, z;
};

__global__ void move_aos(ws::global_array<const Vec3> pos, ws::global_array<float> out, float dt, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Vec3 p = pos[i];
  out[i] = p.x + p.y * dt + p.z * dt * dt;
}

__global__ void move_soa(ws::global_array<const float> xs, ws::global_array<const float> ys, ws::global_array<const float> zs,
                         ws::global_array<float> out, float dt, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = xs[i] + ys[i] * dt + zs[i] * dt * dt;
}

// Particle i, the same in both layouts.
Vec3 particle(uint64_t i) { return Vec3{float(i % 17), float(i % 5), float(i % 3)}; }

/* warpscope
title = "Particles: array of structs vs struct of arrays"
n = 2048
block = 256

[[variants]]
id = "aos"
kernel = "move_aos"
args = ["pos", "out", "0.5f", "n"]
summary = "Vec3 p = pos[i]: three strided loads per warp"

[[variants]]
id = "soa"
kernel = "move_soa"
args = ["xs", "ys", "zs", "out", "0.5f", "n"]
summary = "xs[i], ys[i], zs[i]: three coalesced loads"

[arrays.pos]
type = "Vec3"
size = "n"
fill = "particle(i)"

[arrays.xs]
type = "float"
size = "n"
fill = "particle(i).x"

[arrays.ys]
type = "float"
size = "n"
fill = "particle(i).y"

[arrays.zs]
type = "float"
size = "n"
fill = "particle(i).z"

[arrays.out]
type = "float"
size = "n"
expect = "particle(i).x + particle(i).y * 0.5f + particle(i).z * 0.25f"
*/
