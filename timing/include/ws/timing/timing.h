// warpscope timing: how fast the real kernels run. The data model behind the Timing panel and
// `warpscope bench` (both call these functions; neither measures anything itself).
//
//   gpu-fast run ──(RunConfig::timing: replays between CUDA events)──► samples ──► TimingStats
//   device ceilings (copy, read-only stream) ──► "% of what this GPU can do"
//
// Without a GPU (or in a build without CUDA) every measurement comes back with ok = false and
// the reason, and count_variants() gives the emulator's counts instead: instructions, wavefronts
// and sectors per variant, which are counts, not time.
//
//   ws::timing::Ceilings c = ws::timing::measure_ceilings();
//   ws::RunConfig cfg;  cfg.variant = "9";  cfg.n = 1 << 24;
//   ws::timing::Measurement m = ws::timing::measure(catalog, "reduce", cfg, {.warmup = 3, .reps = 30});
//   if (m.ok) printf("%s: %.3f ms, %.0f GB/s, %.0f%% of the read ceiling\n", m.variant.c_str(),
//                    m.stats.median, m.gbps, 100 * m.gbps / c.read_gbps);
#pragma once

#include <type_traits>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ws/analysis/timing.h"
#include "ws/run/catalog.h"

namespace ws::timing {

// --- The device ----------------------------------------------------------------------------------

struct Device {
  bool present = false;
  std::string why_not;  // "no CUDA device (...)", "this build has no CUDA"
  std::string name;
  int cc_major = 0, cc_minor = 0, sm_count = 0;
  uint64_t l2_bytes = 0, memory_bytes = 0;
  int sm_clock_mhz = 0, mem_clock_mhz = 0, bus_width_bits = 0;
  // 2 transfers per memory clock x bus width: the datasheet figure, which nothing reaches.
  double theoretical_gbps() const { return 2.0 * mem_clock_mhz * 1e6 * bus_width_bits / 8 / 1e9; }
  // FP32 lanes per SM for this compute capability (64 on Volta, Turing and A100; 128 on the
  // GeForce Ampere, Ada, Hopper and Blackwell SMs); 0 when unknown.
  int fp32_lanes_per_sm() const;
  // The datasheet's FP32 peak: SMs x lanes x 2 (a fused multiply-add is two flops) x the boost
  // clock, in GFLOP/s. A ceiling computed from the clocks, not measured.
  double fp32_peak_gflops() const { return 2.0 * sm_count * fp32_lanes_per_sm() * sm_clock_mhz / 1e3; }
};
// Device's fields, listed once (the run process's answer about the GPU goes through them:
// ws/trace/field_codec.h).
template <class R, class Visit>
  requires std::is_same_v<std::remove_const_t<R>, Device>
void visit_fields(R& d, Visit&& v) {
  v("present", d.present);
  v("why_not", d.why_not);
  v("name", d.name);
  v("cc_major", d.cc_major);
  v("cc_minor", d.cc_minor);
  v("sm_count", d.sm_count);
  v("l2_bytes", d.l2_bytes);
  v("memory_bytes", d.memory_bytes);
  v("sm_clock_mhz", d.sm_clock_mhz);
  v("mem_clock_mhz", d.mem_clock_mhz);
  v("bus_width_bits", d.bus_width_bits);
}
const Device& device();

struct Ceilings {
  bool ok = false;
  std::string error;
  uint64_t bytes = 0;
  double copy_gbps = 0;  // device-to-device cudaMemcpy: (read + written) bytes / median time
  double read_gbps = 0;  // read-only streaming kernel: read bytes / median time
  analysis::TimingStats copy, read;
  std::string read_grid;  // "1056 x 256"
};
// About a second on a large GPU. Thread-safe (takes the GPU for the whole measurement).
Ceilings measure_ceilings(uint64_t bytes = 1ull << 30, unsigned reps = 15);

// --- One timed run -------------------------------------------------------------------------------

struct Repeats {
  unsigned warmup = 3;
  unsigned reps = 30;
  bool flush_l2 = true;
  // A kernel that runs for seconds (a 4000^3 min-plus) stops after this much timed work, with at
  // least 3 samples; its warm-up stops after one replay that takes over a tenth of it. 0: no cap.
  double max_ms = 3000;
  // Keep the run on the device (Measurement::replay) for measure_again(): live timing.
  bool keep = false;
};

struct Measurement {
  std::string kernel, variant, variant_name;
  RunConfig config;          // as run (n, block, params)
  bool ok = false;           // timed
  std::string error;         // why not: refused, no GPU, a fault
  bool passed = false;       // the run's result matched the CPU reference
  std::string check;         // "exact (int)", ...
  std::vector<double> samples;  // ms, one per replay
  analysis::TimingStats stats;
  uint64_t bytes = 0;        // the run's minimal traffic (RunTiming::bytes)
  double gbps = 0;           // bytes / median
  double flops = 0;          // the run's arithmetic (TimingSpec::flops; 0: bandwidth-bound)
  double gflops = 0;         // flops / median
  unsigned launches = 0;     // kernel launches (and library calls) per replay
  std::string tuning;        // how the grid was chosen, e.g. "per_thread = 64 (best of 8..256)"
  std::shared_ptr<Replay> replay;  // with Repeats::keep: the run kept on the device
};
// Runs `kernel` on gpu-fast (checked against the CPU reference) and times `reps` replays of its
// GPU work. Never throws; a refusal or a fault comes back in `error`.
Measurement measure(const Catalog& catalog, const std::string& kernel, RunConfig cfg, Repeats r = {});
// `first` (measured with Repeats::keep) timed again from its kept replay: only the replays run,
// no inputs made, uploaded or checked (its check and launch are `first`'s). A live point in
// milliseconds where a full run of a 8192 x 8192 transpose takes seconds.
Measurement measure_again(const Measurement& first, Repeats r = {});

using Progress = std::function<void(const std::string& what)>;

// --- The timing launch: the lab's run at a GPU's size --------------------------------------------

// The lab's variant, block shape, dtype, seed and lesson parameters at the kernel's timing size,
// with its device-tuning parameters (KernelSpec::timing), and what was changed and why.
//
//   RunConfig lab;  lab.variant = "padded";  lab.n = 96;  lab.block = {32, 32, 1};
//   TimingLaunch t = timing_launch(catalog, "transpose", lab);
//   // t.config.n == 8192; t.changes == {"n 96 -> 8192 (8192 x 8192; the lab's size is for the emulator)"}
struct TimingLaunch {
  std::string kernel;
  RunConfig config;
  std::vector<std::string> changes;  // one line each
  std::string name;                  // "transpose padded, 8192 x 8192, block 32x32, float"
  std::string error;                 // the kernel or the lab's run does not resolve
};
// n = 0: the kernel's timing size (TimingSpec::n); a kernel that does not scale keeps the lab's.
TimingLaunch timing_launch(const Catalog& catalog, const std::string& kernel, const RunConfig& lab, uint64_t n = 0);
// "8192 x 8192" for a matrix kernel, "2^24" or "1000000" for a vector one.
std::string size_text(const KernelSpec& s, uint64_t n);
// "32x8" (z shown when > 1).
std::string block_text(const Dim3& b);
// `cfg.block` if `cfg.variant` of `kernel` takes it; else, for a 2D block it does not take
// (transpose rows and 32x32), the 1D block of the same width, which a variant shapes its own way
// (32 -> 32x8); else `cfg.block` (the run then says why it is refused).
Dim3 block_for_variant(const Catalog& catalog, const std::string& kernel, const RunConfig& cfg);

// --- Any kernel's table: its variants (and block shapes) against its ceiling and its reference ----

struct KernelRow {
  Measurement m;
  double pct_of_ceiling = 0;  // GB/s over the same-size read or copy, or GFLOP/s over the FP32 peak
  double vs_reference = 0;    // the reference's time / this one's (> 1: faster than the reference)
};
struct KernelTable {
  std::string kernel;
  TimingLaunch launch;            // the base launch (each row changes its variant and block)
  TimingSpec::Ceiling ceiling = TimingSpec::Ceiling::Read;
  Ceilings same_size;             // read stream / copy over the table's bytes (bandwidth ceilings)
  double fp32_peak_gflops = 0;    // datasheet (compute ceilings)
  std::string reference;          // a variant id ("cub", "cublas"), "copy", or ""
  std::vector<KernelRow> rows;
  bool complete = false;          // every row was attempted (not cancelled)
  bool compute() const { return ceiling == TimingSpec::Ceiling::Fp32; }
  std::string ceiling_name() const;  // "read stream", "device-to-device copy", "FP32 peak (datasheet)"
  // A row's block as the table shows it: "32x8", or "library" for the reference's own launches.
  std::string block_of(const KernelRow& r) const;
};
// Times `variants` (empty: every variant that is not broken, the reference among them) for each
// block in `blocks` (empty: the lab's), at the timing launch of `lab` with size `n` (0: the
// kernel's). A row that is refused or faults keeps its error and the table goes on.
KernelTable time_kernel(const Catalog& catalog, const std::string& kernel, const RunConfig& lab, std::vector<std::string> variants,
                        std::vector<Dim3> blocks, uint64_t n = 0, Repeats r = {}, const Progress& progress = {},
                        const std::atomic<bool>* cancel = nullptr);
// Fills pct_of_ceiling and vs_reference from the rows (time_kernel calls it; tests too).
void fill_ratios(KernelTable& t);
// Text: variant, block, median, spread, GB/s or GFLOP/s, % of the ceiling, x the reference, check.
std::string format_kernel_table(const KernelTable& t, const Device& d);

// --- The lecture's table (seed 003) --------------------------------------------------------------

// Mark Harris's numbers for his kernels 1-7: 2^22 ints on a GeForce 8800 GTX (G80), 86.4 GB/s peak.
struct G80Row {
  const char* variant;
  double ms, gbps;
  double step_speedup, cumulative_speedup;  // 0 for kernel 1
};
std::span<const G80Row> g80_reference();
const G80Row* g80_row(const std::string& variant);

struct TableRow {
  Measurement m;
  double step_speedup = 0;        // previous lecture step's time / this one's (0: first or n/a)
  double cumulative_speedup = 0;  // kernel 1's time / this one's
  double pct_of_read = 0;         // GB/s over ReductionTable::read_reference(), in percent
  double vs_cub = 0;              // CUB's time / this one's (> 1: faster than CUB)
};
struct ReductionTable {
  uint64_t n = 0;
  uint32_t block = 0;
  std::string dtype;
  Ceilings ceilings;  // the device's (large buffers), as given
  // The read-only stream over exactly the table's input bytes: "% of the read ceiling" is taken
  // against this one, since small inputs cannot reach the large-buffer ceiling (launch, tail).
  Ceilings same_size;
  const Ceilings& read_reference() const { return same_size.ok ? same_size : ceilings; }
  std::vector<TableRow> rows;  // lecture order: 1..10, then cub
  bool complete = false;       // every variant was attempted (not cancelled)
  const TableRow* best() const;  // the fastest passing variant other than cub
  const TableRow* cub() const;
};

// Times every non-broken reduction variant (and CUB) at `n`, and the read-only stream over the
// same bytes. For the grid-stride variants (7 to 10) each elements-per-thread value from 8 to 256
// is timed and the fastest kept (the choice is in Measurement::tuning).
// `cancel` (may be null) stops between variants.
ReductionTable time_reductions(const Catalog& catalog, uint64_t n, const std::string& dtype, uint32_t block, const Ceilings& ceilings,
                               Repeats r = {}, const Progress& progress = {},
                               const std::atomic<bool>* cancel = nullptr);
// Fills the speedup columns from the rows' medians (time_reductions calls it; tests too).
void fill_speedups(ReductionTable& t);
// The table as text, the columns of seed 003 plus % of the read ceiling and the ratio to CUB,
// with the G80 step speedups beside ours.
std::string format_table(const ReductionTable& t);

// --- Sweeps --------------------------------------------------------------------------------------

struct SweepPoint {
  int64_t x = 0;  // the block size or the parameter's value
  Measurement m;
  std::string label;  // the x axis's text: "256", "16x16"
};
// Times `variant` for each value of `axis`: "block" (the block size) or the name of one of the
// kernel's parameters (e.g. "per_thread").
std::vector<SweepPoint> sweep(const Catalog& catalog, const std::string& kernel, const RunConfig& base, const std::string& axis,
                              std::span<const int64_t> values, Repeats r = {}, const Progress& progress = {},
                              const std::atomic<bool>* cancel = nullptr);
// Times `base` with each block shape (seed 000's dim3(16,16) vs dim3(128,2)); x is the index.
std::vector<SweepPoint> sweep_blocks(const Catalog& catalog, const std::string& kernel, const RunConfig& base, std::span<const Dim3> blocks,
                                     Repeats r = {}, const Progress& progress = {},
                                     const std::atomic<bool>* cancel = nullptr);
// The block shapes a 2D sweep offers: the same 256 threads laid out 256x1 .. 1x256 and a few
// common tiles (16x16, 32x8, 8x32, 32x32, 128x2, 2x128), each accepted by `kernel`'s variant.
std::vector<Dim3> block_shapes_for(const Catalog& catalog, const std::string& kernel, const RunConfig& base);

// --- Without a GPU: the emulator's counts ----------------------------------------------------------

struct VariantCounts {
  std::string variant, variant_name;
  bool ok = false;
  std::string error;
  uint64_t warp_instructions = 0;  // memory and warp-synchronous instructions issued
  uint64_t barriers = 0;           // __syncthreads() passed, summed over every block
  uint64_t shared_wavefronts = 0, shared_conflicts = 0;
  uint64_t global_requests = 0, global_sectors = 0;
  double simd_efficiency = 0;
};
// Runs each variant of `kernel` (broken and GPU-only ones skipped) on the emulator with every
// block recorded, and counts. Keep n small (the lab's sizes): every block is recorded.
std::vector<VariantCounts> count_variants(const Catalog& catalog, const std::string& kernel, const RunConfig& base,
                                          const Progress& progress = {},
                                          const std::atomic<bool>* cancel = nullptr);

}  // namespace ws::timing
