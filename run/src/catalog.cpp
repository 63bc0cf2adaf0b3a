#include "ws/run/catalog.h"

#include <algorithm>

namespace ws {

void Catalog::add(KernelSpec spec, std::function<std::string(const RunConfig&)> validate) {
  for (CatalogEntry& e : entries_)
    if (e.spec.name == spec.name) return;  // already there (another backend registered it)
  entries_.push_back({std::move(spec), std::move(validate), {}});
}

void Catalog::add_runner(const std::string& kernel, BackendKind kind,
                         std::function<RunResult(const RunConfig&)> run) {
  for (CatalogEntry& e : entries_)
    if (e.spec.name == kernel) e.runners[kind] = std::move(run);
}

void Catalog::put(CatalogEntry e) {
  std::unique_lock lock(mutex_);
  for (CatalogEntry& old : entries_)
    if (old.spec.name == e.spec.name) {
      old = std::move(e);
      return;
    }
  entries_.push_back(std::move(e));
}

std::optional<CatalogEntry> Catalog::copy(const std::string& name) const {
  std::shared_lock lock(mutex_);
  if (const CatalogEntry* e = find(name)) return *e;
  return std::nullopt;
}

const CatalogEntry* Catalog::find(const std::string& name) const {
  for (const CatalogEntry& e : entries_)
    if (e.spec.name == name) return &e;
  return nullptr;
}

std::string Catalog::resolve(const CatalogEntry& e, RunConfig& cfg) const {
  const KernelSpec& s = e.spec;
  if (cfg.variant.empty()) cfg.variant = s.variants.front().id;
  const VariantSpec* variant = nullptr;
  for (const VariantSpec& v : s.variants)
    if (v.id == cfg.variant || v.name == cfg.variant) variant = &v;
  if (!variant) {
    std::string ids;
    for (const VariantSpec& v : s.variants) ids += (ids.empty() ? "" : ", ") + v.id;
    return "kernel '" + s.name + "' has no variant '" + cfg.variant + "' (variants: " + ids + ")";
  }
  cfg.variant = variant->id;
  if (cfg.n == 0) cfg.n = s.default_n;
  if (cfg.n > 0xffffffffull) return "n = " + std::to_string(cfg.n) + " is too large: the kernels index with 32-bit unsigned integers (n <= 4294967295)";
  if (cfg.block.x == 0)
    cfg.block = variant->block_x ? Dim3{variant->block_x, std::max(1u, variant->block_y), std::max(1u, variant->block_z)}
                                 : Dim3{s.default_block, std::max(1u, s.default_block_y), 1};
  const Dim3 b = cfg.block;
  if (b.y == 0 || b.z == 0) return "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + ") has a zero dimension";
  if (b.count() > 1024) return "block of " + std::to_string(b.count()) + " threads is over the limit of 1024 threads per block";
  if (b.x > 1024 || b.y > 1024 || b.z > 64) return "block dimensions are over the limits (x <= 1024, y <= 1024, z <= 64)";
  if (cfg.grid.x != 0) {
    std::string takers;
    for (const VariantSpec& v : s.variants)
      if (v.takes_grid) takers += (takers.empty() ? "" : ", ") + v.id;
    if (!variant->takes_grid)
      return s.name + " " + variant->id + " sizes its grid from n and the block: --grid is taken only by variants "
             "with a grid-stride loop" + (takers.empty() ? std::string(" (this kernel has none)") : " (" + takers + ")");
    if (cfg.grid.y != 1 || cfg.grid.z != 1 || cfg.grid.x > 65535)
      return "grid (" + std::to_string(cfg.grid.x) + "," + std::to_string(cfg.grid.y) + "," + std::to_string(cfg.grid.z) +
             "): " + s.name + " " + variant->id + " takes a 1D grid of 1 to 65535 blocks";
  }
  if (cfg.dtype.empty()) cfg.dtype = s.dtypes.front();
  if (std::find(s.dtypes.begin(), s.dtypes.end(), cfg.dtype) == s.dtypes.end()) {
    std::string list;
    for (const std::string& d : s.dtypes) list += (list.empty() ? "" : ", ") + d;
    return "kernel '" + s.name + "' does not take dtype '" + cfg.dtype + "' (allowed: " + list + ")";
  }
  // (Lambdas take a named copy of a structured binding: clang 14 cannot capture one.)
  for (const auto& [name, choice] : cfg.param_choices) {
    auto it = std::find_if(s.params.begin(), s.params.end(), [&key = name](const ParamSpec& p) { return p.name == key; });
    if (it == s.params.end()) continue;  // (refused below with the kernel's parameters)
    auto c = std::find(it->choices.begin(), it->choices.end(), choice);
    if (it->choices.empty())
      return "parameter " + name + " = '" + choice + "': the value is a " + (it->real ? "number" : "whole number") +
             " from " + param_text(it->min) + " to " + param_text(it->max);
    if (c == it->choices.end())
      return "parameter " + name + " = '" + choice + "' is not one of its choices (" + param_choice_list(*it) + ")";
    cfg.params[name] = int64_t(c - it->choices.begin());
  }
  for (const auto& [name, choice] : cfg.param_choices)
    if (!cfg.params.count(name)) cfg.params[name] = 0;  // (an unknown parameter: refused next)
  cfg.param_choices.clear();
  for (const auto& [name, value] : cfg.params) {
    auto it = std::find_if(s.params.begin(), s.params.end(), [&key = name](const ParamSpec& p) { return p.name == key; });
    if (it == s.params.end()) {
      std::string list;
      for (const ParamSpec& p : s.params) list += (list.empty() ? "" : ", ") + p.name;
      return "kernel '" + s.name + "' has no parameter '" + name + "'" + (list.empty() ? "" : " (parameters: " + list + ")");
    }
    if (!it->real && value != std::trunc(value))
      return "parameter " + name + " = " + param_text(value) + ": " + name + " takes whole numbers";
    if (value < it->min || value > it->max)
      return "parameter " + name + " = " + param_text(value) + " is out of range [" + param_text(it->min) + ", " +
             param_text(it->max) + "]" + (it->choices.empty() ? "" : " (" + param_choice_list(*it) + ")");
  }
  for (const ParamSpec& p : s.params) cfg.params.try_emplace(p.name, p.def);
  if (std::string err = e.validate ? e.validate(cfg) : std::string(); !err.empty()) return err;
  // The memory estimate, before anything is allocated.
  std::string source;
  const uint64_t limit = cfg.memory_limit ? cfg.memory_limit : default_memory_limit(&source);
  if (cfg.memory_limit) source = "the run's memory limit";
  const uint64_t elements = s.elements ? s.elements(cfg) : cfg.n;
  const double need = double(estimated_bytes(s, cfg));
  if (need > double(limit))
    return "n = " + std::to_string(cfg.n) + " needs about " + bytes_text(uint64_t(need)) + " (" + std::to_string(s.arrays) +
           " arrays of " + std::to_string(elements) + " " + cfg.dtype + "s), over the " + bytes_text(limit) + " a run may take (" +
           source + "; WARPSCOPE_MEMORY_LIMIT sets it): use a smaller n";
  return {};
}

