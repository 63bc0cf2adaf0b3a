// A kernel file that writes down which process runs its code: its static initialiser when the
// build is loaded, and its fill when a run makes the input (to $WS_TEST_PID_FILE, one pid a
// line). warpscope's own process must never appear there.
#include "ws/kernel.cuh"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

static void write_pid(const char* what) {
  if (const char* path = std::getenv("WS_TEST_PID_FILE"))
    if (FILE* f = std::fopen(path, "a")) {
      std::fprintf(f, "%s %d\n", what, int(getpid()));
      std::fclose(f);
    }
}

static const int loaded = (write_pid("loaded"), 0);

__global__ void where_code_runs(ws::global_array<float> y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 3.0f * y[i];
}

float input(unsigned i) {
  if (i == 0) write_pid("filled");
  return float(i % 3);
}

/* warpscope
kernel = "where_code_runs"
n = 128
block = 64
args = ["y", "n"]

[arrays.y]
type = "float"
size = "n"
fill = "input(i)"
expect = "3.0f * float(i % 3)"
*/
