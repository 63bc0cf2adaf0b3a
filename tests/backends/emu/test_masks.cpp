// The emulator's SIMT model, checked on the lecture's kernels: active masks per warp instruction.
#include <gtest/gtest.h>

#include <numeric>

#include "emu_test_util.h"
#include "test_kernels.cuh"

using namespace ws;
using ws::test::events_at;
using ws::test::masks;

TEST(EmuMasks, SequentialAddressingHalvesTheMask) {
  emu::Memory mem;
  auto input = test::iota_input(256);
  auto in = mem.upload<int>("in", input);
  auto out = mem.alloc<int>("out", 1);
  auto r = emu::launch(mem, test::options(1, 256), {}, [=] { seq_reduce<256>(in, out); });
  ASSERT_TRUE(r.ok()) << r.trace.diagnostics.at(0).message;
  EXPECT_EQ(mem.download(out)[0], std::accumulate(input.begin(), input.end(), 0));

  const char* stmt = "if (tid < s) sdata[tid] += sdata[tid + s];";
  // s = 128, 64, 32 keep warp 0 whole; then 16, 8, 4, 2, 1 lanes.
  EXPECT_EQ(masks(events_at(r.trace, stmt, EventType::Access, AccessKind::Store, 0, 0)),
            (std::vector<uint32_t>{0xffffffff, 0xffffffff, 0xffffffff, 0x0000ffff, 0x000000ff,
                                   0x0000000f, 0x00000003, 0x00000001}));
  // Warp 1 holds tid 32..63: active for s = 128 and 64 only.
  EXPECT_EQ(masks(events_at(r.trace, stmt, EventType::Access, AccessKind::Store, 0, 1)),
            (std::vector<uint32_t>{0xffffffff, 0xffffffff}));
  // Warps 2 and 3 (tid 64..127, 96..127) only for s = 128.
  EXPECT_EQ(masks(events_at(r.trace, stmt, EventType::Access, AccessKind::Store, 0, 2)),
            (std::vector<uint32_t>{0xffffffff}));
  EXPECT_EQ(masks(events_at(r.trace, stmt, EventType::Access, AccessKind::Store, 0, 3)),
            (std::vector<uint32_t>{0xffffffff}));
  // Warps 4..7 never issue it.
  for (uint32_t w = 4; w < 8; ++w)
    EXPECT_TRUE(events_at(r.trace, stmt, EventType::Access, AccessKind::Store, 0, w).empty());
  // Each issue of the statement is three instructions: two loads, then the store.
  EXPECT_EQ(events_at(r.trace, stmt, EventType::Access, AccessKind::Load, 0, 0).size(), 16u);
  // 1 barrier after the load + 8 in the loop, for every warp.
  EXPECT_EQ(events_at(r.trace, "__syncthreads", EventType::Barrier, AccessKind::Load, 0, 5).size(), 9u);
}

TEST(EmuMasks, InterleavedAddressingStaircase) {
  emu::Memory mem;
  auto input = test::iota_input(256);
  auto in = mem.upload<int>("in", input);
  auto out = mem.alloc<int>("out", 1);
  auto r = emu::launch(mem, test::options(1, 256), {}, [=] { interleaved_reduce<256>(in, out); });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(mem.download(out)[0], std::accumulate(input.begin(), input.end(), 0));
  const char* stmt = "sdata[tid] += sdata[tid + s];";
  EXPECT_EQ(masks(events_at(r.trace, stmt, EventType::Access, AccessKind::Store, 0, 0)),
            (std::vector<uint32_t>{0x55555555, 0x11111111, 0x01010101, 0x00010001, 0x00000001,
                                   0x00000001, 0x00000001, 0x00000001}));
  // Warp 1 (tid 32..63): s = 1..16 only; no lane of it is a multiple of 64 or more.
  EXPECT_EQ(masks(events_at(r.trace, stmt, EventType::Access, AccessKind::Store, 0, 1)),
            (std::vector<uint32_t>{0x55555555, 0x11111111, 0x01010101, 0x00010001, 0x00000001}));
}

TEST(EmuMasks, IfElseSerializesThenReconverges) {
  emu::Memory mem;
  auto a = mem.alloc<int>("a", 32), b = mem.alloc<int>("b", 32), c = mem.alloc<int>("c", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { odd_even(a, b, c); });
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.trace.events.size(), 3u);
  EXPECT_EQ(r.trace.events[0].mask, 0xaaaaaaaau);  // the `if` side: odd lanes
  EXPECT_EQ(r.trace.allocations[r.trace.events[0].alloc].name, "a");
  EXPECT_EQ(r.trace.events[1].mask, 0x55555555u);  // the `else` side: even lanes
  EXPECT_EQ(r.trace.allocations[r.trace.events[1].alloc].name, "b");
  EXPECT_EQ(r.trace.events[2].mask, 0xffffffffu);  // reconverged at c[t] = 3
  EXPECT_EQ(r.trace.events[2].step, 2u);
}