uint64_t element_bytes(const std::string& dtype) {
  return dtype == "double" ? 8 : dtype == "char" ? 1 : dtype == "short" ? 2 : dtype == "float4" ? 16 : dtype == "float2" ? 8 : 4;
}

uint64_t estimated_bytes(const KernelSpec& s, const RunConfig& cfg) {
  const double elements = double(s.elements ? s.elements(cfg) : cfg.n);
  const double bytes = elements * double(element_bytes(cfg.dtype)) * double(std::max(1u, s.arrays));
  return bytes >= 1.8e19 ? ~0ull : uint64_t(bytes);
}

void Catalog::set_run_hook(RunHook hook) {
  std::unique_lock lock(mutex_);
  hook_ = std::move(hook);
}

RunResult Catalog::run(const std::string& kernel, RunConfig cfg, BackendKind backend) const {
  RunResult r;
  // The entry is copied under the lock, so a kernel file built again meanwhile (put()) changes
  // neither this run's spec nor its runner.
  std::optional<CatalogEntry> copied;
  std::string list;
  RunHook hook;
  {
    std::shared_lock lock(mutex_);
    hook = hook_;
    if (const CatalogEntry* found = find(kernel)) copied = *found;
    else
      for (const CatalogEntry& x : entries_) list += (list.empty() ? "" : ", ") + x.spec.name;
  }
  const CatalogEntry* e = copied ? &*copied : nullptr;
  if (!e) {
    r.refused = "no kernel named '" + kernel + "' (kernels: " + list + ")";
    return r;
  }
  if (std::string err = resolve(*e, cfg); !err.empty()) {
    r.refused = err;
    return r;
  }
  auto it = e->runners.find(backend);
  if (it == e->runners.end()) {
    r.refused = std::string("the ") + to_string(backend) + " backend is not available in this build" +
                (backend == BackendKind::Emu ? "" : " (built without CUDA, or no GPU version of this kernel)");
    return r;
  }
  if (backend == BackendKind::Emu && e->spec.emulator_limit)
    if (std::string why = e->spec.emulator_limit(cfg); !why.empty()) {
      r.refused = why + " (the GPU backends run it)";
      return r;
    }
  for (const VariantSpec& v : e->spec.variants)
    if (v.id == cfg.variant && v.gpu_only && backend == BackendKind::Emu) {
      r.refused = "variant " + v.id + " (" + v.name + ") runs only on a GPU";
      return r;
    }
  // What the estimate missed still ends the run, not the program.
  try {
    if (hook)
      if (std::optional<RunResult> done = hook(*e, cfg, backend)) return std::move(*done);
    return it->second(cfg);
  } catch (const std::bad_alloc&) {
    RunResult out;
    out.refused = "out of memory while running " + kernel + " " + cfg.variant + " with n = " + std::to_string(cfg.n) +
                  ": use a smaller n (or lower WARPSCOPE_MEMORY_LIMIT so that such runs are refused before they start)";
    return out;
  } catch (const std::exception& e) {  // (a kernel file's host code: its expect's helpers, its main())
    RunResult out;
    out.completed = false;
    out.errors.push_back({Severity::Error, "host-code", std::string("the run stopped in host code: ") + e.what()});
    return out;
  }
}

}  // namespace ws
