// `warpscope bench`: kernels timed on this GPU (gpu-fast, CUDA events) beside the device's measured
// ceilings and a library reference (the same ws::timing functions the Timing panel uses).
//
//   warpscope bench                                   # the lecture's reduction table, 2^28 and 2^24 ints
//   warpscope bench --json --n 16777216               # one size, machine-readable
//   warpscope bench -k transpose                      # every variant at 8192 x 8192, vs the copy
//   warpscope bench -k matadd -v row --block 16,16 --block 128,2   # seed 000's experiment
//   warpscope bench -k matmul --n 4096                # GFLOP/s beside cuBLAS
//
// Exit codes: 0 measured (every row ran and passed), 1 no GPU / a failed check / a fault,
// 2 bad options.
#include "bench.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "ws/run/launch_text.h"
#include "ws/timing/recording.h"
#include "ws/timing/timing.h"

#include <ctime>
#include <fstream>
#include <iterator>

namespace ws::app {

namespace {

struct BenchOptions {
  CLI::App* cmd = nullptr;
  bool json = false;
  std::vector<uint64_t> sizes;
  std::vector<std::string> blocks;
  std::string dtype;
  unsigned reps = 30, warmup = 3;
  std::string kernel;
  std::vector<std::string> variants, params;
  std::string save;          // --save FILE: a timing recording (ws/timing/recording.h)
};

// This run's command line, as the recording's label says how it was made ("warpscope bench ...").
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), out;
  size_t at = 0;
  for (int k = 0; at < all.size(); ++k) {
    const size_t end = std::min(all.find('\0', at), all.size());
    const std::string word = all.substr(at, end - at);
    out += (k ? " " : "") + (k == 0 ? std::string("warpscope") : word);
    at = end + 1;
  }
  return out;
}

BenchOptions& options() {
  static BenchOptions o;
  return o;
}

// `--save FILE`: the tables measured, with the card, the date and the command (recording.h).
int save_recording(const BenchOptions& o, const nlohmann::json& out) {
  if (o.save.empty()) return 0;
  timing::TimingRecording r;
  r.device = timing::device().name;
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  r.recorded = stamp;
  r.command = command_line();
  try {
    if (out.contains("tables"))
      for (const nlohmann::json& t : out["tables"]) r.reductions.push_back(timing::reduction_table_from_json(t));
    if (out.contains("kernel_tables"))
      for (const nlohmann::json& t : out["kernel_tables"]) r.kernels.push_back(timing::kernel_table_from_json(t));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warpscope: bench --save: %s\n", e.what());
    return 1;
  }
  if (std::string err = timing::save_timing_recording(o.save, r); !err.empty()) {
    std::fprintf(stderr, "warpscope: bench --save: %s\n", err.c_str());
    return 1;
  }
  std::fprintf(stderr, "warpscope: wrote %s (%zu tables, recorded on %s)\n", o.save.c_str(),
               r.reductions.size() + r.kernels.size(), r.device.c_str());
  return 0;
}

