// Timing: how fast the real kernels run on this GPU, next to the pictures.
//
// [SECTION] Shared pieces (device line, CSV export)
// [SECTION] Without a GPU: the emulator's counts per variant
// [SECTION] Variants: the lecture's table, live on this GPU, beside CUB
// [SECTION] Variants of any other kernel: against its ceiling and its reference
// [SECTION] Live: a rolling series of the run the labs selected
// [SECTION] Sweep: block size or a kernel parameter on the x axis
// [SECTION] Without a GPU: a recording made on one
// [SECTION] The view
// [SECTION] A picture without a window: ask, then wait
//
// All measuring happens on the TimingRunner's thread; this file only asks and draws.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <thread>

#include "model/timing_runner.h"
#include "views/timing.h"
#include "views/view_common.h"

#include "ws/analysis/views.h"
#include "ws/timing/recording.h"
#include "ws/util/atomic_file.h"
#include "ws/viz/colormap.h"

namespace ws::app {

namespace {

// =================================================================================================
// [SECTION] Shared pieces (device line, CSV export)
// =================================================================================================

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string gbps_text(double gbps) { return gbps >= 1000 ? fmt("%.2f TB/s", gbps / 1000) : fmt("%.1f GB/s", gbps); }

std::string pow2_text(uint64_t n) {
  if (n && !(n & (n - 1))) return "2^" + std::to_string(std::countr_zero(n));
  return std::to_string(n);
}

// The kernel's spec (nullptr for an unknown name).
const KernelSpec* spec_of(const std::string& kernel) {
  const CatalogEntry* e = Catalog::instance().find(kernel);
  return e ? &e->spec : nullptr;
}
bool computes(const std::string& kernel) {
  const KernelSpec* k = spec_of(kernel);
  return k && (k->timing.flops || k->timing.ceiling == TimingSpec::Ceiling::Fp32);
}

void export_csv(Session& s, TimingView& st, const viz::PlotSpec& spec, const char* what) {
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::filesystem::path p = st.export_dir / ("warpscope-timing-" + std::string(what) + "-" + stamp + ".csv");
  for (int i = 2; std::filesystem::exists(p); ++i)
    p = st.export_dir / ("warpscope-timing-" + std::string(what) + "-" + stamp + "-" + std::to_string(i) + ".csv");
  const std::string err = write_file_atomic(p, viz::to_csv(spec));
  st.message = err.empty() ? "saved " + p.string() : err;
  st.message_is_error = !err.empty();
  s.notify(st.message, st.message_is_error);  // the status bar says it too, as for PNG exports
}

// Removes the rows that were not timed (refused, faulted) and returns the footnote that says
// which and why in a few words: "not timed: 10 (needs more than 1 block), cub (no GPU)".
template <typename Row>
std::string drop_untimed(std::vector<Row>& rows) {
  std::string note;
  for (const Row& r : rows)
    if (!r.m.ok) {
      std::string why = r.m.error.substr(0, r.m.error.find_first_of(".:;\n"));
      if (why.size() > 60) why = why.substr(0, 57) + "...";
      note += (note.empty() ? "not timed: " : ", ") + r.m.variant + (why.empty() ? "" : " (" + why + ")");
    }
  std::erase_if(rows, [](const Row& r) { return !r.m.ok; });
  return note;
}

// The height a table of `rows` rows and its header take: with controls, rows of widgets; as a
// picture, rows of text.
float table_height(size_t rows, bool controls) {
  const float row = controls ? ImGui::GetFrameHeightWithSpacing()
                             : ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y + 1;
  return (float(rows) + 1.5f) * row;
}

// A plot with its CSV button under it.
void plot_with_csv(Session& s, TimingView& st, const char* id, const viz::PlotSpec& spec, viz::PlotState& ps, ImVec2 size,
                   const char* csv_name) {
  viz::draw_plot(id, spec, ps, size);
  if (!st.controls) return;  // a picture: no buttons
  ImGui::PushID(id);
  if (ImGui::SmallButton("Save CSV")) export_csv(s, st, spec, csv_name);
  ImGui::PopID();
}

void device_line(const timing::Device& d, const TimingSnapshot& snap, TimingRunner& r, bool controls) {
  const viz::ViewColors vc = viz::view_colors();
  if (!controls) {  // a picture: the device and its ceiling in one line
    const bool ceil = snap.ceilings && snap.ceilings->ok;
    ImGui::TextColored(vc.text_dim, "%s (sm_%d%d, %d SMs)%s%s", d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count,
                       ceil ? ", measured read ceiling " : "", ceil ? gbps_text(snap.ceilings->read_gbps).c_str() : "");
    return;
  }
  ImGui::Text("%s", d.name.c_str());
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
  ImGui::TextWrapped("sm_%d%d · %d SMs · L2 %.0f MiB · %.0f GiB · SM %d MHz · memory %d MHz x %d bit (datasheet %s)",
                     d.cc_major, d.cc_minor, d.sm_count, double(d.l2_bytes) / (1 << 20),
                     double(d.memory_bytes) / double(1ull << 30), d.sm_clock_mhz, d.mem_clock_mhz, d.bus_width_bits,
                     gbps_text(d.theoretical_gbps()).c_str());
  ImGui::PopStyleColor();
  if (snap.ceilings && snap.ceilings->ok) {
    const timing::Ceilings& c = *snap.ceilings;
    ImGui::Text("Measured ceilings: read %s (read-only stream, %s threads), copy %s (device to device)",
                gbps_text(c.read_gbps).c_str(), c.read_grid.c_str(), gbps_text(c.copy_gbps).c_str());
  } else if (snap.ceilings) {
    ImGui::TextColored(vc.conflict, "Ceilings not measured: %s", snap.ceilings->error.c_str());
  } else {
    ImGui::TextColored(vc.text_dim, "Ceilings: not measured yet");
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("Measure again")) r.request_ceilings();
}

// =================================================================================================
// [SECTION] Without a GPU: the emulator's counts per variant
// =================================================================================================

// What the emulator counts per variant, in the order a reduction lecture tells its steps: the
// barriers every block waits at (fewer with each step from 4 on), bank conflicts (gone at 3), SIMD
// efficiency (up at 2), then the memory work.
const char* const kCountMetrics[] = {"barriers (__syncthreads passed)", "bank conflicts", "SIMD efficiency",
                                     "memory + warp-sync instructions", "shared wavefronts", "global sectors"};
const char* const kCountHelp[] = {
    "__syncthreads() passed, summed over every block: each one waits for the slowest warp of its block",
    "shared-memory bank conflicts: extra wavefronts past one per phase (Nsight Compute's "
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared)",
    "active lanes per warp instruction, in percent: divergent branches leave lanes idle",
    "warp instructions that touch memory or synchronize a warp (no arithmetic: the emulator does not see it)",
    "shared-memory passes: one per phase without conflicts",
    "32-byte sectors moved from global memory"};
constexpr int kSimdMetric = 2;

double count_value(const timing::VariantCounts& c, int metric) {
  switch (metric) {
    case 0: return double(c.barriers);
    case 1: return double(c.shared_conflicts);
    case 2: return 100.0 * c.simd_efficiency;
    case 3: return double(c.warp_instructions);
    case 4: return double(c.shared_wavefronts);
    default: return double(c.global_sectors);
  }
}

void draw_counts(Session& s, TimingRunner& r, const TimingSnapshot& snap, TimingView& st) {
  const viz::ViewColors vc = viz::view_colors();
  const float E = em();
  RunRequest req = s.last_request();
  if (req.kernel.empty()) req = default_request();
  const std::string key = Session::history_key(req.kernel, req.config);
  if (key != st.counts_requested) {
    st.counts_requested = key;
    r.request_counts(req.kernel, req.config);
  }
  // (0 in the request means the kernel's default: say which.)
  uint64_t n = req.config.n;
  Dim3 block = req.config.block;
  if (const CatalogEntry* e = Catalog::instance().find(req.kernel)) {
    if (!n) n = e->spec.default_n;
    if (!block.x) block = {e->spec.default_block, std::max(1u, e->spec.default_block_y), 1};
  }
  const KernelSpec* k = spec_of(req.kernel);
  const std::string size = k ? timing::size_text(*k, n) : std::to_string(n);
  if (st.controls) {
    ImGui::PushStyleColor(ImGuiCol_Text, vc.conflict);
    ImGui::TextWrapped("Times need a GPU, and there is none here: %s", timing::device().why_not.c_str());
    ImGui::PopStyleColor();
    ImGui::TextWrapped(
        "What the CPU emulator counts instead, for every variant of %s at the lab's launch (n = %s, block %s): "
        "the work that explains the steps, not their time. With a CUDA GPU this panel times the real kernels.",
        req.kernel.c_str(), size.c_str(), timing::block_text(block).c_str());
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Count:");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(17 * E);
    ImGui::Combo("##metric", &st.count_metric, kCountMetrics, int(std::size(kCountMetrics)));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kCountHelp[st.count_metric]);
    ImGui::SameLine();
    if (ImGui::Button("Count again")) r.request_counts(req.kernel, req.config);
  } else {
    // A picture: one line says what is counted and why it is not time.
    ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
    ImGui::TextWrapped("No GPU here: what the CPU emulator counts per variant of %s (n = %s, block %s), not time.",
                       req.kernel.c_str(), size.c_str(), timing::block_text(block).c_str());
    ImGui::PopStyleColor();
  }

