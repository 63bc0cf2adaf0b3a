// format_table() and to_json(): the two renderings of a Report (format in analysis/README.md).
#include <cstdarg>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "ws/analysis/analysis.h"

namespace ws::analysis {
namespace {

using json = nlohmann::ordered_json;

const char* kOps[3] = {"ld", "st", "atom"};

void appendf(std::string& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& out, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n > 0) out.append(buf, static_cast<size_t>(std::min<int>(n, sizeof buf - 1)));
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return {};
  const size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

std::string clip(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  return s.substr(0, n - 3) + "...";
}

// "…/reduction.cuh:25" (clipped from the left), with "#2" appended when the site is the second of
// several on its line (rank 1), so that two rows of one line can be told apart.
std::string row_location(const Report& r, uint32_t site, size_t width) {
  std::string loc = site_location(r, site);
  if (site < r.site_table.size()) {
    const Site& s = r.site_table[site];
    bool shared_line = false;
    for (size_t k = 0; k < r.site_table.size() && !shared_line; ++k)
      shared_line = k != site && r.site_table[k].line == s.line && r.site_table[k].file == s.file;
    if (shared_line) loc.append("#").append(std::to_string(s.rank + 1));
  }
  if (loc.size() <= width) return loc;
  std::string clipped("...");
  clipped.append(loc, loc.size() - (width - 3), std::string::npos);
  return clipped;
}

std::string alloc_name(const Report& r, uint32_t alloc) {
  return alloc < r.allocations.size() ? r.allocations[alloc].name : std::string("?");
}

std::string dim(const Dim3& d) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "(%u,%u,%u)", d.x, d.y, d.z);
  return buf;
}

json dim_json(const Dim3& d) { return json::array({d.x, d.y, d.z}); }

json site_json(const Report& r, uint32_t site) {
  json j;
  j["site"] = site;
  if (site < r.site_table.size()) {
    const Site& s = r.site_table[site];
    j["file"] = s.file;
    j["line"] = s.line;
    j["column"] = s.column;
    j["rank"] = s.rank;
    j["text"] = s.text;
  } else {
    j["file"] = nullptr;
  }
  return j;
}

// One per-site row: the recorded blocks' (`grid` false: with the array, ways, banks, atomics and
// divergence) or the whole grid's (only what the counters hold).
json site_row_json(const Report& r, const SiteMetrics& s, bool grid) {
  json o = site_json(r, s.site);
  if (!grid) {
    o["array"] = alloc_name(r, s.alloc);
    o["alloc"] = s.alloc == Event::kNoAlloc ? json(nullptr) : json(s.alloc);
  }
  o["space"] = to_string(s.space);
  o["kind"] = to_string(s.kind);
  o["width"] = s.width;
  o["instructions"] = s.instructions;
  o["lane_accesses"] = s.lane_accesses;
  o["avg_active_lanes"] = s.avg_active_lanes();
  if (!grid) o["simd_efficiency"] = s.simd_efficiency();
  if (s.space == MemSpace::Shared) {
    o["wavefronts"] = s.wavefronts;
    o["ideal_wavefronts"] = s.ideal_wavefronts;
    o["conflicts"] = s.conflicts;
    if (!grid) {
      o["max_ways"] = s.max_ways;
      o["bank_words"] = s.bank_words;
      o["bank_excess"] = s.bank_excess;
    }
  } else {
    o["requests"] = s.instructions;
    o["sectors"] = s.sectors;
    o["lines"] = s.lines;
    o["bytes_requested"] = s.bytes_requested;
    o["bytes_moved"] = s.bytes_moved;
    o["efficiency"] = s.efficiency();
  }
  if (grid) return o;
  if (s.kind == AccessKind::Atomic) {
    o["atomic_max_same_address"] = s.max_same_address;
    o["atomic_serialized"] = s.serialized;
  }
  o["splits"] = s.splits;
  o["reconverges"] = s.reconverges;
  o["switches"] = s.switches;
  return o;
}

