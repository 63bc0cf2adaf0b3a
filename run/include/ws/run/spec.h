// What a kernel of the catalog is: its variants (the steps of a lecture), its parameters, its
// default launch and the element types it takes. A kernel states this once, in its entry's
// spec(); the viewer's labs, the command line and the timing all read it from here.
//
//   ws::KernelSpec s;
//   s.name = "bank";  s.title = "Shared-memory bank conflicts";
//   s.variants = {{"stride", "s[t * stride]", "stride 2 is a 2-way conflict, 33 none"}};
//   s.params = {{"stride", "words between lanes", 1, 64, 1, {}}};
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ws {

struct ParamSpec {
  std::string name;         // "stride"
  std::string description;  // one line
  double min = 0, max = 0, def = 0;  // whole numbers unless `real`
  std::vector<std::string> choices;  // when not empty: the value is an index into these
  bool real = false;                 // any number in [min, max] (a kernel file's `alpha = 2.5`)
};

// "uniform (0), one-colour (1), sorted (2)": a parameter's choices as the user may give them
// (by name or by number).
inline std::string param_choice_list(const ParamSpec& p) {
  std::string out;
  for (size_t i = 0; i < p.choices.size(); ++i) out += (i ? ", " : "") + p.choices[i] + " (" + std::to_string(i) + ")";
  return out;
}

struct VariantSpec {
  VariantSpec() = default;
  VariantSpec(std::string id_, std::string name_, std::string summary_, bool broken_ = false,
              std::string broken_note_ = {}, bool gpu_only_ = false)
      : id(std::move(id_)), name(std::move(name_)), summary(std::move(summary_)), broken(broken_),
        broken_note(std::move(broken_note_)), gpu_only(gpu_only_) {}
  std::string id;        // "3"
  std::string name;      // "sequential addressing"
  std::string summary;   // one line: what this step changes, as the lecture says it
  bool broken = false;   // kept on purpose to show a bug; `broken_note` says which
  std::string broken_note;
  bool gpu_only = false; // e.g. CUB's DeviceReduce::Sum
  // The instruction this variant is about (its lesson line), as text of its source line, e.g.
  // "sdata[index] += sdata[index + s]": the views open on it. Empty: the costliest instruction.
  std::string focus;
  // Which accesses happen depends on the order threads run (e.g. "am I the last block?", or an
  // atomicMax whose old value decides a second atomic): the backend cross-check reports these
  // but cannot expect identical accesses.
  bool order_dependent = false;
  // Its grid is a choice (a grid-stride loop covers any n with any grid): --grid sets it. Other
  // variants size their grid from n and the block, and refuse --grid.
  bool takes_grid = false;
  // Its own default block (a kernel file's [[variants]] block = [32, 8]); x = 0: the kernel's.
  uint32_t block_x = 0, block_y = 1, block_z = 1;
};

struct RunConfig;

// How a kernel is timed on a GPU. The lecture's launch is sized for the emulator (a 96 x 96
// transpose, 64 blocks of a reduction); timing runs the same variant, block shape, dtype and
// lesson parameters at a size that fills a GPU, with the parameters that only tune for the device
// set here. ws::timing::timing_launch() applies it and says what it changed.
//
//   s.timing.n = 8192;  s.timing.sizes = {2048, 4096, 8192, 16384};  s.timing.matrix = true;
//   s.timing.ceiling = ws::TimingSpec::Ceiling::Copy;   // % of a device-to-device copy
struct TimingSpec {
  // What the kernel's speed is held against: the read-only stream (it reads, writes little), a
  // device-to-device copy of the same bytes (it reads and writes), or the FP32 arithmetic peak
  // (it computes: flops below).
  enum class Ceiling { Read, Copy, Fp32 };
  uint64_t n = 1 << 24;            // n for timing (elements, or a matrix's side when `matrix`)
  std::vector<uint64_t> sizes;     // the sizes a sweep or the panel offers (n among them)
  bool matrix = false;             // n is the side of a square matrix (rows = cols = n)
  bool scales = true;              // false: a one-block demo, timed at the lecture's size
  std::map<std::string, int64_t> params;  // device tuning (e.g. per_thread = 32), over the lab's
  std::string why;                 // one line: why those parameters
  Ceiling ceiling = Ceiling::Read;
  // Arithmetic of one run (multiply-adds count 2); null: the kernel is bandwidth-bound and its
  // speed is bytes moved over time (RunTiming::bytes).
  std::function<double(const RunConfig&)> flops;
  // The bytes a run must move to do its work, when that is not every allocation once
  // (RunTiming::bytes): a strided read allocates `stride` elements for each one it uses.
  std::function<uint64_t(const RunConfig&)> bytes;
  // A variant of the same kernel that is the library's answer ("cub", "cublas"): tables give
  // each variant's speed relative to it. Empty with Ceiling::Copy: the copy is the reference.
  std::string reference;
};

struct KernelSpec {
  std::string name;         // "reduce"
  std::string title;        // "Sum reduction (Harris's seven steps and beyond)"
  std::string description;  // a short paragraph
  std::string source;       // path relative to kernels/, e.g. "reduction/reduce.cuh"
  // A user's kernel file (ws/kernel_file): its absolute path; "" for the catalog's own kernels.
  std::string file;
  std::string lecture;      // which seed / lecture it comes from
  std::vector<VariantSpec> variants;
  std::vector<ParamSpec> params;  // kernel-specific (n, block, dtype, seed are common)
  uint64_t default_n = 1 << 16;
  uint32_t default_block = 256;
  uint32_t default_block_y = 1;  // a 2D kernel's default block is (default_block, default_block_y)
  // The kernel takes 2D blocks (x, y): the labs show two fields for the block shape.
  bool block_2d = false;
  std::vector<std::string> dtypes = {"int"};  // element types the kernel accepts
  // How many n-element arrays a run holds at once (the input on the host and on the device, the
  // output, the reference): n x element size x this is the run's memory estimate, refused over
  // RunConfig::memory_limit before anything is allocated.
  uint32_t arrays = 4;
  // Elements of one such array for a run: n, or for a matrix rows x cols (null: n).
  std::function<uint64_t(const RunConfig&)> elements;
  // What only the emulator cannot do in lecture time ("" = fine): checked for emulator runs
  // only, so the GPU runs and times the same kernel at the sizes it is built for.
  std::function<std::string(const RunConfig&)> emulator_limit;
  TimingSpec timing;

  const VariantSpec* variant(const std::string& id_or_name) const {
    for (const VariantSpec& v : variants)
      if (v.id == id_or_name || v.name == id_or_name) return &v;
    return nullptr;
  }
  const ParamSpec* param(const std::string& param_name) const {
    for (const ParamSpec& p : params)
      if (p.name == param_name) return &p;
    return nullptr;
  }
};

}  // namespace ws
