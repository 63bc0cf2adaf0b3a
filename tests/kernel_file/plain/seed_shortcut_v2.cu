// Seed 004's shortcut problem, version 2 (ppc.cs.aalto.fi, chapter 4), pasted from the slides:
// mykernel keeps an 8 x 8 block of results in registers (64 x 64 results a block of 8 x 8
// threads) and reads the input and its transpose, which myppkernel writes padded to nn, a
// multiple of 64. The description runs them as the slide's program does, one after the other:
// variant "pp" pads, variant "v2" is given the padded input and computes r. Only the description
// and its host helpers are added.
//   d[i][j] = (7i + 3j) % 29 + 1 (i != j), 0 on the diagonal; r[i][j] = min over k of d[i][k] + d[k][j].
/* warpscope
n = 100
block = [8, 8]
grid = ["padded(n) / 64", "padded(n) / 64"]
args = ["r", "d", "n", "padded(n)"]

[[variants]]
id = "v2"
name = "V2: 8 x 8 results a thread"
kernel = "mykernel"

[[variants]]
id = "pp"
name = "myppkernel: the padded input and its transpose"
kernel = "myppkernel"
block = [64, 1]
grid = ["1", "padded(n)"]
args = ["r_in", "d_out", "n", "padded(n)"]

[arrays.d]
type = "float"
size = "2 * padded(n) * padded(n)"
fill = "padded_input(i, n)"

[arrays.r]
type = "float"
size = "n * n"
fill = "0"
expect = "shortcut(i, n)"

[arrays.r_in]
type = "float"
size = "n * n"
fill = "distance(i / n, i % n)"

[arrays.d_out]
type = "float"
size = "2 * padded(n) * padded(n)"
fill = "0"
expect = "padded_input(i, n)"
*/
#include <cmath>
#include <cstddef>

__global__ void mykernel(float* r, const float* d, int n, int nn) {
    int ia = threadIdx.x;
    int ja = threadIdx.y;
    int ic = blockIdx.x;
    int jc = blockIdx.y;
    const float* t = d + nn * nn;
    float v[8][8];
    for (int ib = 0; ib < 8; ++ib) {
        for (int jb = 0; jb < 8; ++jb) {
            v[ib][jb] = HUGE_VALF;
        }
    }
    for (int k = 0; k < n; ++k) {
        float x[8];
        float y[8];
        for (int ib = 0; ib < 8; ++ib) {
            int i = ic * 64 + ib * 8 + ia;
            x[ib] = t[nn*k + i];
        }
        for (int jb = 0; jb < 8; ++jb) {
            int j = jc * 64 + jb * 8 + ja;
            y[jb] = d[nn*k + j];
        }
        for (int ib = 0; ib < 8; ++ib) {
            for (int jb = 0; jb < 8; ++jb) {
                v[ib][jb] = min(v[ib][jb], x[ib] + y[jb]);
            }
        }
    }
    for (int ib = 0; ib < 8; ++ib) {
        for (int jb = 0; jb < 8; ++jb) {
            int i = ic * 64 + ib * 8 + ia;
            int j = jc * 64 + jb * 8 + ja;
            if (i < n && j < n) {
                r[n*i + j] = v[ib][jb];
            }
        }
    }
}

__global__ void myppkernel(const float* r, float* d, int n, int nn) {
    int ja = threadIdx.x;
    int i = blockIdx.y;
    float* t = d + nn * nn;
    for (int jb = 0; jb < nn; jb += 64) {
        int j = jb + ja;
        float v = (i < n && j < n) ? r[n*i + j] : HUGE_VALF;
        d[nn*i + j] = v;
        t[nn*j + i] = v;
    }
}

// The description's helpers (host code).
long padded(long n) { return (n + 63) / 64 * 64; }
float distance(long i, long j) { return i == j ? 0.0f : float((7 * i + 3 * j) % 29 + 1); }
// Element e of d as myppkernel leaves it: the padded input, then its transpose; HUGE_VALF outside.
float padded_input(long e, long n) {
  const long nn = padded(n), half = nn * nn;
  const bool transposed = e >= half;
  const long at = transposed ? e - half : e;
  long i = at / nn, j = at % nn;
  if (transposed) {
    const long x = i;
    i = j, j = x;
  }
  return i < n && j < n ? distance(i, j) : HUGE_VALF;
}
float shortcut(long e, long n) {
  const long i = e / n, j = e % n;
  float best = HUGE_VALF;
  for (long k = 0; k < n; ++k) best = std::fmin(best, distance(i, k) + distance(k, j));
  return best;
}
