#include "ws/timing/recording.h"
#include "ws/timing/streams.h"

#include "ws/util/atomic_file.h"

#include <nlohmann/json.hpp>

#include "ws/trace/json_fields.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ws::timing {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "warpscope-timing";
constexpr int kVersion = 1;
constexpr uint64_t kMaxFileBytes = 16ull << 20;

json stats_json(const analysis::TimingStats& s) { return to_json_fields(s); }

analysis::TimingStats stats_from(const json& j) {
  analysis::TimingStats s;
  if (std::string err = from_json_fields(j, s, "time"); !err.empty()) throw std::runtime_error(err);
  return s;
}

// What every timed row says: its variant, its check, its times, its bytes and rates, its launch.
json measurement_json(const Measurement& m) {
  json row = {{"variant", m.variant}, {"name", m.variant_name}, {"ok", m.ok}};
  if (!m.ok) {
    row["error"] = m.error;
    return row;
  }
  row["passed"] = m.passed;
  row["check"] = m.check;
  row["time"] = stats_json(m.stats);
  row["bytes"] = m.bytes;
  row["gbps"] = m.gbps;
  if (m.flops > 0) row["flops"] = m.flops, row["gflops"] = m.gflops;
  row["launches"] = m.launches;
  if (!m.tuning.empty()) row["tuning"] = m.tuning;
  json params = json::object();  // (whole numbers as whole JSON numbers: 32, not 32.0)
  for (const auto& [k, v] : m.config.params) params[k] = v == std::trunc(v) ? json(int64_t(v)) : json(v);
  row["params"] = params;
  row["n"] = m.config.n;
  row["block"] = {m.config.block.x, m.config.block.y, m.config.block.z};
  return row;
}

Measurement measurement_from(const json& j) {
  Measurement m;
  m.variant = j.at("variant").get<std::string>();
  m.variant_name = j.value("name", "");
  m.ok = j.at("ok").get<bool>();
  if (!m.ok) {
    m.error = j.value("error", "not timed");
    return m;
  }
  m.passed = j.at("passed").get<bool>();
  m.check = j.value("check", "");
  m.stats = stats_from(j.at("time"));
  m.bytes = j.at("bytes").get<uint64_t>();
  m.gbps = j.at("gbps").get<double>();
  m.flops = j.value("flops", 0.0);
  m.gflops = j.value("gflops", 0.0);
  m.launches = j.value("launches", 0u);
  m.tuning = j.value("tuning", "");
  m.config.params = j.value("params", std::map<std::string, double>{});
  m.config.n = j.value("n", uint64_t(0));
  if (const auto b = j.find("block"); b != j.end() && b->is_array() && b->size() == 3)
    m.config.block = {(*b)[0].get<uint32_t>(), (*b)[1].get<uint32_t>(), (*b)[2].get<uint32_t>()};
  if (!std::isfinite(m.gbps) || m.gbps < 0 || !std::isfinite(m.stats.median) || m.stats.median < 0)
    throw std::runtime_error("a row's time or rate is not a number of 0 or more");
  return m;
}

const char* ceiling_kind(TimingSpec::Ceiling c) {
  return c == TimingSpec::Ceiling::Copy ? "copy" : c == TimingSpec::Ceiling::Fp32 ? "fp32" : "read";
}

TimingSpec::Ceiling ceiling_from(const std::string& s) {
  if (s == "copy") return TimingSpec::Ceiling::Copy;
  if (s == "fp32") return TimingSpec::Ceiling::Fp32;
  if (s == "read") return TimingSpec::Ceiling::Read;
  throw std::runtime_error("ceiling_kind '" + s + "' is not read, copy or fp32");
}

Ceilings ceilings_from(const json& j) {
  Ceilings c;
  c.ok = j.value("ok", true);
  c.bytes = j.value("bytes", uint64_t(0));
  c.read_gbps = j.value("read_gbps", 0.0);
  c.copy_gbps = j.value("copy_gbps", 0.0);
  c.read_grid = j.value("read_grid", "");
  return c;
}

}  // namespace