  viz::PlotSpec spec;
  spec.title = (snap.counts_kernel.empty() ? req.kernel : snap.counts_kernel) + ": " + kCountMetrics[st.count_metric] + " per variant (emulator counts, not time)";
  spec.x = {"variant", ""};
  spec.y = {kCountMetrics[st.count_metric], st.count_metric == kSimdMetric ? "%" : "count"};
  viz::PlotSeries bars{"emulator", {}, {}, viz::PlotStyle::Bars, 1};
  std::vector<std::string> failed;
  for (const timing::VariantCounts& c : snap.counts) {
    spec.categories.push_back(c.variant);
    const double v = c.ok ? count_value(c, st.count_metric) : NAN;
    bars.y.push_back(v);
    bars.labels.push_back(c.ok ? (st.count_metric == kSimdMetric ? fmt("%.0f%%", v) : fmt("%.0f", v)) : "");
    if (!c.ok) failed.push_back(c.variant + ": " + c.error);
  }
  spec.series.push_back(std::move(bars));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Under the plot: its CSV button (with controls), the metric's help and what was not counted.
  const ImGuiStyle& style = ImGui::GetStyle();
  float below = ImGui::CalcTextSize(kCountHelp[st.count_metric], nullptr, false, avail.x).y + 2 * style.ItemSpacing.y;
  if (st.controls) below += ImGui::GetFrameHeightWithSpacing();
  for (const std::string& f : failed)
    below += ImGui::CalcTextSize(("not counted: " + f).c_str(), nullptr, false, avail.x).y + style.ItemSpacing.y;
  plot_with_csv(s, st, "counts", spec, st.counts_plot,
                ImVec2(avail.x, std::max((st.controls ? 14 : 6) * E, avail.y - below)), "counts");
  ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
  ImGui::TextWrapped("%s", kCountHelp[st.count_metric]);
  for (const std::string& f : failed) ImGui::TextWrapped("not counted: %s", f.c_str());
  ImGui::PopStyleColor();
}

