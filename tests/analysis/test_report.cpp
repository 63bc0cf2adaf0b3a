// analyze() on hand-built launches: per-site rows, totals under Nsight Compute names, divergence,
// atomics, per-event summaries, metrics_of(), the text table and the JSON document.
#include <gtest/gtest.h>

#include <functional>

#include <nlohmann/json.hpp>

#include "trace_builder.h"
#include "ws/analysis/analysis.h"

using namespace ws;
using namespace ws::analysis;
using wstest::kFull;
using wstest::TraceBuilder;

namespace {

double metric(const Report& r, const std::string& name) {
  for (const auto& [n, v] : ncu_metrics(r))
    if (n == name) return v;
  ADD_FAILURE() << "no metric " << name;
  return -1;
}

const SiteMetrics* row(const Report& r, uint32_t site, AccessKind kind) {
  for (const SiteMetrics& s : r.sites)
    if (s.site == site && s.kind == kind) return &s;
  return nullptr;
}

// The seeds' reduction #2, interleaved addressing with bank conflicts (int, 256 threads, 1 block):
//   sdata[tid] = g_idata[i]; __syncthreads();
//   for (s = 1; s < 256; s *= 2) { index = 2*s*tid; if (index < 256) sdata[index] += sdata[index+s];
//                                   __syncthreads(); }
//   if (tid == 0) g_odata[blockIdx.x] = sdata[0];
struct Reduction {
  TraceBuilder b{Dim3{256, 1, 1}};
  uint32_t sdata, gin, gout;
  uint32_t s_init, s_idx, s_idx_s, s_out_load, g_in, g_out;
  Reduction() {
    sdata = b.alloc("sdata", MemSpace::Shared, 4, 256);
    gin = b.alloc("g_idata", MemSpace::Global, 4, 256, 0x100000);
    gout = b.alloc("g_odata", MemSpace::Global, 4, 1, 0x200000);
    g_in = b.site(20, "    sdata[tid] = g_idata[i];", 18);
    s_init = b.site(20, "    sdata[tid] = g_idata[i];", 5);
    s_idx = b.site(25, "            sdata[index] += sdata[index + s];", 13);
    s_idx_s = b.site(25, "            sdata[index] += sdata[index + s];", 29);
    s_out_load = b.site(30, "    if (tid == 0) g_odata[blockIdx.x] = sdata[0];", 45);
    g_out = b.site(30, "    if (tid == 0) g_odata[blockIdx.x] = sdata[0];", 23);
    std::vector<uint32_t> all{0, 1, 2, 3, 4, 5, 6, 7};
    for (uint32_t w = 0; w < 8; ++w) {
      b.access_fn(0, w, g_in, gin, AccessKind::Load, 4, kFull, [&](uint32_t l) { return 4ull * (32 * w + l); });
      b.access_fn(0, w, s_init, sdata, AccessKind::Store, 4, kFull, [&](uint32_t l) { return 4ull * (32 * w + l); });
    }
    b.barrier(0, all);
    for (uint32_t s = 1; s < 256; s *= 2) {
      for (uint32_t w = 0; w < 8; ++w) {
        uint32_t mask = 0;
        for (uint32_t l = 0; l < 32; ++l)
          if (2 * s * (32 * w + l) < 256) mask |= 1u << l;
        if (!mask) continue;
        auto idx = [&](uint32_t l) { return 4ull * (2 * s * (32 * w + l)); };
        auto idx_s = [&](uint32_t l) { return 4ull * (2 * s * (32 * w + l) + s); };
        b.access_fn(0, w, s_idx_s, sdata, AccessKind::Load, 4, mask, idx_s);
        b.access_fn(0, w, s_idx, sdata, AccessKind::Load, 4, mask, idx);
        b.access_fn(0, w, s_idx, sdata, AccessKind::Store, 4, mask, idx);
      }
      b.barrier(0, all);
    }
    b.access(0, 0, s_out_load, sdata, AccessKind::Load, 4, 0x1u, {0});
    b.access(0, 0, g_out, gout, AccessKind::Store, 4, 0x1u, {0});
  }
};

}  // namespace