json access_json(const HazardAccess& a) {
  json j;
  j["site"] = a.site;
  j["kind"] = to_string(a.kind);
  j["thread"] = a.thread;
  j["thread_index"] = dim_json(a.thread_index);
  j["warp"] = a.warp;
  j["lane"] = a.lane;
  j["volatile"] = a.is_volatile;
  j["event"] = a.event;
  return j;
}

// The per-site table (recorded blocks, and the whole grid's counters, which know no array, no
// worst way count and no divergence: "-" there).
void append_site_header(std::string& out) {
  appendf(out, "  %-28s %-6s %-6s %-10s %3s %7s %6s %8s %7s %4s %8s %6s %6s %6s  %s\n", "location", "space", "kind",
          "array", "B", "instr", "lanes", "wavefr", "confl", "way", "sectors", "lines", "eff%", "split", "source");
}

void append_site_row(std::string& out, const Report& r, const SiteMetrics& s, bool grid) {
  const bool sh = s.space == MemSpace::Shared;
  std::string text = s.site < r.site_table.size() ? trim(r.site_table[s.site].text) : std::string();
  appendf(out, "  %-28s %-6s %-6s %-10s %3u %7llu %6.2f ", row_location(r, s.site, 28).c_str(), to_string(s.space),
          to_string(s.kind), grid ? "-" : clip(alloc_name(r, s.alloc), 10).c_str(), s.width,
          static_cast<unsigned long long>(s.instructions), s.avg_active_lanes());
  const std::string way = grid ? "-" : std::to_string(s.max_ways);
  if (sh)
    appendf(out, "%8llu %7llu %4s %8s %6s %6s ", static_cast<unsigned long long>(s.wavefronts),
            static_cast<unsigned long long>(s.conflicts), way.c_str(), "-", "-", "-");
  else
    appendf(out, "%8s %7s %4s %8llu %6llu %6.1f ", "-", "-", "-", static_cast<unsigned long long>(s.sectors),
            static_cast<unsigned long long>(s.lines), 100.0 * s.efficiency());
  const std::string split = grid ? "-" : std::to_string(s.splits);
  appendf(out, "%6s  %s\n", split.c_str(), clip(text, 60).c_str());
  if (!grid && s.kind == AccessKind::Atomic)
    appendf(out, "  %-28s   atomics: worst %u lanes on one address, %llu serialized steps\n", "", s.max_same_address,
            static_cast<unsigned long long>(s.serialized));
}

}  // namespace

