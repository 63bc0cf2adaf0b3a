// A kernel file whose host code starts a process that never ends (with `--param fork=1`), writes
// its pid to $WS_TEST_PID_FILE and then loops: when the time limit stops the run process, the
// process it started must be stopped with it (the run process has its own process group).
#include "ws/kernel.cuh"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

__global__ void host_fork(ws::global_array<float> y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * y[i];
}

float input(unsigned i, long fork_one) {
  if (fork_one && i == 0) {
    if (const pid_t pid = fork(); pid == 0) {
      for (;;) pause();
    } else if (const char* path = std::getenv("WS_TEST_PID_FILE")) {
      if (FILE* f = std::fopen(path, "w")) {
        std::fprintf(f, "forked %d\n", int(pid));
        std::fclose(f);
      }
    }
    for (volatile bool spin = true; spin;) {
    }
  }
  return float(i % 5);
}

/* warpscope
kernel = "host_fork"
n = 64
block = 64
args = ["y", "n"]

[params.fork]
min = 0
max = 1
default = 0

[arrays.y]
type = "float"
size = "n"
fill = "input(i, fork)"
expect = "2.0f * float(i % 5)"
*/