// -k KERNEL: that kernel's variants (or -v), block shapes (--block, repeatable), sizes (--n).
int bench_kernel(const BenchOptions& o, nlohmann::json& out) {
  const CatalogEntry* e = Catalog::instance().find(o.kernel);
  if (!e) {
    std::string list;
    for (const CatalogEntry& x : Catalog::instance().entries()) list += (list.empty() ? "" : ", ") + x.spec.name;
    std::fprintf(stderr, "warpscope: bench -k %s: no such kernel (kernels: %s)\n", o.kernel.c_str(), list.c_str());
    return 2;
  }
  RunConfig lab;
  LaunchText text;
  text.dtype = o.dtype;
  text.params = o.params;
  if (std::string err = apply_launch_text(text, lab); !err.empty()) {
    std::fprintf(stderr, "warpscope: bench: %s\n", err.c_str());
    return 2;
  }
  std::vector<Dim3> blocks;
  for (const std::string& b : o.blocks) {
    Dim3 d;
    if (std::string err = parse_dim3(b, "--block", d); !err.empty()) {
      std::fprintf(stderr, "warpscope: bench: %s\n", err.c_str());
      return 2;
    }
    blocks.push_back(d);
  }
  for (const std::string& v : o.variants)
    if (!e->spec.variant(v)) {
      std::string ids;
      for (const VariantSpec& x : e->spec.variants) ids += (ids.empty() ? "" : ", ") + x.id;
      std::fprintf(stderr, "warpscope: bench: kernel '%s' has no variant '%s' (variants: %s)\n", o.kernel.c_str(), v.c_str(), ids.c_str());
      return 2;
    }
  // The lab's defaults stand for the launch shape (the first block given, else the kernel's); a
  // first variant that does not take the first block (transpose rows and 32,32) falls back to its
  // own shape for that width, then to the kernel's first variant.
  if (!blocks.empty()) lab.block = blocks.front();
  if (!o.variants.empty()) lab.variant = o.variants.front();
  lab.block = timing::block_for_variant(Catalog::instance(), o.kernel, lab);
  if (!timing::timing_launch(Catalog::instance(), o.kernel, lab).error.empty() && !lab.variant.empty()) {
    RunConfig first = lab;
    first.variant.clear();
    if (timing::timing_launch(Catalog::instance(), o.kernel, first).error.empty()) lab = first;
  }
  std::vector<uint64_t> sizes = o.sizes;
  for (uint64_t n : sizes)
    if (n == 0 || n > 0xffffffffull) {
      std::fprintf(stderr, "warpscope: bench: --n %llu: n is a whole number from 1 to 4294967295\n", static_cast<unsigned long long>(n));
      return 2;
    }
  if (sizes.empty()) sizes.push_back(0);
  const timing::Device& d = timing::device();
  if (!d.present) {
    std::fprintf(stderr, "warpscope: bench times kernels on a CUDA GPU, and there is none: %s\n", d.why_not.c_str());
    return 1;
  }
  out["device"] = timing::to_json(d);
  bool all_pass = true;
  for (uint64_t n : sizes) {
    auto progress = [&](const std::string& what) {
      if (!o.json) std::fprintf(stderr, "  %s\n", what.c_str());
    };
    const timing::KernelTable t =
        timing::time_kernel(Catalog::instance(), o.kernel, lab, o.variants, blocks, n, {o.warmup, o.reps, true}, progress);
    if (!t.launch.error.empty()) {
      std::fprintf(stderr, "warpscope: bench -k %s: %s\n", o.kernel.c_str(), t.launch.error.c_str());
      return 2;
    }
    for (const timing::KernelRow& r : t.rows) all_pass &= r.m.ok && r.m.passed;
    out["kernel_tables"].push_back(timing::to_json(t));
    if (!o.json) std::printf("%s\n", timing::format_kernel_table(t, timing::device()).c_str());
  }
  return all_pass ? 0 : 1;
}