std::string format_table(const Report& r) {
  std::string out;
  const Totals& T = r.totals;
  const LaunchInfo& L = r.launch;
  appendf(out, "warpscope analysis: %s", L.kernel.empty() ? "(unnamed kernel)" : L.kernel.c_str());
  if (!L.variant.empty()) appendf(out, " / %s", L.variant.c_str());
  if (!L.entry.empty()) appendf(out, "  [%s]", L.entry.c_str());
  appendf(out, "\n  backend %s%s%s, grid %s, block %s\n", L.backend.empty() ? "?" : L.backend.c_str(),
          L.device.empty() ? "" : ", ", L.device.c_str(), dim(L.grid).c_str(), dim(L.block).c_str());
  appendf(out, "  blocks analyzed: %zu (of %llu in the launch)%s\n", r.blocks.size(),
          static_cast<unsigned long long>(r.total_blocks), r.truncated ? "  ** trace truncated **" : "");

  out += "\nTotals (Nsight Compute metric names)\n";
  for (const auto& [name, value] : ncu_metrics(r)) {
    if (value == 0.0 && name.find("_atom") != std::string::npos) continue;  // keep the table short
    appendf(out, "  %-64s %14.0f\n", name.c_str(), value);
  }
  for (int k = 0; k < 3; ++k) {
    const GlobalCounters& g = T.global[k];
    if (g.instructions)
      appendf(out, "  global %-4s bytes requested %llu / moved %llu = %.1f%% efficiency, %.2f sectors/request\n",
              kOps[k], static_cast<unsigned long long>(g.bytes_requested),
              static_cast<unsigned long long>(g.bytes_moved), 100.0 * g.efficiency(), g.sectors_per_request());
  }
  const DivergenceCounters& D = T.divergence;
  appendf(out,
          "  divergence: %llu instructions, %.2f active lanes on average, SIMD efficiency %.1f%% of 32 lanes "
          "(%.1f%% of live lanes); %llu splits, %llu reconvergences, %llu path switches\n",
          static_cast<unsigned long long>(D.instructions), D.avg_active_lanes(), 100.0 * D.simd_efficiency(),
          100.0 * D.simd_efficiency_live(), static_cast<unsigned long long>(D.splits),
          static_cast<unsigned long long>(D.reconverges), static_cast<unsigned long long>(D.switches));
  for (int s = 0; s < 2; ++s) {
    const AtomicCounters& A = s ? T.atomics_global : T.atomics_shared;
    if (A.instructions)
      appendf(out, "  %s atomics: %llu instructions, %llu lane updates, worst %u %s on one address\n",
              s ? "global" : "shared", static_cast<unsigned long long>(A.instructions),
              static_cast<unsigned long long>(A.lane_accesses), A.max_same_address, A.max_same_address == 1 ? "lane" : "lanes");
    if (s && A.aggregated_instructions)
      appendf(out,
              "    as nvcc compiles them: %llu of the %llu are warp-uniform integer atomics, which it issues as one lane's "
              "after a warp reduction: %llu atomic sector passes, where the source asks for %llu\n",
              static_cast<unsigned long long>(A.aggregated_instructions), static_cast<unsigned long long>(A.instructions),
              static_cast<unsigned long long>(A.compiled_sector_passes), static_cast<unsigned long long>(A.sector_passes));
  }

  out += "\nSites\n";
  append_site_header(out);
  for (const SiteMetrics& s : r.sites) append_site_row(out, r, s, false);

  if (r.grid.present) {
    const GridCounters& G = r.grid;
    appendf(out, "\nWhole grid, every block counted %s (%llu blocks)\n",
            L.backend.rfind("gpu", 0) == 0 ? "on the GPU" : "by the emulator", static_cast<unsigned long long>(G.blocks));
    for (const auto& [name, value] : ncu_metrics(G)) {
      if (value == 0.0 && name.find("_atom") != std::string::npos) continue;
      appendf(out, "  %-64s %14.0f\n", name.c_str(), value);
    }
    for (int k = 0; k < 3; ++k) {
      const GlobalCounters& g = G.global[k];
      if (g.instructions)
        appendf(out, "  global %-4s bytes requested %llu / moved %llu = %.1f%% efficiency, %.2f sectors/request\n",
                kOps[k], static_cast<unsigned long long>(g.bytes_requested),
                static_cast<unsigned long long>(g.bytes_moved), 100.0 * g.efficiency(), g.sectors_per_request());
    }
    appendf(out, "  memory instructions: %llu, %.2f active lanes on average (SIMD efficiency %.1f%%)\n",
            static_cast<unsigned long long>(G.instructions),
            G.instructions ? double(G.lane_accesses) / double(G.instructions) : 0.0, 100.0 * G.simd_efficiency());
    append_site_header(out);
    for (const SiteMetrics& s : G.sites) append_site_row(out, r, s, true);
  }

  bool any_div = false;
  for (const SiteDivergence& d : r.divergence)
    if (d.splits || d.reconverges || d.switches) any_div = true;
  if (any_div) {
    out += "\nDivergence by site (where warps split / reconverge)\n";
    appendf(out, "  %-28s %7s %6s %6s %6s %6s  %s\n", "location", "instr", "simd%", "split", "reconv", "switch",
            "source");
    for (const SiteDivergence& d : r.divergence) {
      if (!d.splits && !d.reconverges && !d.switches) continue;
      std::string text = d.site < r.site_table.size() ? trim(r.site_table[d.site].text) : std::string();
      appendf(out, "  %-28s %7llu %6.1f %6llu %6llu %6llu  %s\n", row_location(r, d.site, 28).c_str(),
              static_cast<unsigned long long>(d.instructions), 100.0 * d.simd_efficiency(),
              static_cast<unsigned long long>(d.splits), static_cast<unsigned long long>(d.reconverges),
              static_cast<unsigned long long>(d.switches), clip(text, 60).c_str());
    }
  }

  if (!r.hazards_checked) {
    out += "\nHazards: not checked\n";
  } else {
    size_t races = 0, lockstep = 0;
    for (const Hazard& h : r.hazards) (h.scope == HazardScope::IntraWarpLockstep ? lockstep : races)++;
    appendf(out, "\nHazards (shared memory, racecheck-style): %zu\n", races);
    for (const Hazard& h : r.hazards)
      if (h.scope != HazardScope::IntraWarpLockstep) appendf(out, "  %s\n", h.message.c_str());
    appendf(out, "\nSafe only under lockstep (needs __syncwarp/volatile on Volta+): %zu\n", lockstep);
    for (const Hazard& h : r.hazards)
      if (h.scope == HazardScope::IntraWarpLockstep) appendf(out, "  %s\n", h.message.c_str());
  }

  appendf(out, "\nDiagnostics: %zu\n", r.diagnostics.size());
  for (const Diagnostic& d : r.diagnostics) {
    appendf(out, "  %-7s %-20s", to_string(d.severity), d.code.c_str());
    if (d.site != Diagnostic::kNoSite) appendf(out, " %s", site_location(r, d.site).c_str());
    appendf(out, " block %u thread %u: %s\n", d.block, d.thread, d.message.c_str());
  }
  return out;
}