// Hand derivation (per warp instruction; lane l of warp w is tid = 32w + l; word of sdata[index]
// is 2*s*tid): active threads are tid < 128/s.
//   s=1  : 128 thr = warps 0-3 full; words 2*tid      -> 2-way: 2 wavefronts, 1 conflict each
//   s=2  : 64 thr  = warps 0-1;      words 4*tid      -> 4-way: 4, 3
//   s=4  : 32 thr  = warp 0;         words 8*tid      -> banks 0,8,16,24 x 8 words: 8-way: 8, 7
//   s=8  : 16 lanes;                 words 16*tid     -> banks 0,16 x 8: 8-way
//   s=16 : 8 lanes;                  words 32*tid     -> bank 0 x 8: 8-way
//   s=32 : 4 lanes -> 4-way;  s=64 : 2 lanes -> 2-way;  s=128 : 1 lane -> 1
// (`index + s` words are 2*s*tid + s: same pattern shifted by s, same ways.)
// Per (s, warp) there are 2 loads and 1 store with these numbers:
//   store wavefronts = 4*2 + 2*4 + 8 + 8 + 8 + 4 + 2 + 1 = 47 over 4+2+1+1+1+1+1+1 = 12 stores
//   load wavefronts  = 2 * 47 = 94 over 24 loads
// plus the initial sdata[tid] stores (8 x 1 wavefront) and the final sdata[0] load (1):
//   ld: 25 instructions, 95 wavefronts, 70 conflicts;  st: 20 instructions, 55 wavefronts, 35 conflicts.
// Global: 8 coalesced loads x 4 sectors = 32 sectors; 1 store of 1 lane = 1 sector.
TEST(Report, InterleavedReductionTotals) {
  Reduction red;
  const Trace t = red.b.finish();
  const Report r = analyze(t);
  EXPECT_EQ(metric(r, "smsp__inst_executed_op_shared_ld.sum"), 25);
  EXPECT_EQ(metric(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 95);
  EXPECT_EQ(metric(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 70);
  EXPECT_EQ(metric(r, "smsp__inst_executed_op_shared_st.sum"), 20);
  EXPECT_EQ(metric(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 55);
  EXPECT_EQ(metric(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 35);
  EXPECT_EQ(metric(r, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 8);
  EXPECT_EQ(metric(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 32);
  EXPECT_EQ(metric(r, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 1);
  EXPECT_EQ(metric(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 1);
  EXPECT_EQ(metric(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"), 0);
  EXPECT_EQ(r.totals.shared[kLd].max_ways, 8u);

  // Per site: `sdata[index]` has a load row and a store row, 12 instructions / 47 wavefronts each.
  const SiteMetrics* ld = row(r, red.s_idx, AccessKind::Load);
  const SiteMetrics* st = row(r, red.s_idx, AccessKind::Store);
  const SiteMetrics* lds = row(r, red.s_idx_s, AccessKind::Load);
  ASSERT_TRUE(ld && st && lds);
  EXPECT_EQ(ld->instructions, 12u);
  EXPECT_EQ(ld->wavefronts, 47u);
  EXPECT_EQ(ld->conflicts, 35u);
  EXPECT_EQ(st->wavefronts, 47u);
  EXPECT_EQ(lds->conflicts, 35u);
  EXPECT_EQ(lds->max_ways, 8u);
  EXPECT_EQ(ld->space, MemSpace::Shared);
  // Heatmap for the site: bank 0 is in every instruction; excess ways summed per bank.
  // bank 0 excess: s=1: 4 instr x 1, s=2: 2 x 3, s=4,8,16: 7 each, s=32: 3, s=64: 1 -> 4+6+21+3+1 = 35.
  EXPECT_EQ(ld->bank_excess[0], 35u);
  EXPECT_EQ(ld->bank_excess[1], 0u);
  // rows come out in source order (file, line, rank): first line 20, last line 30
  ASSERT_FALSE(r.sites.empty());
  EXPECT_EQ(r.site_table[r.sites.front().site].line, 20u);
  EXPECT_EQ(r.site_table[r.sites.back().site].line, 30u);

  // The seeds' "2-way at s=1, 4-way at s=2, 8-way at s=4", instruction by instruction.
  int seen = 0;
  for (size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    if (e.type != EventType::Access || e.site != red.s_idx || e.kind != AccessKind::Load || e.warp != 0) continue;
    const uint32_t expect[] = {2, 4, 8, 8, 8, 4, 2, 1};
    ASSERT_LT(seen, 8);
    EXPECT_EQ(r.events[i].wavefronts, expect[seen]) << "s = " << (1 << seen);
    EXPECT_EQ(r.events[i].conflicts, expect[seen] - 1);
    EXPECT_EQ(metrics_of(t, e).shared.max_ways, expect[seen]);
    ++seen;
  }
  EXPECT_EQ(seen, 8);
  EXPECT_TRUE(r.hazards.empty());  // a barrier after every step
}

// Divergence: block of 48 threads -> warp 0 has 32 live lanes, warp 1 has 16.
// warp 0: ffffffff (A) -> aaaaaaaa (B, split) -> 55555555 (C, switch) -> ffffffff (D, reconverge)
// warp 1: 0000ffff (A)
// active lanes: 32+16+16+32 + 16 = 112 over 5 instructions
//   simd_efficiency = 112 / (5*32) = 0.7; of live lanes = 112 / (4*32 + 16) = 112/144
//   warp 0: 96/128 = 0.75 (live 0.75); warp 1: 16/32 = 0.5, of live lanes 16/16 = 1.0
TEST(Report, Divergence) {
  TraceBuilder b(Dim3{48, 1, 1});
  const uint32_t g = b.alloc("a", MemSpace::Global, 4, 48, 0x1000);
  const uint32_t A = b.site(10, "x = a[t];"), B = b.site(11, "if (t & 1) a[t] = 1;"),
                 C = b.site(12, "else a[t] = 2;"), D = b.site(13, "a[t] += 1;");
  auto f = [](uint32_t l) { return 4ull * l; };
  b.access_fn(0, 0, A, g, AccessKind::Load, 4, kFull, f);
  b.access_fn(0, 0, B, g, AccessKind::Store, 4, 0xaaaaaaaau, f);
  b.access_fn(0, 0, C, g, AccessKind::Store, 4, 0x55555555u, f);
  b.access_fn(0, 0, D, g, AccessKind::Load, 4, kFull, f);
  b.access_fn(0, 1, A, g, AccessKind::Load, 4, 0x0000ffffu, [](uint32_t l) { return 128 + 4ull * l; });
  const Trace t = b.finish();
  const Report r = analyze(t);
  const DivergenceCounters& d = r.totals.divergence;
  EXPECT_EQ(d.instructions, 5u);
  EXPECT_EQ(d.active_lanes, 112u);
  EXPECT_DOUBLE_EQ(d.simd_efficiency(), 0.7);
  EXPECT_DOUBLE_EQ(d.simd_efficiency_live(), 112.0 / 144.0);
  EXPECT_EQ(d.splits, 1u);
  EXPECT_EQ(d.switches, 1u);
  EXPECT_EQ(d.reconverges, 1u);
  ASSERT_EQ(r.warps.size(), 2u);
  EXPECT_DOUBLE_EQ(r.warps[0].simd_efficiency(), 0.75);
  EXPECT_EQ(r.warps[1].live_lanes, 16u);
  EXPECT_DOUBLE_EQ(r.warps[1].simd_efficiency(), 0.5);
  EXPECT_DOUBLE_EQ(r.warps[1].simd_efficiency_live(), 1.0);
  EXPECT_EQ(row(r, B, AccessKind::Store)->splits, 1u);
  EXPECT_EQ(row(r, C, AccessKind::Store)->switches, 1u);
  EXPECT_EQ(row(r, D, AccessKind::Load)->reconverges, 1u);
  EXPECT_DOUBLE_EQ(row(r, B, AccessKind::Store)->avg_active_lanes(), 16.0);
  EXPECT_EQ(r.events[1].transition, MaskTransition::Split);
  EXPECT_EQ(r.events[4].transition, MaskTransition::First);  // warp 1's first
  // the per-site divergence list (for the source view)
  ASSERT_EQ(r.divergence.size(), 4u);
  EXPECT_EQ(r.divergence[0].site, A);
  EXPECT_EQ(r.divergence[0].instructions, 2u);
  // metrics_of gives the same transition, with the previous mask
  const InstructionMetrics m = metrics_of(t, t.events[2]);
  EXPECT_EQ(m.transition, MaskTransition::Switch);
  EXPECT_EQ(m.previous_mask, 0xaaaaaaaau);
  EXPECT_EQ(m.active_lanes, 16u);
  EXPECT_EQ(m.lane_address[0], 0x1000u);
  EXPECT_EQ(m.lane_address[2], 0x1008u);
  EXPECT_EQ(m.lane_address[1], 0u);  // inactive
  EXPECT_EQ(m.global.sectors, 4u);   // lanes 0,2,..,30 still span bytes 0..123
}

// Atomics: 32 lanes atomicAdd on one global counter, and a shared histogram with 2 bins.
// ncu counts atomics apart: they appear under op_atom and never under op_ld / op_st.
// nvcc issues a warp-uniform integer atomic (add, min, max, and, or, xor of 4-byte words, every
// active lane on one address) as ONE lane's update after a warp reduction: one sector pass where
// the source asks for one a lane. Floating point, CAS and exchange, several addresses, one lane:
// as written. Each case's passes are counted here: the most lanes on one address per sector.
TEST(Report, AtomicsAsNvccCompilesThem) {
  struct Case {
    const char* what;
    ws::AtomicOp op;
    const char* type;
    uint32_t mask;
    std::function<uint64_t(uint32_t)> offset;
    uint64_t written, compiled;
  };
  const std::vector<Case> cases = {
      {"int add, one address", ws::AtomicOp::Add, "int", kFull, [](uint32_t) { return 0ull; }, 32, 1},
      {"unsigned max, 5 lanes", ws::AtomicOp::Max, "unsigned int", 0x1fu, [](uint32_t) { return 8ull; }, 5, 1},
      {"int or", ws::AtomicOp::Or, "int", kFull, [](uint32_t) { return 4ull; }, 32, 1},
      {"float add", ws::AtomicOp::Add, "float", kFull, [](uint32_t) { return 0ull; }, 32, 32},
      {"int CAS", ws::AtomicOp::CAS, "int", kFull, [](uint32_t) { return 0ull; }, 32, 32},
      {"int exchange", ws::AtomicOp::Exch, "int", kFull, [](uint32_t) { return 0ull; }, 32, 32},
      {"int add, two words", ws::AtomicOp::Add, "int", kFull, [](uint32_t l) { return 4ull * (l & 1); }, 16, 16},
      {"int add, one lane", ws::AtomicOp::Add, "int", 0x4u, [](uint32_t) { return 0ull; }, 1, 1},
  };
  for (const Case& c : cases) {
    TraceBuilder b(Dim3{32, 1, 1});
    const uint32_t a = b.alloc("x", MemSpace::Global, 4, 8, 0x4000, c.type);
    const uint32_t s = b.site(5, "atomicOp(&x[k], v);");
    b.access_fn(0, 0, s, a, AccessKind::Atomic, 4, c.mask, c.offset).op = uint8_t(c.op);
    const Report r = analyze(b.finish());
    EXPECT_EQ(r.totals.atomics_global.sector_passes, c.written) << c.what;
    EXPECT_EQ(r.totals.atomics_global.compiled_sector_passes, c.compiled) << c.what;
    EXPECT_EQ(r.totals.atomics_global.aggregated_instructions, c.written != c.compiled ? 1u : 0u) << c.what;
  }
}

TEST(Report, AtomicsCountedApart) {
  TraceBuilder b(Dim3{32, 1, 1});
  const uint32_t cnt = b.alloc("count", MemSpace::Global, 4, 1, 0x4000);
  const uint32_t hist = b.alloc("hist", MemSpace::Shared, 4, 2);
  const uint32_t s1 = b.site(5, "atomicAdd(&count[0], 1);"), s2 = b.site(6, "atomicAdd(&hist[t & 1], 1);");
  b.access_fn(0, 0, s1, cnt, AccessKind::Atomic, 4, kFull, [](uint32_t) { return 0ull; });
  b.access_fn(0, 0, s2, hist, AccessKind::Atomic, 4, kFull, [](uint32_t l) { return 4ull * (l & 1); });
  const Report r = analyze(b.finish());
  EXPECT_EQ(metric(r, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"), 1);
  EXPECT_EQ(metric(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"), 1);
  EXPECT_EQ(metric(r, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 0);
  EXPECT_EQ(metric(r, "smsp__inst_executed_op_shared_atom.sum"), 1);
  EXPECT_EQ(metric(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"), 1);  // 2 words, banks 0/1
  EXPECT_EQ(metric(r, "smsp__inst_executed_op_shared_ld.sum"), 0);
  EXPECT_EQ(r.totals.atomics_global.max_same_address, 32u);
  EXPECT_EQ(r.totals.atomics_shared.max_same_address, 16u);
  EXPECT_EQ(row(r, s1, AccessKind::Atomic)->max_same_address, 32u);
  EXPECT_EQ(row(r, s2, AccessKind::Atomic)->serialized, 16u);
  EXPECT_TRUE(r.hazards.empty());  // atomic vs atomic is never a hazard
  EXPECT_EQ(r.events[0].max_same_address, 32);
}

TEST(Report, BlockSelectionAndDiagnostics) {
  TraceBuilder b(Dim3{32, 1, 1}, Dim3{3, 1, 1});
  const uint32_t s = b.alloc("s", MemSpace::Shared, 4, 64);
  const uint32_t site = b.site(3, "s[2*t] = 0;");
  for (uint32_t blk = 0; blk < 2; ++blk)  // block 2 not recorded
    b.access_fn(blk, 0, site, s, AccessKind::Store, 4, kFull, [](uint32_t l) { return 8ull * l; });
  Trace t = b.finish();
  t.total_blocks = 3;
  Diagnostic d;
  d.severity = Severity::Error;
  d.code = "barrier-divergence";
  d.message = "__syncthreads() reached by lanes 0-15 of warp 0 only";
  d.site = site;
  t.diagnostics.push_back(d);

  Report all = analyze(t);
  EXPECT_EQ(all.blocks, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(all.totals.shared[kSt].conflicts, 2u);  // stride 2 -> 1 conflict per block
  ASSERT_GE(all.diagnostics.size(), 2u);
  EXPECT_EQ(all.diagnostics[0].code, "barrier-divergence");
  EXPECT_EQ(all.diagnostics.back().code, "partial-recording");

  Options o;
  o.blocks = {1, 2};
  Report one = analyze(t, o);
  EXPECT_EQ(one.blocks, (std::vector<uint32_t>{1}));
  EXPECT_EQ(one.missing_blocks, (std::vector<uint32_t>{2}));
  EXPECT_EQ(one.totals.shared[kSt].instructions, 1u);
  EXPECT_FALSE(one.events[0].analyzed);
  EXPECT_TRUE(one.events[1].analyzed);

  const std::string table = format_table(all);
  EXPECT_NE(table.find("barrier-divergence"), std::string::npos);
  EXPECT_NE(table.find("test/kernel.cuh:3"), std::string::npos);
  EXPECT_NE(table.find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), std::string::npos);
}

// The JSON document: totals keyed by ncu names with the right numbers; sites, hazards, diagnostics.
TEST(Report, JsonKeysAndNumbers) {
  Reduction red;
  Trace t = red.b.finish();
  Diagnostic d;
  d.severity = Severity::Warning;
  d.code = "lockstep";
  d.message = "m";
  t.diagnostics.push_back(d);
  const Report r = analyze(t);
  const auto j = nlohmann::json::parse(to_json(r));
  EXPECT_EQ(j["format"], "warpscope-analysis");
  EXPECT_EQ(j["version"], 1);
  const auto& T = j["totals"];
  for (const char* k :
       {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "warpscope__simd_efficiency"})
    EXPECT_TRUE(T.contains(k)) << k;
  EXPECT_EQ(T["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"], 70);
  EXPECT_EQ(T["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"], 55);
  EXPECT_EQ(T["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 32);
  ASSERT_TRUE(j["sites"].is_array());
  bool found = false;
  for (const auto& s : j["sites"]) {
    EXPECT_TRUE(s.contains("file") && s.contains("line") && s.contains("text") && s.contains("space") &&
                s.contains("kind") && s.contains("instructions") && s.contains("avg_active_lanes"));
    if (s["site"] == red.s_idx && s["kind"] == "load") {
      found = true;
      EXPECT_EQ(s["array"], "sdata");
      EXPECT_EQ(s["space"], "shared");
      EXPECT_EQ(s["wavefronts"], 47);
      EXPECT_EQ(s["conflicts"], 35);
      EXPECT_EQ(s["line"], 25);
      EXPECT_EQ(s["bank_excess"].size(), 32u);
    }
    if (s["space"] == "global") {
      EXPECT_TRUE(s.contains("sectors") && s.contains("requests"));
    }
  }
  EXPECT_TRUE(found);
  EXPECT_TRUE(j["hazards"].is_array());
  ASSERT_EQ(j["diagnostics"].size(), 1u);
  EXPECT_EQ(j["diagnostics"][0]["code"], "lockstep");
  EXPECT_EQ(j["diagnostics"][0]["severity"], "warning");
  EXPECT_EQ(j["launch"]["block"][0], 256);
  EXPECT_EQ(j["warps"].size(), 8u);
}

// Source view and memory heatmap of the interleaved reduction.
//   line 25 holds `sdata[index]` (12 loads + 12 stores) and `sdata[index + s]` (12 loads):
//   36 instructions, 3 x 47 = 141 wavefronts, 3 x 35 = 105 conflicts (see InterleavedReductionTotals).
//   sdata[0] is loaded by tid 0 at every s as sdata[index] (8 times) plus once at the end = 9, and
//   stored once by the init and 8 times in the loop = 9; sdata[1] is loaded once (index + s at s = 1);
//   every g_idata element is loaded once.
TEST(Report, LinesAndHeat) {
  Reduction red;
  const Trace t = red.b.finish();
  const Report r = analyze(t);
  const LineMetrics* l25 = nullptr;
  for (const LineMetrics& l : r.lines)
    if (l.line == 25) l25 = &l;
  ASSERT_TRUE(l25);
  EXPECT_EQ(l25->instructions, 36u);
  EXPECT_EQ(l25->shared_wavefronts, 141u);
  EXPECT_EQ(l25->shared_conflicts, 105u);
  EXPECT_EQ(r.lines.front().line, 20u);
  EXPECT_EQ(r.lines.front().global_sectors, 32u);
  ASSERT_EQ(r.heat.size(), 3u);
  const AllocationHeat& h = r.heat[red.sdata];
  EXPECT_EQ(h.elements_per_bin, 1u);
  ASSERT_EQ(h.loads.size(), 256u);
  EXPECT_EQ(h.loads[0], 9u);
  EXPECT_EQ(h.stores[0], 9u);
  EXPECT_EQ(h.loads[1], 1u);
  EXPECT_EQ(r.heat[red.gin].loads[255], 1u);
  Options o;
  o.heat_bins = 16;  // 256 elements -> 16 per bin
  const Report coarse = analyze(t, o);
  EXPECT_EQ(coarse.heat[red.gin].elements_per_bin, 16u);
  EXPECT_EQ(coarse.heat[red.gin].loads[3], 16u);
  // metrics_of on the first `sdata[index]` load (s = 1, warp 0): 2-way, addresses = base + offset.
  for (size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    if (e.type == EventType::Access && e.site == red.s_idx) {
      const InstructionMetrics m = metrics_of(t, e);
      EXPECT_EQ(m.event, i);
      EXPECT_EQ(m.shared.wavefronts, 2u);
      EXPECT_EQ(m.shared.conflicts, 1u);
      EXPECT_EQ(m.lane_address[3], 24u);  // word 2*3 = 6 -> byte 24
      EXPECT_EQ(m.transition, MaskTransition::Same);
      break;
    }
  }
  const auto j = nlohmann::json::parse(to_json(r));
  EXPECT_EQ(j["lines"].size(), r.lines.size());
  EXPECT_EQ(j["heat"][red.sdata]["loads"][0], 9);
}

// The seeds' block-shape advice (dim3(16,16) vs dim3(128,2)): warp 0 of a 16x16 block is rows
// y = 0 and 1, x = 0..15. Reading a[y * 1024 + x] (float): lanes 0-15 hit bytes 0..63 (sectors 0, 1
// of line 0), lanes 16-31 bytes 4096..4159 (another line): 4 sectors over 2 lines. With 128x2 the
// warp is x = 0..31 of one row: 4 sectors in 1 line.
TEST(Report, BlockShapeAndCoalescing) {
  for (const Dim3 block : {Dim3{16, 16, 1}, Dim3{128, 2, 1}}) {
    TraceBuilder b(block);
    const uint32_t a = b.alloc("a", MemSpace::Global, 4, 1024 * 16, 0x100000, "float");
    const uint32_t site = b.site(4, "v = a[y * 1024 + x];");
    b.access_fn(0, 0, site, a, AccessKind::Load, 4, kFull, [&](uint32_t lane) {
      const Dim3 th = b.t.thread_index(0, lane);
      return 4ull * (th.y * 1024 + th.x);
    });
    const Report r = analyze(b.finish());
    EXPECT_EQ(r.totals.global[kLd].sectors, 4u);
    EXPECT_EQ(r.totals.global[kLd].lines, block.x == 16 ? 2u : 1u);
  }
}

// Two launches' totals add up counter by counter; the worst-case fields take the maximum.
TEST(Report, TotalsOfSeveralLaunchesAddUp) {
  ws::analysis::Totals a, b;
  a.shared[ws::analysis::kLd].wavefronts = 8;
  a.shared[ws::analysis::kLd].max_ways = 8;
  a.global[ws::analysis::kSt].bytes_moved = 64;
  a.divergence.instructions = 2;
  a.divergence.active_lanes = 48;
  b.shared[ws::analysis::kLd].wavefronts = 3;
  b.shared[ws::analysis::kLd].max_ways = 2;
  b.global[ws::analysis::kSt].bytes_moved = 32;
  b.atomics_global.max_same_address = 5;
  b.divergence.instructions = 1;
  b.divergence.active_lanes = 32;
  b.hazards = 4;
  a += b;
  EXPECT_EQ(a.shared[ws::analysis::kLd].wavefronts, 11u);
  EXPECT_EQ(a.shared[ws::analysis::kLd].max_ways, 8u);
  EXPECT_EQ(a.global[ws::analysis::kSt].bytes_moved, 96u);
  EXPECT_EQ(a.atomics_global.max_same_address, 5u);
  EXPECT_EQ(a.hazards, 4u);
  EXPECT_DOUBLE_EQ(a.divergence.simd_efficiency(), 80.0 / 96.0);  // 3 instructions, 80 active lanes
}

// gpu-trace's per-site counters (every block) become the report's grid: whole-launch totals under
// the same ncu names, per-site rows in source order, apart from the recorded blocks' totals.
//   Launch: 4 blocks of 64 threads, block 0 recorded in full. Site A (line 10) loads s[2*t] from
//   shared memory: 2-way conflicts, 2 wavefronts per warp; site B (line 12) loads g[t] coalesced:
//   4 sectors per warp. Over the grid: 8 warps -> A 16 wavefronts, 8 ideal, 8 conflicts; B 32
//   sectors, 8 requests, 1024 bytes requested and moved.
TEST(Report, GridCountersCoverEveryBlock) {
  TraceBuilder b(Dim3{64, 1, 1}, Dim3{4, 1, 1});
  const uint32_t s = b.alloc("s", MemSpace::Shared, 4, 128);
  const uint32_t g = b.alloc("g", MemSpace::Global, 4, 256);
  const uint32_t a_site = b.site(10, "x = s[2 * t];");
  const uint32_t b_site = b.site(12, "y = g[i];");
  for (uint32_t w = 0; w < 2; ++w) {
    b.access_fn(0, w, a_site, s, AccessKind::Load, 4, kFull, [w](uint32_t l) { return 8ull * (32 * w + l); });
    b.access_fn(0, w, b_site, g, AccessKind::Load, 4, kFull, [w](uint32_t l) { return 4ull * (32 * w + l); });
  }
  Trace t = b.finish();
  const Report no_counters = analyze(t);
  EXPECT_FALSE(no_counters.grid.present);
  EXPECT_TRUE(nlohmann::json::parse(to_json(no_counters))["grid"].is_null());
  EXPECT_EQ(format_table(no_counters).find("Whole grid"), std::string::npos);

  // As the decoder leaves them: in no particular order (here B first).
  SiteCounters cb;
  cb.site = b_site, cb.kind = AccessKind::Load, cb.space = MemSpace::Global, cb.width = 4;
  cb.instructions = 8, cb.lanes = 256, cb.sectors = 32, cb.lines = 8;
  SiteCounters ca;
  ca.site = a_site, ca.kind = AccessKind::Load, ca.space = MemSpace::Shared, ca.width = 4;
  ca.instructions = 8, ca.lanes = 256, ca.wavefronts = 16, ca.ideal_wavefronts = 8;
  t.site_counters = {cb, ca};
  const Report r = analyze(t);

  // The recorded block alone: 2 warps.
  EXPECT_EQ(r.totals.shared[kLd].conflicts, 2u);
  EXPECT_EQ(r.totals.global[kLd].sectors, 8u);
  // The grid: every block.
  ASSERT_TRUE(r.grid.present);
  EXPECT_EQ(r.grid.blocks, 4u);
  EXPECT_EQ(r.grid.shared[kLd].instructions, 8u);
  EXPECT_EQ(r.grid.shared[kLd].wavefronts, 16u);
  EXPECT_EQ(r.grid.shared[kLd].conflicts, 8u);
  EXPECT_EQ(r.grid.global[kLd].requests, 8u);
  EXPECT_EQ(r.grid.global[kLd].sectors, 32u);
  EXPECT_EQ(r.grid.global[kLd].bytes_requested, 1024u);
  EXPECT_EQ(r.grid.global[kLd].bytes_moved, 1024u);
  EXPECT_DOUBLE_EQ(r.grid.global[kLd].efficiency(), 1.0);
  EXPECT_EQ(r.grid.instructions, 16u);
  EXPECT_DOUBLE_EQ(r.grid.simd_efficiency(), 1.0);
  ASSERT_EQ(r.grid.sites.size(), 2u);
  EXPECT_EQ(r.grid.sites[0].site, a_site);  // source order, not the counters' order
  EXPECT_EQ(r.grid.sites[0].conflicts, 8u);
  EXPECT_EQ(r.grid.sites[1].site, b_site);
  EXPECT_EQ(r.grid.sites[1].sectors, 32u);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics.back().message.find("the per-site counters (grid) cover every block"), std::string::npos);

  for (const auto& [name, value] : ncu_metrics(r.grid)) {
    if (name == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") {
      EXPECT_EQ(value, 8.0);
    }
  }
  const auto j = nlohmann::json::parse(to_json(r));
  EXPECT_EQ(j["grid"]["blocks"], 4);
  EXPECT_EQ(j["grid"]["totals"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"], 8);
  EXPECT_EQ(j["grid"]["totals"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 32);
  EXPECT_EQ(j["totals"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"], 2);
  ASSERT_EQ(j["grid"]["sites"].size(), 2u);
  EXPECT_EQ(j["grid"]["sites"][0]["line"], 10);
  EXPECT_EQ(j["grid"]["sites"][0]["conflicts"], 8);
  EXPECT_EQ(j["grid"]["sites"][1]["efficiency"], 1.0);
  const std::string table = format_table(r);
  EXPECT_NE(table.find("Whole grid, every block counted by the emulator (4 blocks)"), std::string::npos) << table;

  // A damaged file may hold fewer wavefronts than ideal: no conflict count wraps around.
  t.site_counters[1].wavefronts = 3;
  EXPECT_EQ(analyze(t).grid.shared[kLd].conflicts, 0u);
}
