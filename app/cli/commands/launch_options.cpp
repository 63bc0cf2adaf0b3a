#include "launch_options.h"
#include "cli/scale_check.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "model/device_probe.h"
#include "ws/kernel_file/build.h"

namespace ws::app {

void LaunchOptions::add_to(CLI::App& cmd, bool kernel_required) {
  (void)kernel_required;  // (checked by load_kernel_file: --kernel or --file)
  auto* k = cmd.add_option("--kernel,-k", kernel, "Catalog kernel (see `warpscope list`)");
  cmd.add_option("--file", file, "A kernel file (.cu with a /* warpscope ... */ launch description, docs/writing-kernels.md): "
                                 "built and run instead of a catalog kernel")
      ->excludes(k);
  cmd.add_option("--variant,-v", launch.variant, "Variant id or name (default: the kernel's first)");
  cmd.add_option("--n", launch.n, "Problem size, 1 to 4294967295 (default: the kernel's)");
  cmd.add_option("--block", launch.block, "Block shape X[,Y[,Z]], each >= 1 (default: the kernel's)");
  cmd.add_option("--grid", launch.grid, "Grid shape X[,Y[,Z]] (default: the kernel's launch rule)");
  cmd.add_option("--dtype", launch.dtype, "Element type, e.g. int or float (default: the kernel's first)");
  cmd.add_option("--seed", launch.seed, "Seed of the random input (default 1)");
  cmd.add_option("--param", launch.params, "Kernel parameter NAME=VALUE (repeatable)");
  cmd.add_option("--backend", backend, "emu (CPU emulator), gpu-fast or gpu-trace")
      ->check(CLI::IsMember({"emu", "gpu-fast", "gpu-trace"}))
      ->capture_default_str();
  cmd.add_option("--workers", launch.workers, "Emulator worker threads, 0 (one per core, the default) to 1024");
  cmd.add_option("--step-budget", launch.step_budget,
                 "Emulator: warp instructions one block may issue before it is stopped as a runaway (default 4194304; "
                 "1000 to 2^40)");
  cmd.add_option("--blocks", launch.blocks, "Blocks to record in full: all, or a list like 0,1,7 (default: all)");
  cmd.add_flag("--no-counters", no_counters,
               "With --blocks: record only those blocks, without the per-site counters of every block that give "
               "the whole grid's numbers (gpu-trace: much cheaper for barrier-heavy kernels; emu: about 15% "
               "cheaper)");
  cmd.add_option("--timeout", timeout,
                 "Run the kernel in a separate process and stop it after SECONDS (a kernel that never ends, a kernel "
                 "file's host code in an endless loop or crashing): the command then fails and says so. Default: in "
                 "this process, no limit")
      ->check(seconds_check())
      ->type_name("SECONDS");
  cmd.add_option("--max-events", launch.max_events,
                 "Cap on recorded warp instructions; past it the trace is marked truncated (default 4000000)");
}

std::string LaunchOptions::to_config(RunConfig& cfg, BackendKind& be) const {
  if (std::string err = apply_launch_text(launch, cfg); !err.empty()) return err;
  cfg.record.count_every_block = !no_counters;
  be = backend == "gpu-fast" ? BackendKind::GpuFast : backend == "gpu-trace" ? BackendKind::GpuTrace : BackendKind::Emu;
  return {};
}

std::string load_kernel_file(LaunchOptions& opt, bool required, bool gpu) {
  if (opt.file.empty()) return required && opt.kernel.empty() ? "give a catalog kernel (--kernel K, see `warpscope list`) or a kernel file (--file FILE.cu)" : "";
  kernel_file::BuildOptions bo;
  bo.gpu = gpu || opt.backend != "emu";
  bo.device = bo.gpu ? probe_backend() : std::string();
  // (Without a device the GPU builds could not run anyway, and nvcc -arch=native needs one.)
  if (bo.gpu && !cuda_device_present())
    return "warpscope: --file with the " + (gpu ? std::string("GPU") : opt.backend) +
           " backend needs a CUDA device, and there is none here: the emulator runs kernel files (--backend emu)";
  std::string error;
  opt.kernel = kernel_file::load(opt.file, Catalog::instance(), bo, error);
  return opt.kernel.empty() ? error : "";
}

int run_kernel(const LaunchOptions& opt, RunResult& result, bool quiet) {
  RunConfig cfg;
  BackendKind backend{};
  if (std::string err = opt.to_config(cfg, backend); !err.empty()) {
    std::fprintf(stderr, "warpscope: %s\n", err.c_str());
    return 2;
  }
  result = Catalog::instance().run(opt.kernel, cfg, backend);
  if (!result.refused.empty()) {
    std::fprintf(stderr, "warpscope: refused: %s\n", result.refused.c_str());
    return 2;
  }
  if (!result.errors.empty() && !quiet) {
    for (const Diagnostic& d : result.errors)
      std::fprintf(stderr, "warpscope: %s: %s\n", d.code.c_str(), d.message.c_str());
  }
  return 0;
}

}  // namespace ws::app
