// What one lane operation of each kind costs the emulator: a loop of K operations per thread,
// minus the same kernel with K = 0 (the threads' start and exit), over the lane operations.
//
//   build/bench/bench_emu_ops [--kind NAME] [--k K] [--grid G] [--reps R]
//
// Kinds: shuffle (__shfl_down_sync by one: the lane above has run first, so no lane waits: eager
// shuffles), load (a shared load into a register: the lane waits for its warp's turn), load-ro (a load of a read-only global array: the lane reads
// at once and runs on), store (queued, the lane runs on), barrier (__syncthreads), diverge (an
// if/else on odd/even lanes around a shared load: two half-warp instructions per iteration).
// Blocks of 256 threads, 16 of them unless --grid says, one worker. Prints ns per lane operation
// (medians over R runs); under `valgrind --tool=callgrind --toggle-collect=*run_kind*` the
// instruction count per lane operation is (Ir(K) - Ir(0)) / (threads * K).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ws/emu/launch.h"

namespace {

constexpr unsigned kBlock = 256;
unsigned g_grid = 16;  // --grid

__global__ void op_shuffle(ws::global_array<int> out, unsigned k) {
  int v = int(threadIdx.x);
  for (unsigned i = 0; i < k; ++i) v += __shfl_down_sync(0xffffffffu, v, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void op_load(ws::global_array<int> out, unsigned k) {
  __shared__ ws::shared_array<int, kBlock, "s"> s;
  s[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  int v = 0;
  for (unsigned i = 0; i < k; ++i) v += s[(threadIdx.x + i) % kBlock];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void op_load_ro(ws::global_array<const int> in, ws::global_array<int> out, unsigned k) {
  int v = 0;
  for (unsigned i = 0; i < k; ++i) v += in[(threadIdx.x + i) % kBlock];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void op_store(ws::global_array<int> out, unsigned k) {
  __shared__ ws::shared_array<int, kBlock, "s"> s;
  for (unsigned i = 0; i < k; ++i) s[threadIdx.x] = int(i);
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void op_barrier(ws::global_array<int> out, unsigned k) {
  for (unsigned i = 0; i < k; ++i) __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void op_diverge(ws::global_array<int> out, unsigned k) {
  __shared__ ws::shared_array<int, kBlock + 1, "s"> s;
  s[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  int v = 0;
  for (unsigned i = 0; i < k; ++i) {
    if (threadIdx.x % 2) v += s[threadIdx.x];
    else v -= s[threadIdx.x + 1];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

const std::vector<std::string> kKinds = {"shuffle", "load", "load-ro", "store", "barrier", "diverge"};

// Runs one launch of `kind` with k operations per thread; returns seconds (0 on failure).
[[gnu::noinline]] double run_kind(const std::string& kind, unsigned k) {
  ws::emu::Memory mem;
  auto out = mem.alloc<int>("out", g_grid * kBlock);
  auto in = mem.upload<int>("in", std::vector<int>(kBlock, 1));
  ws::emu::LaunchOptions o;
  o.grid = {g_grid, 1, 1};
  o.block = {kBlock, 1, 1};
  o.workers = 1;
  o.record.blocks = {0};  // the viewer's default
  o.read_only = {0, 1};   // by allocation id: `in` is read-only, as the catalog marks a const view
  std::function<void()> body;
  if (kind == "shuffle") body = [=] { op_shuffle(out, k); };
  else if (kind == "load") body = [=] { op_load(out, k); };
  else if (kind == "load-ro") body = [=] { op_load_ro(in, out, k); };
  else if (kind == "store") body = [=] { op_store(out, k); };
  else if (kind == "barrier") body = [=] { op_barrier(out, k); };
  else body = [=] { op_diverge(out, k); };
  const auto t0 = std::chrono::steady_clock::now();
  const ws::emu::LaunchResult r = ws::emu::launch(mem, o, {}, body);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.ok()) {
    std::fprintf(stderr, "%s k=%u failed: %s\n", kind.c_str(), k,
                 r.trace.diagnostics.empty() ? "?" : r.trace.diagnostics[0].message.c_str());
    std::exit(1);
  }
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> kinds = kKinds;
  unsigned k = 64;
  int reps = 7;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--kind" && value && std::find(kKinds.begin(), kKinds.end(), value) != kKinds.end()) {
      kinds = {value}, ++i;
    } else if (a == "--k" && value && std::atoi(value) >= 1 && std::atoi(value) <= 4096) {
      k = unsigned(std::atoi(value)), ++i;
    } else if (a == "--grid" && value && std::atoi(value) >= 1 && std::atoi(value) <= 65535) {
      g_grid = unsigned(std::atoi(value)), ++i;
    } else if (a == "--reps" && value && std::atoi(value) >= 1) {
      reps = std::atoi(value), ++i;
    } else {
      std::fprintf(stderr,
                   "usage: bench_emu_ops [--kind shuffle|load|load-ro|store|barrier|diverge] [--k 1..4096] "
                   "[--grid 1..65535] [--reps R>=1]\n(got '%s')\n",
                   a.c_str());
      return 2;
    }
  }
  run_kind("barrier", 1);  // (maps the stacks once, before anything is timed)
  std::printf("emulator cost per lane operation: %u blocks x %u threads, %u operations per thread, 1 worker\n",
              g_grid, kBlock, k);
  std::printf("%-10s %12s %12s %16s\n", "kind", "launch ms", "K = 0 ms", "ns per lane op");
  for (const std::string& kind : kinds) {
    std::vector<double> with, without;
    for (int i = 0; i < reps; ++i) {
      with.push_back(run_kind(kind, k));
      without.push_back(run_kind(kind, 0));
    }
    const double w = median(with), z = median(without);
    const double lane_ops = double(g_grid) * kBlock * k;
    std::printf("%-10s %12.2f %12.2f %16.1f\n", kind.c_str(), w * 1e3, z * 1e3, (w - z) / lane_ops * 1e9);
  }
  return 0;
}