int cmd_bench(const BenchOptions& o) {
  if (!o.kernel.empty()) {
    nlohmann::json out;
    const int rc = bench_kernel(o, out);
    if (o.json && !out.is_null()) std::printf("%s\n", out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    if (rc == 2 || out.is_null()) return rc;
    const int saved = save_recording(o, out);
    return saved ? saved : rc;
  }
  if (o.kernel.empty() && (!o.variants.empty() || !o.params.empty())) {
    std::fprintf(stderr, "warpscope: bench: -v and --param choose a kernel's variants and parameters: name the kernel with -k\n");
    return 2;
  }
  uint32_t block = 256;
  if (o.kernel.empty()) {
    if (o.blocks.size() > 1) {
      std::fprintf(stderr, "warpscope: bench: the reduction table takes one --block (64, 128, 256, 512 or 1024)\n");
      return 2;
    }
    if (!o.blocks.empty()) {
      uint64_t b = 0;
      if (!parse_whole(o.blocks.front(), "--block", 64, 1024, b).empty() || (b & (b - 1))) {
        std::fprintf(stderr, "warpscope: bench: --block %s: the reduction table takes 64, 128, 256, 512 or 1024\n",
                     o.blocks.front().c_str());
        return 2;
      }
      block = uint32_t(b);
    }
    if (!o.dtype.empty() && o.dtype != "int" && o.dtype != "float") {
      std::fprintf(stderr, "warpscope: bench: --dtype %s: the reduction table takes int or float\n", o.dtype.c_str());
      return 2;
    }
  }
  std::vector<uint64_t> sizes = o.sizes;
  if (sizes.empty()) sizes = {1ull << 28, 1ull << 24};
  for (uint64_t n : sizes)
    if (n == 0 || n > (1ull << 31)) {
      std::fprintf(stderr, "warpscope: --n %llu: the reductions take 1 to 2^31 elements\n", static_cast<unsigned long long>(n));
      return 2;
    }
  const timing::Device& d = timing::device();
  if (!d.present) {
    std::fprintf(stderr, "warpscope: bench times kernels on a CUDA GPU, and there is none: %s\n", d.why_not.c_str());
    return 1;
  }
  if (!o.json) std::fprintf(stderr, "measuring the device's ceilings...\n");
  const timing::Ceilings c = timing::measure_ceilings();
  if (!c.ok) {
    std::fprintf(stderr, "warpscope: measuring the ceilings failed: %s\n", c.error.c_str());
    return 1;
  }
  nlohmann::json out;
  out["device"] = timing::to_json(d);
  out["ceilings"] = timing::to_json(c);
  bool all_pass = true;
  const std::string dtype = o.dtype.empty() ? "int" : o.dtype;
  for (uint64_t n : sizes) {
    auto progress = [&](const std::string& what) {
      if (!o.json) std::fprintf(stderr, "  %s\n", what.c_str());
    };
    const timing::ReductionTable t = timing::time_reductions(Catalog::instance(), n, dtype, block, c, {o.warmup, o.reps, true}, progress);
    for (const timing::TableRow& r : t.rows) all_pass &= r.m.ok && r.m.passed;
    out["tables"].push_back(timing::to_json(t));
    if (!o.json) std::printf("%s\n", timing::format_table(t).c_str());
  }
  if (o.json) std::printf("%s\n", out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  const int saved = save_recording(o, out);
  return saved ? saved : all_pass ? 0 : 1;
}

}  // namespace

void register_bench(CLI::App& app) {
  BenchOptions& o = options();
  o.cmd = app.add_subcommand("bench",
                             "Time kernels on the GPU (gpu-fast, CUDA events) against the device's measured read and copy "
                             "ceilings (or its FP32 peak) and a library reference. Without -k: every reduction variant and "
                             "CUB, the lecture's table (needs a CUDA GPU)");
  o.cmd->add_flag("--json", o.json, "Machine-readable output");
  o.cmd->add_option("--save", o.save,
                    "Also write the tables as a timing recording (card, date, command): what the Timing panel shows "
                    "where there is no GPU (assets/timing/)")
      ->type_name("FILE");
  o.cmd->add_option("-k,--kernel", o.kernel, "Time this kernel's variants at its timing size (see `warpscope list`)");
  o.cmd->add_option("-v,--variant", o.variants, "With -k: only these variants (repeatable; the reference is added)");
  o.cmd->add_option("--n", o.sizes,
                    "Sizes (repeatable): elements, or a matrix's side (default: the kernel's timing size; reductions "
                    "268435456 and 16777216)")
      ->type_name("N");
  o.cmd->add_option("--block", o.blocks, "Block shape X[,Y[,Z]] (repeatable with -k: one row per shape; default 256)");
  o.cmd->add_option("--param", o.params, "With -k: NAME=VALUE, a kernel parameter (repeatable)");
  o.cmd->add_option("--dtype", o.dtype, "Element type (the reduction table: int or float; default the kernel's first)");
  o.cmd->add_option("--reps", o.reps, "Timed replays per variant (default 30)")->check(CLI::Range(1, 10000));
  o.cmd->add_option("--warmup", o.warmup, "Untimed replays first (default 3)")->check(CLI::Range(0, 1000));
}

int run_bench_if_selected() {
  const BenchOptions& o = options();
  if (o.cmd && o.cmd->parsed()) return cmd_bench(o);
  return -1;
}

}  // namespace ws::app