namespace {
// Warp 0's access instructions in issue order, as "a:aaaaaaaa" (allocation, mask); a load and the
// store of one `x[t] += v` give one entry each.
std::vector<std::string> issue_order(const Trace& t) {
  std::vector<std::string> out;
  char mask[9];
  for (const Event& e : t.events) {
    if (e.warp != 0 || e.type != EventType::Access) continue;
    std::snprintf(mask, sizeof mask, "%08x", e.mask);
    out.push_back(t.allocations[e.alloc].name + ":" + mask);
  }
  return out;
}
}  // namespace

TEST(EmuMasks, AnIfElseInsideALoopReconvergesEveryIteration) {
  emu::Memory mem;
  auto a = mem.alloc<int>("a", 32), b = mem.alloc<int>("b", 32), c = mem.alloc<int>("c", 32);
  mem.fill(a, 0);
  mem.fill(b, 0);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { if_else_in_loop(a, b, c, 3); });
  ASSERT_TRUE(r.ok());
  const std::string A = "a:aaaaaaaa", B = "b:55555555";  // (each twice: the load, then the store)
  EXPECT_EQ(issue_order(r.trace),
            (std::vector<std::string>{A, A, B, B, A, A, B, B, A, A, B, B, "c:ffffffff"}));
  const std::vector<int> got_a = mem.download(a), got_b = mem.download(b);
  EXPECT_EQ(got_a[1], 3);
  EXPECT_EQ(got_b[0], 6);
}

TEST(EmuMasks, ALoopInEachBranchRunsToItsEndBeforeTheOther) {
  emu::Memory mem;
  auto a = mem.alloc<int>("a", 32), b = mem.alloc<int>("b", 32), c = mem.alloc<int>("c", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { loop_in_each_branch(a, b, c); });
  ASSERT_TRUE(r.ok());
  const std::string A = "a:aaaaaaaa", B = "b:55555555";
  EXPECT_EQ(issue_order(r.trace), (std::vector<std::string>{A, A, A, A, A, A, B, B, B, B, "c:ffffffff"}));
}

TEST(EmuMasks, AnIfElseInAnInnerLoopAlternatesWithinEachOuterIteration) {
  emu::Memory mem;
  auto a = mem.alloc<int>("a", 32), b = mem.alloc<int>("b", 32), c = mem.alloc<int>("c", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { if_else_in_nested_loop(a, b, c); });
  ASSERT_TRUE(r.ok());
  const std::string A = "a:aaaaaaaa", B = "b:55555555", C = "c:ffffffff";
  EXPECT_EQ(issue_order(r.trace),
            (std::vector<std::string>{A, A, B, B, A, A, B, B, C, C, A, A, B, B, A, A, B, B, C, C}));
}

TEST(EmuMasks, ContinueWaitsForTheRestOfTheIteration) {
  emu::Memory mem;
  auto a = mem.alloc<int>("a", 32), b = mem.alloc<int>("b", 32), c = mem.alloc<int>("c", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { continue_in_loop(a, b, c); });
  ASSERT_TRUE(r.ok());
  const std::string B = "b:ffffffff", A = "a:55555555";
  EXPECT_EQ(issue_order(r.trace),
            (std::vector<std::string>{B, B, A, A, B, B, A, A, B, B, A, A, "c:ffffffff"}));
}

TEST(EmuMasks, BreakLeaversWaitAfterTheLoop) {
  emu::Memory mem;
  auto a = mem.alloc<int>("a", 32), c = mem.alloc<int>("c", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { break_in_loop(a, c); });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(issue_order(r.trace),
            (std::vector<std::string>{"a:ffffffff", "a:ffffffff", "a:ffffff00", "a:ffffff00", "a:ffff0000",
                                      "a:ffff0000", "a:ff000000", "a:ff000000", "c:ffffffff"}));
}

