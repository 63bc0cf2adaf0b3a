// Any kernel's table: its variants (and block shapes) at the timing launch, against the ceiling
// it is bound by (read stream, copy, FP32 peak) and its reference (CUB, cuBLAS, the copy).
#include <optional>
#include <algorithm>
#include <cstdio>

#include "ws/timing/timing.h"

namespace ws::timing {

std::string KernelTable::ceiling_name() const {
  switch (ceiling) {
    case TimingSpec::Ceiling::Read: return "read-only stream over the same bytes (measured)";
    case TimingSpec::Ceiling::Copy: return "device-to-device copy of the same bytes (measured)";
    case TimingSpec::Ceiling::Fp32: return "FP32 peak (datasheet: SMs x lanes x 2 x boost clock)";
  }
  return {};
}

std::string KernelTable::block_of(const KernelRow& r) const {
  return !reference.empty() && r.m.variant == reference ? "library" : block_text(r.m.config.block);
}

void fill_ratios(KernelTable& t) {
  const KernelRow* ref = nullptr;
  if (t.reference != "copy" && !t.reference.empty())
    for (const KernelRow& r : t.rows)
      if (r.m.ok && r.m.variant == t.reference && (!ref || r.m.stats.median < ref->m.stats.median)) ref = &r;
  for (KernelRow& r : t.rows) {
    r.pct_of_ceiling = r.vs_reference = 0;
    if (!r.m.ok || r.m.stats.median <= 0) continue;
    if (t.compute()) {
      if (t.fp32_peak_gflops > 0) r.pct_of_ceiling = 100.0 * r.m.gflops / t.fp32_peak_gflops;
    } else if (t.same_size.ok) {
      const double ceil = t.ceiling == TimingSpec::Ceiling::Copy ? t.same_size.copy_gbps : t.same_size.read_gbps;
      if (ceil > 0) r.pct_of_ceiling = 100.0 * r.m.gbps / ceil;
    }
    if (ref) r.vs_reference = ref->m.stats.median / r.m.stats.median;
    else if (t.reference == "copy" && t.same_size.ok && t.same_size.copy_gbps > 0) r.vs_reference = r.m.gbps / t.same_size.copy_gbps;
  }
}

KernelTable time_kernel(const Catalog& catalog, const std::string& kernel, const RunConfig& lab, std::vector<std::string> variants,
                        std::vector<Dim3> blocks, uint64_t n, Repeats r, const Progress& progress,
                        const std::atomic<bool>* cancel) {
  KernelTable t;
  t.kernel = kernel;
  t.launch = timing_launch(catalog, kernel, lab, n);
  const std::optional<CatalogEntry> e = catalog.copy(kernel);  // (a copy: a kernel file may replace it)
  if (!e || !t.launch.error.empty()) return t;
  const KernelSpec& s = e->spec;
  t.ceiling = s.timing.ceiling;
  t.reference = !s.timing.reference.empty() ? s.timing.reference : s.timing.ceiling == TimingSpec::Ceiling::Copy ? "copy" : "";
  t.fp32_peak_gflops = device().fp32_peak_gflops();
  if (variants.empty()) {
    for (const VariantSpec& v : s.variants)
      if (!v.broken) variants.push_back(v.id);
  } else if (!s.timing.reference.empty() && s.variant(s.timing.reference) &&
             std::find(variants.begin(), variants.end(), s.timing.reference) == variants.end()) {
    variants.push_back(s.timing.reference);  // the ratio column needs it
  }
  if (blocks.empty()) blocks.push_back(t.launch.config.block);
  for (const std::string& v : variants)
    for (const Dim3& b : blocks) {
      if (cancel && cancel->load()) return t;
      RunConfig cfg = t.launch.config;
      cfg.variant = v;
      cfg.block = b;
      cfg.block = block_for_variant(catalog, kernel, cfg);  // (transpose rows and 32x32: its own 32x8)
      if (progress) progress("timing " + kernel + " " + v + ", block " + block_text(cfg.block));
      KernelRow row;
      row.m = measure(catalog, kernel, cfg, r);
      // The reference is the library's own launch: one row of it, whatever the block.
      const bool library = v == s.timing.reference;
      t.rows.push_back(std::move(row));
      if (library) break;
    }
  // The bandwidth ceiling over the bytes the table's runs move.
  // (Not for a one-block demo: its few bytes time the launch, not the memory.)
  if (!t.compute() && device().present && s.timing.scales)
    for (const KernelRow& row : t.rows)
      if (row.m.ok && row.m.bytes) {
        if (progress) progress("measuring the read stream and the copy over the same bytes");
        t.same_size = measure_ceilings(t.ceiling == TimingSpec::Ceiling::Copy ? row.m.bytes / 2 : row.m.bytes, 15);
        break;
      }
  fill_ratios(t);
  t.complete = true;
  return t;
}

std::string format_kernel_table(const KernelTable& t, const Device& d) {
  std::string out;
  char line[512];
  const TimingLaunch& l = t.launch;
  std::snprintf(line, sizeof line, "%s on %s: %s\n", t.kernel.c_str(), d.present ? d.name.c_str() : "(no GPU)", l.name.c_str());
  out += line;
  for (const std::string& c : l.changes) out += "  timing launch: " + c + "\n";
  if (!l.error.empty()) return out + "  " + l.error + "\n";
  const bool fl = t.compute();
  const std::string ref_head = t.reference == "copy" ? "x copy" : t.reference.empty() ? "" : "x " + t.reference;
  std::snprintf(line, sizeof line, "  %-18s %-8s %11s %21s %10s %8s %9s  %s\n", "variant", "block", "median", "p10 .. p90 (ms)",
                fl ? "GFLOP/s" : "GB/s", "% ceil", ref_head.c_str(), "check");
  out += line;
  for (const KernelRow& r : t.rows) {
    const Measurement& m = r.m;
    if (!m.ok) {
      std::snprintf(line, sizeof line, "  %-18s %-8s %s\n", m.variant.c_str(), t.block_of(r).c_str(), m.error.c_str());
      out += line;
      continue;
    }
    char ratio[32] = "";
    if (r.vs_reference > 0) std::snprintf(ratio, sizeof ratio, "%.3f", r.vs_reference);
    char pct[32] = "";
    if (r.pct_of_ceiling > 0) std::snprintf(pct, sizeof pct, "%.1f", r.pct_of_ceiling);
    std::snprintf(line, sizeof line, "  %-18s %-8s %8.4f ms %9.4f .. %9.4f %10.1f %8s %9s  %s\n", m.variant.c_str(),
                  t.block_of(r).c_str(), m.stats.median, m.stats.p10, m.stats.p90, fl ? m.gflops : m.gbps, pct, ratio,
                  m.passed ? "PASS" : "FAIL");
    out += line;
  }
  std::snprintf(line, sizeof line, "  ceiling: %s", t.ceiling_name().c_str());
  out += line;
  if (fl) std::snprintf(line, sizeof line, " = %.0f GFLOP/s\n", t.fp32_peak_gflops);
  else if (t.same_size.ok)
    std::snprintf(line, sizeof line, ": read %.0f GB/s, copy %.0f GB/s over %.1f MB\n", t.same_size.read_gbps, t.same_size.copy_gbps,
                  double(t.same_size.bytes) / 1e6);
  else std::snprintf(line, sizeof line, "\n");
  out += line;
  return out;
}

}  // namespace ws::timing