json to_json(const Ceilings& c) {
  json j = {{"ok", c.ok}, {"bytes", c.bytes}, {"read_gbps", c.read_gbps}, {"copy_gbps", c.copy_gbps}, {"read_grid", c.read_grid}};
  if (c.ok) j["read"] = stats_json(c.read), j["copy"] = stats_json(c.copy);
  else j["error"] = c.error;
  return j;
}

json to_json(const Device& d) {
  return {{"name", d.name},
          {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"sm_count", d.sm_count},
          {"l2_bytes", d.l2_bytes},
          {"memory_bytes", d.memory_bytes},
          {"sm_clock_mhz", d.sm_clock_mhz},
          {"mem_clock_mhz", d.mem_clock_mhz},
          {"bus_width_bits", d.bus_width_bits},
          {"datasheet_gbps", d.theoretical_gbps()},
          {"datasheet_fp32_gflops", d.fp32_peak_gflops()}};
}

json to_json(const ReductionTable& t) {
  json j;
  j["n"] = t.n;
  j["dtype"] = t.dtype;
  j["block"] = t.block;
  j["ceilings"] = to_json(t.ceilings);
  if (t.same_size.ok) j["read_same_size"] = to_json(t.same_size);
  j["rows"] = json::array();
  for (const TableRow& r : t.rows) {
    json row = measurement_json(r.m);
    if (r.m.ok) {
      row["pct_of_read_ceiling"] = r.pct_of_read;
      row["vs_cub"] = r.vs_cub;
      row["step_speedup"] = r.step_speedup;
      row["cumulative_speedup"] = r.cumulative_speedup;
    }
    if (const G80Row* g = g80_row(r.m.variant))
      row["g80"] = {{"ms_2_22", g->ms}, {"gbps", g->gbps}, {"step_speedup", g->step_speedup},
                    {"cumulative_speedup", g->cumulative_speedup}};
    j["rows"].push_back(std::move(row));
  }
  if (const TableRow* b = t.best())
    j["best"] = {{"variant", b->m.variant}, {"gbps", b->m.gbps}, {"pct_of_read_ceiling", b->pct_of_read}, {"vs_cub", b->vs_cub}};
  return j;
}

ReductionTable reduction_table_from_json(const json& j) {
  ReductionTable t;
  t.n = j.at("n").get<uint64_t>();
  t.dtype = j.at("dtype").get<std::string>();
  t.block = j.at("block").get<uint32_t>();
  if (j.contains("ceilings")) t.ceilings = ceilings_from(j.at("ceilings"));
  if (j.contains("read_same_size")) t.same_size = ceilings_from(j.at("read_same_size"));
  for (const json& row : j.at("rows")) t.rows.push_back(TableRow{measurement_from(row)});
  fill_speedups(t);  // the ratios from the times, as when they were measured
  t.complete = true;
  return t;
}

json to_json(const KernelTable& t) {
  json j;
  j["kernel"] = t.kernel;
  j["launch"] = t.launch.name;
  j["changes"] = t.launch.changes;
  j["ceiling"] = t.ceiling_name();
  j["ceiling_kind"] = ceiling_kind(t.ceiling);
  if (t.compute()) j["fp32_peak_gflops"] = t.fp32_peak_gflops;
  else if (t.same_size.ok) j["same_size"] = to_json(t.same_size);
  j["reference"] = t.reference;
  j["rows"] = json::array();
  for (const KernelRow& r : t.rows) {
    json row = measurement_json(r.m);
    row["block_text"] = t.block_of(r);
    if (r.m.ok) {
      row["pct_of_ceiling"] = r.pct_of_ceiling;
      if (r.vs_reference > 0) row["vs_reference"] = r.vs_reference;
    }
    j["rows"].push_back(std::move(row));
  }
  return j;
}

