#include "launch_options.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <sstream>

namespace ws::app {

bool parse_dim3(const std::string& text, Dim3& out) {
  Dim3 d{1, 1, 1};
  uint32_t* dims[3] = {&d.x, &d.y, &d.z};
  std::stringstream ss(text);
  std::string part;
  int i = 0;
  while (std::getline(ss, part, ',')) {
    if (i == 3 || part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 9)
      return false;
    *dims[i++] = uint32_t(std::stoul(part));
  }
  if (i == 0) return false;
  out = d;
  return true;
}

void LaunchOptions::add_to(CLI::App& cmd, bool kernel_required) {
  auto* k = cmd.add_option("--kernel,-k", kernel, "Catalog kernel (see `warpscope list`)");
  if (kernel_required) k->required();
  cmd.add_option("--variant,-v", variant, "Variant id or name (default: the kernel's first)");
  cmd.add_option("--n", n, "Problem size (default: the kernel's)");
  cmd.add_option("--block", block, "Block shape X[,Y[,Z]] (default: the kernel's)");
  cmd.add_option("--grid", grid, "Grid shape X[,Y[,Z]] (default: the kernel's launch rule)");
  cmd.add_option("--dtype", dtype, "Element type, e.g. int or float (default: the kernel's first)");
  cmd.add_option("--seed", seed, "Seed of the random input")->capture_default_str();
  cmd.add_option("--param", params, "Kernel parameter NAME=VALUE (repeatable)");
  cmd.add_option("--backend", backend, "emu (CPU emulator), gpu-fast or gpu-trace")
      ->check(CLI::IsMember({"emu", "gpu-fast", "gpu-trace"}))
      ->capture_default_str();
  cmd.add_option("--workers", workers, "Emulator worker threads (0 = one per core)")->capture_default_str();
  cmd.add_option("--blocks", blocks, "Blocks to record in full: all, or a list like 0,1,7 (default: all)");
  cmd.add_flag("--no-counters", no_counters,
               "With --blocks: record only those blocks, without the per-site counters of every block that give "
               "the whole grid's numbers (gpu-trace: much cheaper for barrier-heavy kernels; emu: about 15% "
               "cheaper)");
  cmd.add_option("--max-events", max_events, "Cap on recorded warp instructions; past it the trace is marked truncated")
      ->capture_default_str();
}

std::string LaunchOptions::to_config(RunConfig& cfg, BackendKind& be) const {
  cfg.variant = variant;
  cfg.n = n;
  cfg.dtype = dtype;
  cfg.seed = seed;
  cfg.emu.workers = workers;
  cfg.record.max_events = max_events;
  cfg.record.count_every_block = !no_counters;
  if (!block.empty() && !parse_dim3(block, cfg.block))
    return "--block '" + block + "' is not a block shape: write X, X,Y or X,Y,Z with positive integers (e.g. 256 or 16,16)";
  if (!grid.empty() && !parse_dim3(grid, cfg.grid))
    return "--grid '" + grid + "' is not a grid shape: write X, X,Y or X,Y,Z with positive integers";
  for (const std::string& p : params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0) return "--param '" + p + "' must be NAME=VALUE";
    const std::string name = p.substr(0, eq), value = p.substr(eq + 1);
    try {
      size_t used = 0;
      const long long v = std::stoll(value, &used);
      if (used != value.size()) throw std::invalid_argument(value);
      cfg.params[name] = v;
    } catch (const std::exception&) {
      return "--param " + name + ": '" + value + "' is not an integer";
    }
  }
  if (!blocks.empty() && blocks != "all") {
    std::stringstream ss(blocks);
    std::string part;
    while (std::getline(ss, part, ',')) {
      if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
        return "--blocks '" + blocks + "' must be 'all' or a comma-separated list of block indices";
      cfg.record.blocks.push_back(uint32_t(std::stoul(part)));
    }
  }
  be = backend == "gpu-fast" ? BackendKind::GpuFast : backend == "gpu-trace" ? BackendKind::GpuTrace : BackendKind::Emu;
  return {};
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