TEST(EmuMasks, LanesLeaveALoopAsTheirRowsEnd) {
  // Row r has r % 4 non-zeros: lanes drop out after 0, 1, 2 or 3 iterations.
  const unsigned rows = 32;
  std::vector<unsigned> row_ptr{0}, col;
  std::vector<float> val;
  for (unsigned r = 0; r < rows; ++r) {
    for (unsigned k = 0; k < r % 4; ++k) col.push_back((r + k) % rows), val.push_back(1.0f + k);
    row_ptr.push_back(unsigned(col.size()));
  }
  std::vector<float> x(rows);
  for (unsigned i = 0; i < rows; ++i) x[i] = float(i) * 0.5f;
  emu::Memory mem;
  auto d_rp = mem.upload<unsigned>("row_ptr", row_ptr);
  auto d_col = mem.upload<unsigned>("col", col);
  auto d_val = mem.upload<float>("val", val);
  auto d_x = mem.upload<float>("x", x);
  auto d_y = mem.alloc<float>("y", rows);
  auto r = emu::launch(mem, test::options(1, 32), {},
                       [=] { csr_spmv(d_rp, d_col, d_val, d_x, d_y, rows); });
  ASSERT_TRUE(r.ok());
  auto body = events_at(r.trace, "sum += val[j] * x[col[j]];", EventType::Access, AccessKind::Load, 0, 0);
  // Per iteration: val[j], col[j], x[..] are three loads with the same mask.
  std::vector<uint32_t> per_iter;
  for (size_t i = 0; i < body.size(); i += 3) per_iter.push_back(body[i].mask);
  uint32_t m1 = 0, m2 = 0, m3 = 0;  // lanes with at least 1, 2, 3 non-zeros
  for (unsigned r2 = 0; r2 < rows; ++r2) {
    if (r2 % 4 >= 1) m1 |= 1u << r2;
    if (r2 % 4 >= 2) m2 |= 1u << r2;
    if (r2 % 4 >= 3) m3 |= 1u << r2;
  }
  EXPECT_EQ(per_iter, (std::vector<uint32_t>{m1, m2, m3}));
  auto store = events_at(r.trace, "y[row] = sum;", EventType::Access, AccessKind::Store, 0, 0);
  ASSERT_EQ(store.size(), 1u);
  EXPECT_EQ(store[0].mask, 0xffffffffu);  // every lane again after the loop
  auto y = mem.download(d_y);
  for (unsigned r2 = 0; r2 < rows; ++r2) {
    float expect = 0;
    for (unsigned j = row_ptr[r2]; j < row_ptr[r2 + 1]; ++j) expect += val[j] * x[col[j]];
    EXPECT_FLOAT_EQ(y[r2], expect) << "row " << r2;
  }
}

// The same site with lanes on two allocations is two warp instructions, the lowest lane's first.
TEST(EmuMasks, OneSiteOnTwoArraysIssuesOncePerArray) {
  emu::Memory mem;
  const std::vector<int> in_a = test::iota_input(32, 100), in_b = test::iota_input(32, 200);
  auto a = mem.upload<int>("a", in_a);
  auto b = mem.upload<int>("b", in_b);
  auto out = mem.alloc<int>("out", 32);
  auto opt = test::options(1, 32);
  opt.read_only.clear();  // (so that the loads wait for their turn, as loads of writable memory do)
  auto r = emu::launch(mem, opt, {}, [=] { pick_array_by_parity(a, b, out); });
  ASSERT_TRUE(r.ok());
  const auto got = mem.download(out);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(got[t], t % 2 ? in_b[t] : in_a[t]) << "lane " << t;
  const auto loads = test::events_at(r.trace, "(t % 2 ? b : a)[t]", EventType::Access, AccessKind::Load, 0, 0);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(test::masks(loads), (std::vector<uint32_t>{0x55555555u, 0xaaaaaaaau}));
  EXPECT_EQ(r.trace.allocations.at(loads[0].alloc).name, "a");
  EXPECT_EQ(r.trace.allocations.at(loads[1].alloc).name, "b");
}