// =================================================================================================
// [SECTION] Variants: the lecture's table, live on this GPU, beside CUB
// =================================================================================================

const uint64_t kSizes[] = {1ull << 20, 1ull << 22, 1ull << 24, 1ull << 26, 1ull << 28};
const uint32_t kBlocks[] = {128, 256, 512, 1024};

// The problem size of the Variants and Sweep tabs (one choice for both).
void size_combo(TimingView& st) {
  ImGui::SetNextItemWidth(6 * em());
  if (ImGui::BeginCombo("n", pow2_text(kSizes[st.size_index]).c_str())) {
    for (int i = 0; i < int(std::size(kSizes)); ++i)
      if (ImGui::Selectable(pow2_text(kSizes[i]).c_str(), i == st.size_index)) st.size_index = i;
    ImGui::EndCombo();
  }
}

void draw_kernel_table(Session& s, TimingRunner& r, const TimingSnapshot& snap, TimingView& st, const RunRequest& req);

void draw_variants(Session& s, TimingRunner& r, const TimingSnapshot& snap, TimingView& st) {
  const viz::ViewColors vc = viz::view_colors();
  const float E = em();
  RunRequest req = s.last_request();
  if (req.kernel.empty()) req = default_request();
  if (req.kernel != "reduce") {
    draw_kernel_table(s, r, snap, st, req);
    return;
  }
  const char* dtypes[] = {"int", "float"};
  if (st.controls) {
    size_combo(st);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(5 * E);
    ImGui::Combo("dtype", &st.dtype_index, dtypes, 2);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(5 * E);
    if (ImGui::BeginCombo("block", std::to_string(kBlocks[st.block_index]).c_str())) {
      for (int i = 0; i < int(std::size(kBlocks)); ++i)
        if (ImGui::Selectable(std::to_string(kBlocks[i]).c_str(), i == st.block_index)) st.block_index = i;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (ImGui::Button("Time all variants")) r.request_table(kSizes[st.size_index], dtypes[st.dtype_index], kBlocks[st.block_index]);
  }

  if (!snap.table) {
    ImGui::TextColored(vc.text_dim, "Press 'Time all variants': each reduction step of the lecture and CUB's "
                                    "DeviceReduce::Sum are run, checked and timed on this GPU.");
    return;
  }
  // A picture leaves out the rows that were not timed (a refused variant) and says so under it.
  timing::ReductionTable shown = *snap.table;
  const std::string not_timed = st.controls ? std::string() : drop_untimed(shown.rows);
  const timing::ReductionTable& t = shown;
  viz::PlotSpec spec;
  spec.title = "reduce, n = " + pow2_text(t.n) + " " + t.dtype + ", block " + std::to_string(t.block) +
               ": bandwidth per variant (labels: speedup over the previous step)";
  spec.x = {"variant", ""};
  spec.y = {"bandwidth", "GB/s"};
  viz::PlotSeries bars{"this GPU", {}, {}, viz::PlotStyle::Bars, 1};
  bars.y_lo.clear();
  for (const timing::TableRow& row : t.rows) {
    spec.categories.push_back(row.m.variant);
    bars.y.push_back(row.m.ok ? row.m.gbps : NAN);
    // Whiskers: the bandwidth at the 90th and 10th percentile times.
    bars.y_lo.push_back(row.m.ok ? analysis::gigabytes_per_second(row.m.bytes, row.m.stats.p90) : NAN);
    bars.y_hi.push_back(row.m.ok ? analysis::gigabytes_per_second(row.m.bytes, row.m.stats.p10) : NAN);
    bars.labels.push_back(row.m.variant == "cub" ? "CUB"
                          : row.step_speedup > 0 ? fmt("%.2fx", row.step_speedup)
                                                 : "");
  }
  spec.series.push_back(std::move(bars));
  if (t.ceilings.ok) spec.lines.push_back({t.ceilings.read_gbps, "read ceiling " + gbps_text(t.ceilings.read_gbps)});
  if (t.same_size.ok && (!t.ceilings.ok || std::fabs(t.same_size.read_gbps / t.ceilings.read_gbps - 1) > 0.03))
    spec.lines.push_back({t.same_size.read_gbps, "read-only stream over the same " + pow2_text(t.n) + " elements " +
                                                     gbps_text(t.same_size.read_gbps)});
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float table_h = table_height(t.rows.size(), st.controls);
  // The plot takes what the table leaves, but never less than 55% (the table scrolls then); a
  // picture shows every row of the table and gives the plot the rest.
  const float plot_h = st.controls ? std::max({12 * E, 0.55f * avail.y, avail.y - table_h - 3.5f * E})
                                   : std::max(6 * E, avail.y - table_h - 2 * ImGui::GetTextLineHeightWithSpacing());
  plot_with_csv(s, st, "variants", spec, st.variants_plot, ImVec2(avail.x, plot_h), "variants");

  // The table: seed 003's columns, ours and the G80's side by side (scrolls when it does not fit).
  // (As a picture: the columns share the width, a cell too narrow for its text clips it.)
  const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg |
                                (st.controls ? ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY
                                             : ImGuiTableFlags_SizingStretchProp);
  const float rest = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing();
  if (ImGui::BeginTable("##variants", 11, flags, ImVec2(0, std::max(4 * E, std::min(rest, table_h))))) {
    ImGui::TableSetupScrollFreeze(2, 1);
    const char* heads[] = {"var", "step", "median", "spread", "GB/s", "% read*", "vs CUB", "step x", "cumul. x",
                           "G80 step / cumul.", "check"};
    for (const char* h : heads) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const timing::TableRow& row : t.rows) {
      const timing::Measurement& m = row.m;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(m.variant.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(m.variant_name.c_str());
      if (!m.tuning.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.tuning.c_str());
      if (!m.ok) {
        ImGui::TableNextColumn();
        ImGui::TextColored(vc.conflict, "not timed: %s", m.error.c_str());
        continue;
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(analysis::format_duration_ms(m.stats.median).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.1f%%", 100 * m.stats.relative_spread());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("10th-90th percentile of %zu runs: %s .. %s, %zu outlier(s)", m.stats.count,
                          analysis::format_duration_ms(m.stats.p10).c_str(),
                          analysis::format_duration_ms(m.stats.p90).c_str(), m.stats.outliers);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f", m.gbps);
      ImGui::TableNextColumn();
      if (row.pct_of_read > 0) ImGui::Text("%.1f%%", row.pct_of_read);
      ImGui::TableNextColumn();
      if (row.vs_cub > 0) ImGui::TextColored(row.vs_cub >= 1.0 ? vc.ok : vc.text, "%.3f", row.vs_cub);
      ImGui::TableNextColumn();
      if (row.step_speedup > 0) ImGui::TextColored(row.step_speedup < 1.0 ? vc.conflict : vc.text, "%.2fx", row.step_speedup);
      ImGui::TableNextColumn();
      if (row.cumulative_speedup > 0) ImGui::Text("%.2fx", row.cumulative_speedup);
      ImGui::TableNextColumn();
      if (const timing::G80Row* g = timing::g80_row(m.variant); g && g->step_speedup > 0)
        ImGui::TextColored(vc.text_dim, "%.2fx / %.2fx", g->step_speedup, g->cumulative_speedup);
      ImGui::TableNextColumn();
      ImGui::TextColored(m.passed ? vc.ok : vc.conflict, "%s", m.passed ? "PASS" : "FAIL");
    }
    ImGui::EndTable();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
  ImGui::TextWrapped("* of the read-only stream over the same bytes (%s); vs CUB > 1: faster than CUB",
                     gbps_text(t.read_reference().read_gbps).c_str());
  if (!not_timed.empty()) ImGui::TextWrapped("%s", not_timed.c_str());
  ImGui::PopStyleColor();
}

// =================================================================================================
// [SECTION] Variants of any other kernel: against its ceiling and its reference
// =================================================================================================

// The size combo of the Variants, Live and Sweep tabs for a kernel other than the reduction: its
// timing size (0) or one of the sizes its spec offers.
void kernel_size_combo(const KernelSpec& k, uint64_t& n) {
  if (!k.timing.scales) return;
  const std::string now = n ? timing::size_text(k, n) : "timing size (" + timing::size_text(k, k.timing.n) + ")";
  ImGui::SetNextItemWidth(ImGui::CalcTextSize(now.c_str()).x + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::BeginCombo("size", now.c_str())) {
    if (ImGui::Selectable(("timing size (" + timing::size_text(k, k.timing.n) + ")").c_str(), n == 0)) n = 0;
    for (uint64_t v : k.timing.sizes)
      if (ImGui::Selectable(timing::size_text(k, v).c_str(), n == v)) n = v;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
}

void draw_kernel_table(Session& s, TimingRunner& r, const TimingSnapshot& snap, TimingView& st, const RunRequest& req) {
  const viz::ViewColors vc = viz::view_colors();
  const float E = em();
  const KernelSpec* k = spec_of(req.kernel);
  if (!k) return;
  if (st.controls) {
    kernel_size_combo(*k, st.kernel_n);
    if (ImGui::Button("Time all variants")) r.request_kernel_table(req.kernel, req.config, st.kernel_n);
  }
  if (!snap.kernel_table || snap.kernel_table->kernel != req.kernel) {
    ImGui::TextColored(vc.text_dim, "Press 'Time all variants': every variant of %s is run at its timing launch, checked "
                                    "and timed on this GPU.", req.kernel.c_str());
    return;
  }
  timing::KernelTable shown = *snap.kernel_table;
  const std::string not_timed = st.controls ? std::string() : drop_untimed(shown.rows);
  const timing::KernelTable& t = shown;
  const bool fl = t.compute();
  ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
  ImGui::TextWrapped("%s", t.launch.name.c_str());
  for (const std::string& c : t.launch.changes) ImGui::TextWrapped("timing launch: %s", c.c_str());
  ImGui::PopStyleColor();
  viz::PlotSpec spec;
  spec.title = t.kernel + ": " + (fl ? "arithmetic rate" : "bandwidth") + " per variant (labels: % of the ceiling)";
  spec.x = {"variant", ""};
  spec.y = fl ? viz::PlotAxis{"arithmetic", "GFLOP/s"} : viz::PlotAxis{"bandwidth", "GB/s"};
  viz::PlotSeries bars{"this GPU", {}, {}, viz::PlotStyle::Bars, 1};
  const bool several_blocks = std::any_of(t.rows.begin(), t.rows.end(), [&](const timing::KernelRow& x) {
    return x.m.config.block != t.rows.front().m.config.block && x.m.variant == t.rows.front().m.variant;
  });
  for (const timing::KernelRow& row : t.rows) {
    spec.categories.push_back(several_blocks ? row.m.variant + " " + timing::block_text(row.m.config.block) : row.m.variant);
    bars.y.push_back(row.m.ok ? (fl ? row.m.gflops : row.m.gbps) : NAN);
    bars.labels.push_back(row.pct_of_ceiling > 0 ? fmt("%.0f%%", row.pct_of_ceiling) : row.m.ok ? "" : "not timed");
  }
  spec.series.push_back(std::move(bars));
  if (fl && t.fp32_peak_gflops > 0) spec.lines.push_back({t.fp32_peak_gflops, fmt("FP32 peak (datasheet) %.0f GFLOP/s", t.fp32_peak_gflops)});
  if (!fl && t.same_size.ok) {
    if (t.ceiling == TimingSpec::Ceiling::Copy) spec.lines.push_back({t.same_size.copy_gbps, "copy " + gbps_text(t.same_size.copy_gbps)});
    else spec.lines.push_back({t.same_size.read_gbps, "read stream " + gbps_text(t.same_size.read_gbps)});
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float table_h = table_height(t.rows.size(), st.controls);
  const float plot_h = st.controls ? std::max({12 * E, 0.55f * avail.y, avail.y - table_h - 3.5f * E})
                                   : std::max(6 * E, avail.y - table_h - 2 * ImGui::GetTextLineHeightWithSpacing());
  plot_with_csv(s, st, "kernel-variants", spec, st.variants_plot, ImVec2(avail.x, plot_h), "variants");
  const std::string ref_head = t.reference.empty() ? "" : t.reference == "copy" ? "x copy" : "x " + t.reference;
  const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg |
                                (st.controls ? ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY
                                             : ImGuiTableFlags_SizingStretchProp);
  const float rest = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing();
  if (ImGui::BeginTable("##kernel-variants", 8, flags, ImVec2(0, std::max(4 * E, std::min(rest, table_h))))) {
    const char* heads[] = {"variant", "block", "median", "spread", fl ? "GFLOP/s" : "GB/s", "% ceiling", ref_head.c_str(), "check"};
    for (const char* h : heads) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const timing::KernelRow& row : t.rows) {
      const timing::Measurement& m = row.m;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(m.variant.c_str());
      if (ImGui::IsItemHovered() && !m.variant_name.empty()) ImGui::SetTooltip("%s", m.variant_name.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(t.block_of(row).c_str());
      if (!m.ok) {
        ImGui::TableNextColumn();
        ImGui::TextColored(vc.conflict, "not timed: %s", m.error.c_str());
        continue;
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(analysis::format_duration_ms(m.stats.median).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.1f%%", 100 * m.stats.relative_spread());
      ImGui::TableNextColumn();
      ImGui::Text("%.1f", fl ? m.gflops : m.gbps);
      ImGui::TableNextColumn();
      if (row.pct_of_ceiling > 0) ImGui::Text("%.1f%%", row.pct_of_ceiling);
      ImGui::TableNextColumn();
      if (row.vs_reference > 0) ImGui::TextColored(row.vs_reference >= 1.0 ? vc.ok : vc.text, "%.3f", row.vs_reference);
      ImGui::TableNextColumn();
      ImGui::TextColored(m.passed ? vc.ok : vc.conflict, "%s", m.passed ? "PASS" : "FAIL");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.check.c_str());
    }
    ImGui::EndTable();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
  ImGui::TextWrapped("%% ceiling: of the %s", t.ceiling_name().c_str());
  if (!not_timed.empty()) ImGui::TextWrapped("%s", not_timed.c_str());
  ImGui::PopStyleColor();
}

// =================================================================================================
// [SECTION] Live: a rolling series of the run the labs selected
// =================================================================================================

}  // namespace

LiveTarget live_target(const RunRequest& labs_run, const TimingView& st) {
  LiveTarget t;
  t.kernel = labs_run.kernel.empty() ? default_request().kernel : labs_run.kernel;
  const RunConfig& lab = labs_run.kernel.empty() ? default_request().config : labs_run.config;
  const timing::TimingLaunch l = timing::timing_launch(Catalog::instance(), t.kernel, lab, st.kernel_n);
  t.config = l.error.empty() ? l.config : lab;
  t.config.record.blocks.clear();
  t.config.cancel.reset();
  t.changes = l.changes;
  t.error = l.error;
  t.name = l.error.empty() ? l.name : t.kernel + " " + lab.variant;
  return t;
}

namespace {

void draw_live(Session& s, TimingRunner& r, const TimingSnapshot& snap, TimingView& st) {
  const viz::ViewColors vc = viz::view_colors();
  const float E = em();
  const LiveTarget target = live_target(s.last_request(), st);
  const std::string& name = target.name;
  bool on = !snap.live_series.empty();
  if (st.controls) {
    if (ImGui::Checkbox("Time the labs' run live", &on)) {
      if (on) r.set_live(target.kernel, target.config, name);
      else r.stop_live();
    }
  }
  if (on && snap.live_series != name) r.set_live(target.kernel, target.config, name);  // the lab moved on: follow it
  const bool fl = computes(target.kernel);
  if (st.controls) {
    ImGui::SameLine();
    if (const KernelSpec* k = spec_of(target.kernel)) kernel_size_combo(*k, st.kernel_n);
    if (ImGui::Button(snap.live_paused ? "Resume" : "Pause")) r.set_paused(!snap.live_paused);
  }
  ImGui::TextColored(vc.text_dim, on ? "Timing %s a few times a second (10 runs each, median with the 10-90%% spread). "
                                        "Toggle variants in a lab: a new line starts."
                                     : "Off. %s is what the labs show now.",
                     name.c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
  for (const std::string& c : target.changes) ImGui::TextWrapped("timing launch: %s", c.c_str());
  ImGui::PopStyleColor();
  if (!target.error.empty()) ImGui::TextColored(vc.conflict, "%s", target.error.c_str());

  // One line per configuration timed, in the order they first appeared.
  viz::PlotSpec ms, bw;
  ms.title = "kernel time";
  ms.x = bw.x = {"time", "s"};
  ms.y = {"time", "ms"};
  bw.title = "bandwidth";
  bw.y = {"bandwidth", "GB/s"};
  ms.y_from_zero = bw.y_from_zero = true;
  for (const LivePoint& p : snap.live) {
    auto it = std::find_if(ms.series.begin(), ms.series.end(), [&](const viz::PlotSeries& x) { return x.name == p.series; });
    if (it == ms.series.end()) {
      ms.series.push_back({p.series, {}, {}, viz::PlotStyle::Lines});
      bw.series.push_back({p.series, {}, {}, viz::PlotStyle::Lines});
      it = ms.series.end() - 1;
    }
    const size_t k = size_t(it - ms.series.begin());
    it->x.push_back(p.t);
    it->y.push_back(p.ms);
    it->y_lo.push_back(p.p10);
    it->y_hi.push_back(p.p90);
    bw.series[k].x.push_back(p.t);
    bw.series[k].y.push_back(fl ? p.gflops : p.gbps);
  }
  if (fl) {
    bw.title = "arithmetic rate";
    bw.y = {"arithmetic", "GFLOP/s"};
    if (const double peak = timing::device().fp32_peak_gflops(); peak > 0) bw.lines.push_back({peak, "FP32 peak (datasheet)"});
  } else if (snap.ceilings && snap.ceilings->ok) {
    bw.lines.push_back({snap.ceilings->read_gbps, "read ceiling"});
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float h = std::max(10 * E, (avail.y - 3 * E) / 2);
  plot_with_csv(s, st, "live-ms", ms, st.live_ms_plot, ImVec2(avail.x, h), "live-time");
  plot_with_csv(s, st, "live-gbps", bw, st.live_gbps_plot, ImVec2(avail.x, h), "live-bandwidth");
}

// =================================================================================================
// [SECTION] Sweep: block size or a kernel parameter on the x axis
// =================================================================================================

void draw_sweep(Session& s, TimingRunner& r, const TimingSnapshot& snap, TimingView& st) {
  const viz::ViewColors vc = viz::view_colors();
  const float E = em();
  RunRequest req = s.last_request();
  if (req.kernel.empty()) req = default_request();
  const KernelSpec* k = spec_of(req.kernel);
  const bool reduce = req.kernel == "reduce";
  // The base launch: the reduction at the tab's n (its lecture sizes), any other kernel at its
  // timing launch.
  RunConfig base = req.config;
  std::vector<std::string> changes;
  if (reduce) {
    base.n = kSizes[st.size_index];
  } else {
    const timing::TimingLaunch l = timing::timing_launch(Catalog::instance(), req.kernel, req.config, st.kernel_n);
    if (l.error.empty()) base = l.config, changes = l.changes;
  }
  base.record.blocks.clear();
  base.cancel.reset();
  std::vector<std::string> axes;
  if (k && k->block_2d) axes.push_back("block shape");
  axes.push_back("block");
  if (k)
    for (const ParamSpec& p : k->params)
      if (!k->timing.params.count(p.name)) axes.push_back(p.name);
  st.sweep_axis = std::clamp(st.sweep_axis, 0, int(axes.size()) - 1);
  if (st.controls) {
    ImGui::SetNextItemWidth(9 * E);
    if (ImGui::BeginCombo("x axis", axes[size_t(st.sweep_axis)].c_str())) {
      for (int i = 0; i < int(axes.size()); ++i)
        if (ImGui::Selectable(axes[size_t(i)].c_str(), i == st.sweep_axis)) st.sweep_axis = i;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (reduce) {
      size_combo(st);
      ImGui::SameLine();
    } else if (k) {
      kernel_size_combo(*k, st.kernel_n);
    }
  }
  const std::string& axis = axes[size_t(st.sweep_axis)];
  std::vector<int64_t> values;
  std::vector<Dim3> shapes;
  if (axis == "block shape") {
    shapes = timing::block_shapes_for(Catalog::instance(), req.kernel, base);
  } else if (axis == "block") {
    for (int64_t b = 32; b <= 1024; b *= 2) values.push_back(b);
  } else if (k) {
    const ParamSpec* p = k->param(axis);
    if (!p->choices.empty())  // every choice (the input distributions), as categories
      for (int64_t v = 0; v < int64_t(p->choices.size()); ++v) values.push_back(v);
    else
      for (int64_t v = std::max<int64_t>(1, p->min); v <= std::min<int64_t>(p->max, 1 << 12); v *= 2) values.push_back(v);
  }
  if (st.controls) {
    if (ImGui::Button("Sweep")) {
      if (axis == "block shape") r.request_block_sweep(req.kernel, base, shapes);
      else r.request_sweep(req.kernel, base, axis, values);
    }
    ImGui::SameLine();
  }
  ImGui::TextColored(vc.text_dim, "%s %s, %zu values of %s", req.kernel.c_str(), base.variant.c_str(),
                     axis == "block shape" ? shapes.size() : values.size(), axis.c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
  for (const std::string& c : changes) ImGui::TextWrapped("timing launch: %s", c.c_str());
  ImGui::PopStyleColor();
  if (snap.sweep.empty()) return;
  const bool fl = computes(snap.sweep_kernel);
  viz::PlotSpec spec;
  spec.title = snap.sweep_title + (fl ? ": arithmetic rate over " : ": bandwidth over ") + snap.sweep_axis;
  spec.x = {snap.sweep_axis, ""};
  spec.y = fl ? viz::PlotAxis{"arithmetic", "GFLOP/s"} : viz::PlotAxis{"bandwidth", "GB/s"};
  // One bar per value: a block shape is a category, not a number on a line.
  const KernelSpec* swept = spec_of(snap.sweep_kernel);
  const ParamSpec* axis_param = swept ? swept->param(snap.sweep_axis) : nullptr;
  const bool categories = snap.sweep_axis == "block shape" || (axis_param && !axis_param->choices.empty());
  viz::PlotSeries line{snap.sweep_title, {}, {}, categories ? viz::PlotStyle::Bars : viz::PlotStyle::Lines, 2};
  for (size_t i = 0; i < snap.sweep.size(); ++i) {
    const timing::SweepPoint& p = snap.sweep[i];
    spec.categories.push_back(p.label.empty() ? std::to_string(p.x) : p.label);
    line.x.push_back(double(i));
    const double v = fl ? p.m.gflops : p.m.gbps;
    line.y.push_back(p.m.ok ? v : NAN);
    line.labels.push_back(p.m.ok ? fmt("%.0f", v) : "refused");
  }
  spec.series.push_back(std::move(line));
  if (fl) {
    if (const double peak = timing::device().fp32_peak_gflops(); peak > 0) spec.lines.push_back({peak, "FP32 peak (datasheet)"});
  } else if (snap.ceilings && snap.ceilings->ok) {  // the ceiling the kernel is held against
    const KernelSpec* sk = spec_of(snap.sweep_kernel);
    if (sk && sk->timing.ceiling == TimingSpec::Ceiling::Copy)
      spec.lines.push_back({snap.ceilings->copy_gbps, "copy " + gbps_text(snap.ceilings->copy_gbps)});
    else spec.lines.push_back({snap.ceilings->read_gbps, "read ceiling " + gbps_text(snap.ceilings->read_gbps)});
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  plot_with_csv(s, st, "sweep", spec, st.sweep_plot, ImVec2(avail.x, std::max(12 * E, avail.y - 2 * E)), "sweep");
}

}  // namespace

// =================================================================================================
// [SECTION] Without a GPU: a recording made on one
// =================================================================================================

// The tables that ship recorded on a GPU (assets/timing/), loaded once.
const std::vector<timing::TimingRecording>& recordings() {
  static const std::vector<timing::TimingRecording> r = timing::shipped_timing_recordings();
  return r;
}

// Where a recording has the lab's kernel: its table, drawn as a live one would be, under a line
// that says it is a recording and where it was made. False when none has it.
bool draw_recorded(Session& s, TimingRunner& r, TimingView& st) {
  RunRequest req = s.last_request();
  if (req.kernel.empty()) req = default_request();
  const timing::TimingRecording* from = nullptr;
  TimingSnapshot snap;
  for (const timing::TimingRecording& rec : recordings()) {
    if (req.kernel == "reduce" && !rec.reductions.empty()) {
      snap.table = *rec.reduction_table(req.config.n ? req.config.n : 1ull << 22);
      from = &rec;
      break;
    }
    if (const timing::KernelTable* t = rec.kernel_table(req.kernel)) {
      snap.kernel_table = *t;
      from = &rec;
      break;
    }
  }
  if (!from) return false;
  const viz::ViewColors vc = viz::view_colors();
  ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
  ImGui::TextWrapped("No GPU here: recorded on %s, %s (%s).", from->device.c_str(), from->recorded.c_str(), from->command.c_str());
  ImGui::PopStyleColor();
  draw_variants(s, r, snap, st);
  return true;
}

// =================================================================================================
// [SECTION] The view
// =================================================================================================

void TimingView::draw(Session& s) {
  TimingRunner& r = runner;
  const viz::ViewColors vc = viz::view_colors();
  const std::shared_ptr<const TimingSnapshot> snap = r.snapshot();
  const timing::Device& d = timing::device();
  // Timings in hand are shown even where there is no GPU now (tests, results kept from earlier).
  const bool gpu_results = d.present || snap->table || snap->kernel_table || !snap->live.empty() || !snap->sweep.empty();
  if (!gpu_results && draw_recorded(s, r, *this)) return;
  if (!gpu_results) {
    draw_counts(s, r, *snap, *this);
  } else if (!d.present) {
    ImGui::PushStyleColor(ImGuiCol_Text, vc.text_dim);
    ImGui::TextWrapped("No GPU here (%s): these are the timings in hand.", d.why_not.c_str());
    ImGui::PopStyleColor();
  } else {
    if (!asked_ceilings) {
      asked_ceilings = true;
      if (!snap->ceilings) r.request_ceilings();
    }
    device_line(d, *snap, r, controls);
  }
  if (!snap->status.empty()) {
    ImGui::TextColored(vc.text_dim, "%s ...", snap->status.c_str());
    if (controls) {
      ImGui::SameLine();
      if (ImGui::SmallButton("Cancel")) r.cancel();
    }
  }
  if (!snap->error.empty()) ImGui::TextColored(vc.conflict, "%s", snap->error.c_str());
  if (!message.empty()) ImGui::TextColored(message_is_error ? vc.conflict : vc.text_dim, "%s", message.c_str());
  if (!gpu_results) return;
  if (!controls) {  // a picture: the tab its option names, without the tab bar
    if (picture_tab == 1) draw_live(s, r, *snap, *this);
    else if (picture_tab == 2) draw_sweep(s, r, *snap, *this);
    else draw_variants(s, r, *snap, *this);
    return;
  }
  if (ImGui::BeginTabBar("##timing-tabs")) {
    const ImGuiTabItemFlags first = open_tab == 0 ? ImGuiTabItemFlags_SetSelected : 0;
    const ImGuiTabItemFlags second = open_tab == 1 ? ImGuiTabItemFlags_SetSelected : 0;
    const ImGuiTabItemFlags third = open_tab == 2 ? ImGuiTabItemFlags_SetSelected : 0;
    open_tab = -1;  // applied once
    // (picture_tab follows the tab shown: the "tab" option reads it, and a saved step keeps it)
    if (ImGui::BeginTabItem("Variants", nullptr, first)) {
      picture_tab = 0;
      draw_variants(s, r, *snap, *this);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Live", nullptr, second)) {
      picture_tab = 1;
      draw_live(s, r, *snap, *this);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Sweep", nullptr, third)) {
      picture_tab = 2;
      draw_sweep(s, r, *snap, *this);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
}

// =================================================================================================
// [SECTION] A picture without a window: ask, then wait
// =================================================================================================

const ViewOption TimingView::kOptions[3] = {
    {"tab", "variants|live|sweep", "the variants table beside CUB, a live series of the labs' run, or a sweep",
     [](const View& v) { return static_cast<const TimingView&>(v).picture_tab; },
     [](View& v, int k) {
       auto& t = static_cast<TimingView&>(v);
       t.open_tab = t.picture_tab = k;
     }},
    {"count", "barriers|conflicts|simd|instructions|wavefronts|sectors",
     "without a GPU, what the emulator's bars count per variant: barriers passed, bank conflicts, SIMD "
     "efficiency, memory instructions, shared wavefronts or global sectors",
     [](const View& v) { return static_cast<const TimingView&>(v).count_metric; },  // kCountMetrics' order
     [](View& v, int k) { static_cast<TimingView&>(v).count_metric = k; }},
    kControlsOption};

// With a GPU: the ceilings and the reduction table (n from the run when it is 2^20 or more, else
// 2^24); the live tab lets live mode run for two seconds first; the sweep tab sweeps the block
// size. Without one: the emulator's counts for the run.
std::string TimingView::prepare_picture(Session& s) {
  TimingRunner& r = runner;
  const RunRequest& req = s.last_request();
  const int tab = open_tab < 0 ? 0 : open_tab;
  if (timing::device().present) {
    asked_ceilings = true;
    r.request_ceilings();
    const uint64_t n = req.config.n >= (1u << 20) ? req.config.n : (1u << 24);
    const bool reduce = req.kernel.empty() || req.kernel == "reduce";
    const std::string kernel = req.kernel.empty() ? default_request().kernel : req.kernel;
    RunConfig cfg = req.config;
    cfg.n = n;
    cfg.record.blocks.clear();
    if (!reduce) {  // any other kernel: its timing launch
      const timing::TimingLaunch l = timing::timing_launch(Catalog::instance(), kernel, req.config, kernel_n);
      if (!l.error.empty()) return l.error;
      cfg = l.config;
    }
    const KernelSpec* k = spec_of(kernel);
    if (tab == 1) {
      const LiveTarget t = live_target(req, *this);
      r.set_live(t.kernel, t.config, t.name);
      if (!r.wait_idle(std::chrono::minutes(1))) return "measuring the ceilings did not finish within a minute";
      // A few points of the series (a large launch takes a second or more per point: its inputs
      // are made and its result checked each time), at most half a minute.
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      auto points = [&] {
        const auto snap = r.snapshot();
        return std::count_if(snap->live.begin(), snap->live.end(), [&](const LivePoint& p) { return p.series == t.name; });
      };
      while (points() < 4 && r.snapshot()->error.empty() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      r.set_paused(true);
    } else if (tab == 2 && k && k->block_2d) {
      sweep_axis = 0;  // "block shape"
      r.request_block_sweep(kernel, cfg, timing::block_shapes_for(Catalog::instance(), kernel, cfg));
    } else if (tab == 2) {
      sweep_axis = 0;  // "block"
      r.request_sweep(kernel, cfg, "block", {32, 64, 128, 256, 512, 1024});
    } else if (!reduce) {
      r.request_kernel_table(kernel, req.config, kernel_n);
    } else {
      r.request_table(n, req.config.dtype.empty() ? "int" : req.config.dtype, 256);
    }
  } else {
    counts_requested = Session::history_key(req.kernel, req.config);
    r.request_counts(req.kernel, req.config);
  }
  if (!r.wait_idle(std::chrono::minutes(5))) return "the timing measurements did not finish within 5 minutes";
  return {};
}

}  // namespace ws::app