KernelTable kernel_table_from_json(const json& j) {
  KernelTable t;
  t.kernel = j.at("kernel").get<std::string>();
  t.launch.kernel = t.kernel;
  t.launch.name = j.value("launch", t.kernel);
  t.launch.changes = j.value("changes", std::vector<std::string>{});
  t.ceiling = ceiling_from(j.value("ceiling_kind", "read"));
  t.fp32_peak_gflops = j.value("fp32_peak_gflops", 0.0);
  if (j.contains("same_size")) t.same_size = ceilings_from(j.at("same_size"));
  t.reference = j.value("reference", "");
  for (const json& row : j.at("rows")) t.rows.push_back(KernelRow{measurement_from(row)});
  fill_ratios(t);
  t.complete = true;
  return t;
}

const ReductionTable* TimingRecording::reduction_table(uint64_t n) const {
  const ReductionTable* best = nullptr;
  double dist = 1e30;
  for (const ReductionTable& t : reductions) {
    const double d = std::fabs(std::log2(double(std::max<uint64_t>(t.n, 1))) - std::log2(double(std::max<uint64_t>(n, 1))));
    if (d < dist) dist = d, best = &t;
  }
  return best;
}

const KernelTable* TimingRecording::kernel_table(const std::string& kernel) const {
  for (const KernelTable& t : kernels)
    if (t.kernel == kernel) return &t;
  return nullptr;
}

std::string save_timing_recording(const std::filesystem::path& path, const TimingRecording& r) {
  json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["device"] = r.device;
  j["recorded"] = r.recorded;
  j["command"] = r.command;
  j["reduction_tables"] = json::array();
  for (const ReductionTable& t : r.reductions) j["reduction_tables"].push_back(to_json(t));
  j["kernel_tables"] = json::array();
  for (const KernelTable& t : r.kernels) j["kernel_tables"].push_back(to_json(t));
  return write_file_atomic(path, j.dump(1, ' ', false, json::error_handler_t::replace) + "\n");
}

std::string load_timing_recording(const std::filesystem::path& path, TimingRecording& r) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return path.string() + ": not a regular file";
  if (std::filesystem::file_size(path, ec) > kMaxFileBytes) return path.string() + ": over 16 MiB: not a timing recording";
  std::string text, err;
  if (!read_file(path, text, err)) return err;
  try {
    const json j = json::parse(text);
    // (looked at before they are read: a "format" that is a number is no recording, not an error)
    const auto format = j.is_object() ? j.find("format") : j.end();
    if (!j.is_object() || format == j.end() || !format->is_string() || format->get<std::string>() != kFormat)
      return path.string() + ": not a warpscope timing recording (its format is not \"" + kFormat + "\")";
    const auto version = j.find("version");
    const int64_t v = version != j.end() && version->is_number_integer() ? version->get<int64_t>() : -1;
    if (v != kVersion) return path.string() + ": version " + std::to_string(v) + " (this warpscope reads version 1)";
    TimingRecording out;
    out.device = j.at("device").get<std::string>();
    out.recorded = j.at("recorded").get<std::string>();
    out.command = j.at("command").get<std::string>();
    for (const json& t : j.at("reduction_tables")) out.reductions.push_back(reduction_table_from_json(t));
    for (const json& t : j.at("kernel_tables")) out.kernels.push_back(kernel_table_from_json(t));
    r = std::move(out);
  } catch (const std::exception& e) {
    return path.string() + ": " + e.what();
  }
  return {};
}

std::vector<TimingRecording> shipped_timing_recordings(std::vector<std::string>* errors) {
  namespace fs = std::filesystem;
  std::vector<TimingRecording> out;
  const fs::path dir = shipped_asset("timing");
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return out;
  std::vector<fs::path> files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    TimingRecording r;
    if (std::string err = load_timing_recording(f, r); !err.empty()) {
      if (errors) errors->push_back(err);
      continue;
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace ws::timing