// Lanes that split after a shuffle inside a loop: the odd ones `continue`, the even ones store. The
// storing lanes are a round behind and go first; then all meet at the next iteration's load. Not
// one order for some run orders and another for others: the emulator runs lanes in different
// orders when it lets threads run on (deferred loads, eager shuffles), and the issue order must
// not follow it.
TEST(EmuMasks, LanesThatContinueAfterAShuffleWaitForTheOthersStore) {
  std::vector<int> c(64, 0);
  for (int t = 0; t < 16; ++t) c[2 * t] = 1;  // lanes 0-15: 1 + 0 (odd); lanes 16-31: 2 x 0 (even)
  for (const test::RunAhead mode : test::kRunAheadModes) {
    SCOPED_TRACE(test::to_string(mode));
    emu::Memory mem;
    auto in = mem.upload<int>("c", c);
    auto e = mem.alloc<int>("e", 64);
    auto r = emu::launch(mem, test::options(1, 32, mode), {}, [=] { continue_after_shuffle(in, e); });
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(masks(events_at(r.trace, "e[t * 2 + i] = x;", EventType::Access, AccessKind::Store, 0, 0)),
              (std::vector<uint32_t>{0xffff0000u, 0xffffffffu}));
    EXPECT_EQ(masks(events_at(r.trace, "int x = c[t * 2 + i];", EventType::Access, AccessKind::Load, 0, 0)),
              (std::vector<uint32_t>{0xffffffffu, 0xffffffffu}));
  }
}

// A __syncwarp that cannot complete, after a run of stores the scheduler issues converged: one
// whose mask names lanes that exited, one whose masks differ between lanes (two lanes'
// operations are the same only if their masks are: a converged warp must not issue it as one).
// An error in every mode, found at the same point, with the same message.
TEST(EmuMasks, ASyncwarpThatCannotCompleteIsReportedAfterAConvergedRun) {
  for (const unsigned lane30_mask : {0xffffffffu, 0x55555555u}) {
    std::string first;
    for (const test::RunAhead mode : test::kRunAheadModes) {
      SCOPED_TRACE(test::to_string(mode) + ", lane 30's mask " + std::to_string(lane30_mask));
      emu::Memory mem;
      auto a = mem.upload<int>("a", test::iota_input(224));
      auto r = emu::launch(mem, test::options(1, 32, mode), {}, [=] { syncwarp_that_cannot_complete(a, lane30_mask); });
      ASSERT_FALSE(r.ok());
      ASSERT_EQ(r.trace.diagnostics.size(), 1u);
      // The four stores were issued, by the even lanes, before the report; nothing after it.
      EXPECT_EQ(masks(events_at(r.trace, "a[128 + t] = v + 3;", EventType::Access, AccessKind::Store, 0, 0)),
                (std::vector<uint32_t>{0x55555555u}));
      EXPECT_TRUE(events_at(r.trace, "a[160 + t] = v + 4;", EventType::Access, AccessKind::Store, 0, 0).empty());
      if (first.empty()) first = r.trace.diagnostics[0].message;
      EXPECT_EQ(r.trace.diagnostics[0].message, first);
    }
    EXPECT_NE(first.find("__syncwarp"), std::string::npos) << first;
  }
}

// One store site that even lanes reach with a copy (`dst = src`, its load deferred) and odd lanes
// with a value: one warp instruction after the even lanes' load, as when nothing is deferred.
TEST(EmuMasks, ACopyAndAValueStoredAtOneSiteAreOneInstruction) {
  for (const test::RunAhead mode : test::kRunAheadModes) {
    SCOPED_TRACE(test::to_string(mode));
    emu::Memory mem;
    auto a = mem.alloc<int>("a", 32);
    const std::vector<int> input = test::iota_input(32, 100);
    auto b = mem.upload<int>("b", input);
    auto r = emu::launch(mem, test::options(1, 32, mode), {}, [=] { store_copy_or_value(a, b); });
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(masks(events_at(r.trace, "auto src = b[threadIdx.x];", EventType::Access, AccessKind::Load, 0, 0)),
              std::vector<uint32_t>{0x55555555u});
    EXPECT_EQ(masks(events_at(r.trace, "auto dst = a[threadIdx.x];", EventType::Access, AccessKind::Store, 0, 0)),
              std::vector<uint32_t>{0xffffffffu});
    const std::vector<int> got = mem.download(a);
    for (int t = 0; t < 32; ++t) EXPECT_EQ(got[t], t % 2 == 0 ? input[t] : 7) << "thread " << t;
  }
}

// A barrier is every waiting lane's last instruction: lanes that sat out the last iteration's
// work do not look a loop round behind the others after it (they would issue first).
TEST(EmuMasks, AfterABarrierTheWarpIssuesInSourceOrderAgain) {
  for (const test::RunAhead mode : test::kRunAheadModes) {
    SCOPED_TRACE(test::to_string(mode));
    emu::Memory mem;
    auto a = mem.alloc<int>("a", 1);
    auto out = mem.alloc<int>("out", 1);
    mem.fill(a, 0);
    auto r = emu::launch(mem, test::options(1, 32, mode), {}, [=] { write_then_read_after_barrier(a, out); });
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(mem.download(out)[0], 2);
  }
}
