// What a save costs: each examples/ kernel file built from scratch (the build cache off; the
// precompiled prelude, made once, on) and run on the emulator, `reps` times; prints the median
// build and run times and their sum, the time from a save to new pictures (without the viewer's
// 0.3 s file check). With --gpu also the gpu-fast and gpu-trace builds (nvcc).
//
//   bench_kernel_file [--reps 5] [--gpu] [--dir examples]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "ws/kernel_file/build.h"
#include "ws/run/catalog.h"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 5;
  bool gpu = false;
  std::string dir = WS_EXAMPLES_DIR;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--gpu")) gpu = true;
  }
  setenv("WARPSCOPE_NO_BUILD_CACHE", "1", 1);
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".cu") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  // The precompiled prelude is made by the first build: not part of any row.
  ws::kernel_file::build(files.front(), {});
  std::printf("%-18s %10s %10s %12s%s\n", "file", "build s", "run ms", "save->run s", gpu ? "   gpu build s" : "");
  for (const std::string& f : files) {
    std::vector<double> build_s, run_ms, gpu_s;
    for (int r = 0; r < reps; ++r) {
      ws::kernel_file::Build b = ws::kernel_file::build(f, {});
      if (!b.ok) {
        std::printf("%s: %s\n", f.c_str(), b.summary.c_str());
        return 1;
      }
      build_s.push_back(b.seconds);
      if (std::string why = ws::kernel_file::install(b, ws::Catalog::instance()); !why.empty()) {
        std::printf("%s: %s\n", f.c_str(), why.c_str());
        return 1;
      }
      const auto t0 = std::chrono::steady_clock::now();
      const ws::RunResult res = ws::Catalog::instance().run(b.name, {}, ws::BackendKind::Emu);
      run_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (!res.completed) std::printf("%s: did not complete\n", f.c_str());
      if (gpu && r == 0) {
        ws::kernel_file::BuildOptions o;
        o.gpu = true;
        o.emu = true;
        const ws::kernel_file::Build g = ws::kernel_file::build(f, o);
        gpu_s.push_back(g.ok ? g.seconds : -1);
        if (!g.ok)
          for (const auto& d : g.diagnostics) std::fprintf(stderr, "%s: gpu build: %s\n", f.c_str(), ws::kernel_file::to_text(d).c_str());
      }
    }
    std::printf("%-18s %10.2f %10.1f %12.2f", std::filesystem::path(f).filename().c_str(), median(build_s), median(run_ms),
                median(build_s) + median(run_ms) / 1000);
    if (gpu) std::printf(" %13.1f", gpu_s.empty() ? -1.0 : gpu_s[0]);
    std::printf("\n");
  }
  return 0;
}
