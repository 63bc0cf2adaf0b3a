// The timing launch: the lab's run (variant, block shape, dtype, seed, lesson parameters) at the
// size a GPU is built for, with the parameters that only tune for the device (KernelSpec::timing).
#include <optional>
#include <bit>
#include <cstdio>

#include "ws/timing/timing.h"

namespace ws::timing {

std::string size_text(const KernelSpec& s, uint64_t n) {
  if (s.timing.matrix) return std::to_string(n) + " x " + std::to_string(n);
  if (n >= 1024 && std::has_single_bit(n)) return "2^" + std::to_string(std::countr_zero(n));
  return std::to_string(n);
}

std::string block_text(const Dim3& b) {
  std::string t = std::to_string(b.x);
  if (b.y > 1 || b.z > 1) t += "x" + std::to_string(b.y);
  if (b.z > 1) t += "x" + std::to_string(b.z);
  return t;
}

Dim3 block_for_variant(const Catalog& catalog, const std::string& kernel, const RunConfig& cfg) {
  const std::optional<CatalogEntry> e = catalog.copy(kernel);  // (a copy: a kernel file may replace it)
  if (!e || cfg.block.y <= 1) return cfg.block;
  RunConfig probe = cfg;
  probe.memory_limit = ~0ull;  // the shape is the question here, not the size
  if (catalog.resolve(*e, probe).empty()) return cfg.block;
  probe = cfg;
  probe.memory_limit = ~0ull;
  probe.block = {cfg.block.x, 1, 1};
  return catalog.resolve(*e, probe).empty() ? probe.block : cfg.block;
}

TimingLaunch timing_launch(const Catalog& catalog, const std::string& kernel, const RunConfig& lab, uint64_t n) {
  TimingLaunch t;
  t.kernel = kernel;
  const std::optional<CatalogEntry> e = catalog.copy(kernel);  // (a copy: a kernel file may replace it)
  if (!e) {
    t.error = "no kernel named '" + kernel + "'";
    return t;
  }
  const KernelSpec& s = e->spec;
  // The lab's run as it resolved (its defaults filled), so the changes below name real values.
  RunConfig from = lab;
  from.grid = {0, 1, 1};
  from.memory_limit = ~0ull;  // the lab's size is about to change: do not refuse it for memory
  if (std::string why = catalog.resolve(*e, from); !why.empty()) {
    t.error = why;
    return t;
  }
  RunConfig cfg = from;
  cfg.memory_limit = lab.memory_limit;
  cfg.record = {};
  cfg.cancel.reset();
  if (lab.grid.x != 0)
    t.changes.push_back("grid " + std::to_string(lab.grid.x) + " -> the variant's own (the lab's grid is sized for the emulator)");
  const uint64_t want = !s.timing.scales ? from.n : n ? n : s.timing.n;
  if (want != from.n) {
    cfg.n = want;
    t.changes.push_back("n " + std::to_string(from.n) + " -> " + std::to_string(want) + " (" + size_text(s, want) +
                        "; the lab's size is for the emulator)");
  }
  for (const auto& [name, value] : s.timing.params) {
    const int64_t before = from.param(name, 0);
    if (before == value) continue;
    cfg.params[name] = double(value);
    t.changes.push_back(name + " " + std::to_string(before) + " -> " + std::to_string(value) +
                        (s.timing.why.empty() ? std::string() : " (" + s.timing.why + ")"));
  }
  if (!s.timing.scales) t.changes.push_back("timed at the lab's size: " + s.name + " is a one-block demo, its time is the launch's");
  t.config = cfg;
  t.name = kernel + " " + cfg.variant + ", " + size_text(s, cfg.n) + ", block " + block_text(cfg.block) + ", " + cfg.dtype;
  return t;
}

}  // namespace ws::timing
