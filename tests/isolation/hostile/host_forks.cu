// Host code that starts processes that never end (one per element), then never returns: the run
// process's whole group is stopped at the time limit.
// expect: did not finish in
#include <unistd.h>

int input(unsigned i) {
  if (i < 8 && fork() == 0)
    for (;;) pause();
  if (i == 8)
    for (volatile bool spin = true; spin;) {
    }
  return int(i);
}

__global__ void host_forks(int* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * y[i];
}

/* warpscope
kernel = "host_forks"
n = 256
block = 128
args = ["y", "n"]

[arrays.y]
type = "int"
size = "n"
fill = "input(i)"
expect = "2 * int(i)"
*/
