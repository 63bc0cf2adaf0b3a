// One timed gpu-fast run, and sweeps of them.
#include <optional>
#include <algorithm>

#include "ws/timing/timing.h"

namespace ws::timing {

Measurement measure(const Catalog& catalog, const std::string& kernel, RunConfig cfg, Repeats r) {
  Measurement m;
  m.kernel = kernel;
  m.variant = cfg.variant;
  m.config = cfg;
  const std::optional<CatalogEntry> e = catalog.copy(kernel);  // (a copy: a kernel file may replace it)
  if (e)
    if (const VariantSpec* v = e->spec.variant(cfg.variant)) m.variant_name = v->name;
  if (!device().present) {
    m.error = device().why_not;
    return m;
  }
  cfg.timing.warmup = r.warmup;
  cfg.timing.reps = std::max(1u, r.reps);
  cfg.timing.flush_l2 = r.flush_l2;
  cfg.timing.max_ms = r.max_ms;
  cfg.timing.keep = r.keep;
  if (RunConfig resolved = cfg; e && catalog.resolve(*e, resolved).empty()) {
    m.config = resolved;
    // A GPU-sized launch that cannot fit the device is refused with the sizes (about half of the
    // run's arrays live on the device: its copy of the inputs and the outputs).
    const uint32_t arrays = std::max(1u, e->spec.arrays);
    const uint64_t need = estimated_bytes(e->spec, resolved) / arrays * ((arrays + 1) / 2);
    if (device().memory_bytes && need > device().memory_bytes) {
      m.error = "refused: n = " + std::to_string(resolved.n) + " needs about " + bytes_text(need) + " on the GPU, and the " +
                device().name + " has " + bytes_text(device().memory_bytes) + ": use a smaller n";
      return m;
    }
  }
  const RunResult res = catalog.run(kernel, cfg, BackendKind::GpuFast);
  if (!res.refused.empty()) {
    m.error = "refused: " + res.refused;
    return m;
  }
  if (!res.errors.empty()) {
    m.error = res.errors.front().message;
    return m;
  }
  // The block as launched (a 1D --block stands for a variant's own 2D shape).
  for (const Trace& t : res.launches)
    if (t.launch.block.count() > 0 && t.launch.block.x > 0) {
      m.config.block = t.launch.block;
      break;
    }
  m.passed = res.passed;
  m.check = res.check;
  m.samples = res.timing.ms;
  m.bytes = res.timing.bytes;
  m.launches = res.timing.launches;
  if (m.samples.empty()) {
    m.error = "the run made no GPU launch to time";
    return m;
  }
  m.replay = res.timing.replay;
  if (e && e->spec.timing.bytes) m.bytes = e->spec.timing.bytes(m.config);
  m.stats = analysis::summarize(m.samples);
  m.gbps = analysis::gigabytes_per_second(m.bytes, m.stats.median);
  // (A kernel file's spec is code of the run process: it counted the flops there.)
  m.flops = e && e->spec.timing.flops ? e->spec.timing.flops(m.config) : res.timing.flops;
  if (m.flops > 0 && m.stats.median > 0) m.gflops = m.flops / (m.stats.median * 1e6);
  m.ok = true;
  return m;
}

Measurement measure_again(const Measurement& first, Repeats r) {
  Measurement m = first;
  m.samples.clear();
  m.ok = false;
  if (!first.replay) {
    m.error = "nothing kept to time again (measure with Repeats::keep first)";
    return m;
  }
  TimingOptions o;
  o.warmup = r.warmup;
  o.reps = std::max(1u, r.reps);
  o.flush_l2 = r.flush_l2;
  o.max_ms = r.max_ms;
  RunTiming t;
  if (!first.replay->time(o, t, m.error)) {
    m.replay.reset();
    return m;
  }
  m.samples = t.ms;
  if (m.samples.empty()) {
    m.error = "no replay was timed";
    return m;
  }
  m.stats = analysis::summarize(m.samples);
  m.gbps = analysis::gigabytes_per_second(m.bytes, m.stats.median);
  m.gflops = m.stats.median > 0 ? m.flops / (m.stats.median * 1e6) : 0;
  m.ok = true;
  return m;
}

std::vector<SweepPoint> sweep(const Catalog& catalog, const std::string& kernel, const RunConfig& base, const std::string& axis,
                              std::span<const int64_t> values, Repeats r, const Progress& progress,
                              const std::atomic<bool>* cancel) {
  std::vector<SweepPoint> out;
  // A parameter with named choices (an input distribution) is labelled by the choice's name.
  const std::optional<CatalogEntry> e = catalog.copy(kernel);  // (a copy: a kernel file may replace it)
  const ParamSpec* p = e && axis != "block" ? e->spec.param(axis) : nullptr;
  for (int64_t v : values) {
    if (cancel && cancel->load()) break;
    RunConfig cfg = base;
    if (axis == "block") cfg.block = Dim3{uint32_t(v), 1, 1};
    else cfg.params[axis] = double(v);
    const std::string label =
        p && v >= 0 && size_t(v) < p->choices.size() ? p->choices[size_t(v)] : std::to_string(v);
    if (progress) progress(kernel + " " + base.variant + ": " + axis + " = " + label);
    out.push_back({v, measure(catalog, kernel, cfg, r), label});
  }
  return out;
}

std::vector<SweepPoint> sweep_blocks(const Catalog& catalog, const std::string& kernel, const RunConfig& base, std::span<const Dim3> blocks,
                                     Repeats r, const Progress& progress, const std::atomic<bool>* cancel) {
  std::vector<SweepPoint> out;
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (cancel && cancel->load()) break;
    RunConfig cfg = base;
    cfg.block = blocks[i];
    if (progress) progress(kernel + " " + base.variant + ": block " + block_text(blocks[i]));
    out.push_back({int64_t(i), measure(catalog, kernel, cfg, r), block_text(blocks[i])});
  }
  return out;
}

std::vector<Dim3> block_shapes_for(const Catalog& catalog, const std::string& kernel, const RunConfig& base) {
  static const Dim3 kShapes[] = {{256, 1, 1}, {128, 2, 1}, {64, 4, 1}, {32, 8, 1}, {16, 16, 1}, {8, 32, 1},
                                 {4, 64, 1},  {2, 128, 1}, {1, 256, 1}, {32, 32, 1}, {32, 4, 1}};
  std::vector<Dim3> out;
  const std::optional<CatalogEntry> e = catalog.copy(kernel);  // (a copy: a kernel file may replace it)
  if (!e) return out;
  for (const Dim3& b : kShapes) {
    RunConfig cfg = base;
    cfg.block = b;
    cfg.memory_limit = ~0ull;  // the shape is the question here, not the size
    if (catalog.resolve(*e, cfg).empty()) out.push_back(b);
  }
  return out;
}

}  // namespace ws::timing