namespace {

// What ran: kernel, variant, backend, device, grid, block, n and parameters.
json launch_json(const Report& r) {
  const LaunchInfo& L = r.launch;
  json launch;
  launch["kernel"] = L.kernel;
  launch["variant"] = L.variant;
  launch["backend"] = L.backend;
  launch["device"] = L.device;
  launch["entry"] = L.entry;
  launch["grid"] = dim_json(L.grid);
  launch["block"] = dim_json(L.block);
  launch["n"] = L.n;
  json params = json::object();
  for (const auto& [k, v] : L.params) params[k] = v;
  launch["params"] = params;
  return launch;
}

// Which blocks the numbers cover, and whether the trace was cut short.
json scope_json(const Report& r) {
  json scope;
  scope["blocks"] = r.blocks;
  scope["missing_blocks"] = r.missing_blocks;
  scope["total_blocks"] = r.total_blocks;
  scope["truncated"] = r.truncated;
  scope["dropped_events"] = r.dropped_events;
  scope["hazards_checked"] = r.hazards_checked;
  return scope;
}

// Nsight Compute's metric names with warpscope's values, then warpscope's own.
json totals_json(const Report& r) {
  const Totals& T = r.totals;
  json totals;
  for (const auto& [name, value] : ncu_metrics(r)) totals[name] = static_cast<uint64_t>(value);
  for (int k = 0; k < 3; ++k) {
    const std::string op = kOps[k];
    totals["warpscope__shared_ideal_wavefronts_op_" + op] = T.shared[k].ideal_wavefronts;
    totals["warpscope__shared_max_ways_op_" + op] = T.shared[k].max_ways;
    totals["warpscope__global_lines_op_" + op] = T.global[k].lines;
    totals["warpscope__global_bytes_requested_op_" + op] = T.global[k].bytes_requested;
    totals["warpscope__global_bytes_moved_op_" + op] = T.global[k].bytes_moved;
    totals["warpscope__global_efficiency_op_" + op] = T.global[k].efficiency();
  }
  const DivergenceCounters& D = T.divergence;
  totals["warpscope__instructions"] = D.instructions;
  totals["warpscope__avg_active_lanes"] = D.avg_active_lanes();
  totals["warpscope__simd_efficiency"] = D.simd_efficiency();
  totals["warpscope__simd_efficiency_live"] = D.simd_efficiency_live();
  totals["warpscope__splits"] = D.splits;
  totals["warpscope__reconverges"] = D.reconverges;
  totals["warpscope__switches"] = D.switches;
  totals["warpscope__atomic_max_same_address_shared"] = T.atomics_shared.max_same_address;
  totals["warpscope__atomic_max_same_address_global"] = T.atomics_global.max_same_address;
  totals["warpscope__atomic_serialized_shared"] = T.atomics_shared.serialized;
  totals["warpscope__atomic_serialized_global"] = T.atomics_global.serialized;
  totals["warpscope__atomic_sector_passes_global"] = T.atomics_global.sector_passes;
  // (as nvcc compiles them: a warp-uniform integer atomic is one lane's, after a warp reduction)
  totals["warpscope__atomic_sector_passes_global_compiled"] = T.atomics_global.compiled_sector_passes;
  totals["warpscope__atomic_aggregated_instructions_global"] = T.atomics_global.aggregated_instructions;
  totals["warpscope__barriers"] = T.barriers;
  totals["warpscope__warp_syncs"] = T.warp_syncs;
  totals["warpscope__hazards"] = T.hazards;
  totals["warpscope__lockstep_hazards"] = T.lockstep_hazards;
  return totals;
}

// One row per site (source position, array, kind, space).
json sites_json(const Report& r) {
  json sites = json::array();
  for (const SiteMetrics& s : r.sites) sites.push_back(site_row_json(r, s, false));
  return sites;
}

// The per-site counters of every block (gpu-trace's grid), or null.
json grid_json(const Report& r) {
  if (r.grid.present) {
    const GridCounters& G = r.grid;
    json g;
    g["blocks"] = G.blocks;
    json gt;
    for (const auto& [name, value] : ncu_metrics(G)) gt[name] = static_cast<uint64_t>(value);
    for (int k = 0; k < 3; ++k) {
      const std::string op = kOps[k];
      gt["warpscope__shared_ideal_wavefronts_op_" + op] = G.shared[k].ideal_wavefronts;
      gt["warpscope__global_lines_op_" + op] = G.global[k].lines;
      gt["warpscope__global_bytes_requested_op_" + op] = G.global[k].bytes_requested;
      gt["warpscope__global_bytes_moved_op_" + op] = G.global[k].bytes_moved;
      gt["warpscope__global_efficiency_op_" + op] = G.global[k].efficiency();
    }
    gt["warpscope__instructions"] = G.instructions;
    gt["warpscope__lane_accesses"] = G.lane_accesses;
    gt["warpscope__simd_efficiency"] = G.simd_efficiency();
    g["totals"] = gt;
    json gs = json::array();
    for (const SiteMetrics& s : G.sites) gs.push_back(site_row_json(r, s, true));
    g["sites"] = std::move(gs);
    return g;
  }
  return nullptr;
}

// Per site: instructions, active lanes, SIMD efficiency, mask transitions.
json divergence_json(const Report& r) {
  json div = json::array();
  for (const SiteDivergence& d : r.divergence) {
    json o = site_json(r, d.site);
    o["instructions"] = d.instructions;
    o["active_lanes"] = d.active_lanes;
    o["simd_efficiency"] = d.simd_efficiency();
    o["splits"] = d.splits;
    o["reconverges"] = d.reconverges;
    o["switches"] = d.switches;
    div.push_back(std::move(o));
  }
  return div;
}

// Per source line: the sites' sums and the hazards that touch it.
json lines_json(const Report& r) {
  json lines = json::array();
  for (const LineMetrics& l : r.lines) {
    json o;
    o["file"] = l.file;
    o["line"] = l.line;
    o["instructions"] = l.instructions;
    o["lane_accesses"] = l.lane_accesses;
    o["shared_wavefronts"] = l.shared_wavefronts;
    o["shared_conflicts"] = l.shared_conflicts;
    o["global_requests"] = l.global_requests;
    o["global_sectors"] = l.global_sectors;
    o["global_bytes_requested"] = l.global_bytes_requested;
    o["global_bytes_moved"] = l.global_bytes_moved;
    o["splits"] = l.splits;
    o["reconverges"] = l.reconverges;
    o["switches"] = l.switches;
    o["hazards"] = l.hazards;
    o["lockstep_hazards"] = l.lockstep_hazards;
    lines.push_back(std::move(o));
  }
  return lines;
}

// The memory heatmap's bins per allocation.
json heat_json(const Report& r) {
  json heat = json::array();
  for (const AllocationHeat& h : r.heat) {
    json o;
    o["alloc"] = h.alloc;
    o["array"] = alloc_name(r, h.alloc);
    o["elements_per_bin"] = h.elements_per_bin;
    o["loads"] = h.loads;
    o["stores"] = h.stores;
    o["atomics"] = h.atomics;
    heat.push_back(std::move(o));
  }
  return heat;
}

// Per warp of each recorded block.
json warps_json(const Report& r) {
  json warps = json::array();
  for (const WarpMetrics& w : r.warps) {
    json o;
    o["block"] = w.block;
    o["warp"] = w.warp;
    o["live_lanes"] = w.live_lanes;
    o["instructions"] = w.instructions;
    o["active_lanes"] = w.active_lanes;
    o["simd_efficiency"] = w.simd_efficiency();
    o["simd_efficiency_live"] = w.simd_efficiency_live();
    o["splits"] = w.splits;
    o["reconverges"] = w.reconverges;
    o["switches"] = w.switches;
    o["barriers"] = w.barriers;
    warps.push_back(std::move(o));
  }
  return warps;
}

// Each hazard with its example pair of accesses.
json hazards_json(const Report& r) {
  json hz = json::array();
  for (const Hazard& h : r.hazards) {
    json o;
    o["kind"] = to_string(h.kind);
    o["scope"] = to_string(h.scope);
    o["space"] = h.space == MemSpace::Shared ? "shared" : "global";
    o["first"] = site_json(r, h.first_site);
    o["second"] = site_json(r, h.second_site);
    o["array"] = alloc_name(r, h.alloc);
    o["count"] = h.count;
    o["volatile_count"] = h.volatile_count;
    json ex;
    ex["block"] = h.block;
    ex["block_index"] = dim_json(h.block_index);
    ex["element"] = h.element;
    ex["byte_offset"] = h.byte_offset;
    ex["first"] = access_json(h.first);
    ex["second"] = access_json(h.second);
    o["example"] = std::move(ex);
    o["message"] = h.message;
    hz.push_back(std::move(o));
  }
  return hz;
}

// The trace's and the analysis' diagnostics.
json diagnostics_json(const Report& r) {
  json diags = json::array();
  for (const Diagnostic& d : r.diagnostics) {
    json o;
    o["severity"] = to_string(d.severity);
    o["code"] = d.code;
    o["message"] = d.message;
    o["site"] = d.site == Diagnostic::kNoSite ? json(nullptr) : json(d.site);
    o["location"] = d.site == Diagnostic::kNoSite ? json(nullptr) : json(site_location(r, d.site));
    o["block"] = d.block;
    o["thread"] = d.thread;
    diags.push_back(std::move(o));
  }
  return diags;
}

}  // namespace

std::string to_json(const Report& r) {
  json j;
  j["format"] = "warpscope-analysis";
  j["version"] = 1;
  j["launch"] = launch_json(r);
  j["scope"] = scope_json(r);
  j["totals"] = totals_json(r);
  j["sites"] = sites_json(r);
  j["grid"] = grid_json(r);
  j["divergence"] = divergence_json(r);
  j["lines"] = lines_json(r);
  j["heat"] = heat_json(r);
  j["warps"] = warps_json(r);
  j["hazards"] = hazards_json(r);
  j["diagnostics"] = diagnostics_json(r);
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);  // (a damaged trace's text may not be UTF-8)
}

}  // namespace ws::analysis
