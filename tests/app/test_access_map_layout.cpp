// The access map's geometry without a window or GL: what goes where for a shared instruction
// with a 2-way conflict and a coalesced global load, and that doubling the font doubles every
// length (a 2x export is the 1x picture at twice the resolution).
#include "views/access_map_layout.h"

#include "ws/rules/atomic_contention.h"
#include "ws/rules/global_sectors.h"
#include "ws/rules/shared_banks.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>
#include <vector>

namespace {

using ws::app::AccessMapLayout;
constexpr uint32_t kFull = 0xffffffffu;

// One warp instruction: lane t touches `addr(t)`.
struct Instr {
  ws::Event e;
  ws::Allocation a;
  ws::analysis::InstructionMetrics m;
};

Instr make(ws::MemSpace space, uint32_t width, uint64_t base, const std::function<uint64_t(uint32_t)>& addr) {
  Instr x;
  x.e.type = ws::EventType::Access;
  x.e.space = space;
  x.e.mask = kFull;
  x.e.width = uint8_t(width);
  x.a.space = space;
  x.a.elem_size = width;
  x.a.extent = 4096;
  x.a.base = base;
  std::vector<uint64_t> at;
  for (uint32_t t = 0; t < 32; ++t) at.push_back(base + addr(t));
  x.m.is_access = true;
  x.m.space = space;
  x.m.width = width;
  x.m.active_lanes = x.m.live_lanes = 32;
  for (uint32_t t = 0; t < 32; ++t) x.m.lane_address[t] = at[t];
  if (space == ws::MemSpace::Shared)
    x.m.shared = ws::rules::shared_bank_metrics(width, kFull, at);
  else
    x.m.global = ws::rules::global_access_metrics(width, kFull, at);
  return x;
}

}  // namespace

// s[2 * t]: words 0, 2, ..., 62; banks 0, 2, ..., 30 each serve two words: two passes, the
// second a conflict. Every lane's link ends on the cell of its own word.
TEST(AccessMapLayout, ATwoWayConflictIsTwoRowsOfCells) {
  const Instr x = make(ws::MemSpace::Shared, 4, 0, [](uint32_t t) { return 8ull * t; });
  const AccessMapLayout L = ws::app::access_map_layout(x.m, x.e, &x.a, 1000, 16, 24);
  EXPECT_TRUE(L.shared);
  EXPECT_EQ(L.rows, 2);
  ASSERT_EQ(L.cells.size(), 32u);
  EXPECT_EQ(L.empty_cells.size(), 2u * 32u);
  int conflicts = 0;
  for (const AccessMapLayout::Cell& c : L.cells) {
    const uint64_t word = c.word.word;
    EXPECT_EQ(c.element, word);                // 4-byte elements: the element index is the word
    EXPECT_EQ(c.word.bank, word % 32);
    EXPECT_EQ(c.word.wavefront, word < 32 ? 0 : 1);  // words 0..30 first, 32..62 wait a pass
    conflicts += c.conflict;
    // The cell sits in its bank's column and its pass's row.
    EXPECT_FLOAT_EQ(c.box.x0, L.bank_headers[c.word.bank].x0);
    EXPECT_FLOAT_EQ(c.box.y0, L.empty_cells[size_t(c.word.wavefront) * 32].y0);
  }
  EXPECT_EQ(conflicts, 16);
  ASSERT_EQ(L.links.size(), 32u);
  for (const AccessMapLayout::Link& k : L.links) {
    const AccessMapLayout::Box& lane = L.lanes[size_t(k.lane)].box;
    EXPECT_GE(k.x0, lane.x0);
    EXPECT_LE(k.x0, lane.x1);
    EXPECT_FLOAT_EQ(k.y0, lane.y1);
    const uint64_t word = 2ull * uint64_t(k.lane);
    bool ends_on_its_cell = false;
    for (const AccessMapLayout::Cell& c : L.cells)
      if (c.word.word == word) ends_on_its_cell = k.x1 > c.box.x0 && k.x1 < c.box.x1 && k.y1 == c.box.y0;
    EXPECT_TRUE(ends_on_its_cell) << "lane " << k.lane;
    EXPECT_EQ(k.conflict, k.lane >= 16);
  }
  // The labels name the passes.
  int passes = 0;
  for (const AccessMapLayout::Label& lab : L.labels) passes += lab.text.rfind("pass ", 0) == 0;
  EXPECT_EQ(passes, 2);
}

// in[t]: 128 contiguous bytes, one line of four sectors, every byte used.
TEST(AccessMapLayout, ACoalescedLoadIsOneLineOfFourFullSectors) {
  const Instr x = make(ws::MemSpace::Global, 4, 0x10000, [](uint32_t t) { return 4ull * t; });
  const AccessMapLayout L = ws::app::access_map_layout(x.m, x.e, &x.a, 1000, 16, 24);
  EXPECT_FALSE(L.shared);
  EXPECT_EQ(L.lines_total, 1);
  EXPECT_EQ(L.lines_drawn, 1);
  ASSERT_EQ(L.sectors.size(), 4u);
  for (const AccessMapLayout::Sector& s : L.sectors) {
    EXPECT_EQ(s.used, 0xffffffffu);
    // A sector spans the eight lanes that read it.
    EXPECT_NEAR(s.box.x0, L.lanes[size_t(8 * s.quarter)].box.x0, 1.0f);
  }
  EXPECT_EQ(L.links.size(), 32u);
}

// Lines past the room are counted, not drawn: a stride of 128 bytes touches 32 lines.
TEST(AccessMapLayout, LinesBeyondTheRoomAreCounted) {
  const Instr x = make(ws::MemSpace::Global, 4, 0x10000, [](uint32_t t) { return 128ull * t; });
  const AccessMapLayout L = ws::app::access_map_layout(x.m, x.e, &x.a, 1000, 16, 24);
  EXPECT_EQ(L.lines_total, 32);
  EXPECT_EQ(L.lines_drawn, 32);  // 4 lines a row, 8 rows
  EXPECT_EQ(L.sectors.size(), 32u);
}

// Twice the font and twice the width: every box twice as large and twice as far (within the one
// pixel that whole-pixel rounding of each length may add).
TEST(AccessMapLayout, TwiceTheFontIsTwiceTheLayout) {
  const Instr x = make(ws::MemSpace::Shared, 4, 0, [](uint32_t t) { return 8ull * t; });
  const AccessMapLayout a = ws::app::access_map_layout(x.m, x.e, &x.a, 1000, 16, 24);
  const AccessMapLayout b = ws::app::access_map_layout(x.m, x.e, &x.a, 2000, 32, 48);
  ASSERT_EQ(a.cells.size(), b.cells.size());
  EXPECT_EQ(a.rows, b.rows);
  for (size_t i = 0; i < a.cells.size(); ++i) {
    EXPECT_NEAR(b.cells[i].box.x0, 2 * a.cells[i].box.x0, 2.0f);
    EXPECT_NEAR(b.cells[i].box.y0, 2 * a.cells[i].box.y0, 2.0f);
    EXPECT_NEAR(b.cells[i].box.x1 - b.cells[i].box.x0, 2 * (a.cells[i].box.x1 - a.cells[i].box.x0), 2.0f);
  }
  EXPECT_NEAR(b.height, 2 * a.height, 3.0f);
  EXPECT_FLOAT_EQ(b.label_px, 2 * a.label_px);
  EXPECT_FLOAT_EQ(b.lane_label_px, 2 * a.lane_label_px);
}

// What the picture says in words: a column walk's sectors are its cost, the lines it skips are
// said; lanes on one atomic address are contention and a broadcast, not "400% efficient".
TEST(AccessMapCaption, SaysTheCostAndWhatTheDrawingLeavesOut) {
  const Instr column = make(ws::MemSpace::Global, 4, 0x10000, [](uint32_t t) { return 384ull * t; });
  const ws::app::AccessMapCaption c = ws::app::access_map_caption(column.m, column.e, &column.a);
  EXPECT_EQ(c.numbers, "32 sectors in 32 lines: 128 B requested, 1024 B moved, 13% of it used");
  EXPECT_TRUE(c.costly);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_EQ(c.notes[0].text, "the lines are 384 B apart: 2 lines skipped between each two drawn side by side");

  Instr atomic = make(ws::MemSpace::Global, 4, 0x10000, [](uint32_t) { return 0ull; });
  atomic.e.kind = ws::AccessKind::Atomic;
  atomic.m.kind = ws::AccessKind::Atomic;
  std::vector<uint64_t> same(32, 0x10000);
  atomic.m.atomic = ws::rules::atomic_contention(kFull, same);
  const ws::app::AccessMapCaption a = ws::app::access_map_caption(atomic.m, atomic.e, &atomic.a);
  EXPECT_EQ(a.numbers, "1 sector in 1 line: 128 B requested, 32 B moved, 13% of it used");
  EXPECT_FALSE(a.costly);  // one sector is the fewest that holds 4 bytes
  ASSERT_EQ(a.notes.size(), 1u);  // (no "broadcast": atomics on one word take turns, they do not share)
  EXPECT_EQ(a.notes[0].text.rfind("atomic: 32 lanes on one address", 0), 0u);
  EXPECT_TRUE(a.notes[0].costly);
  // A load of one word by 32 lanes is a broadcast; a store of one word by 32 lanes loses 31 values.
  Instr load = make(ws::MemSpace::Global, 4, 0x10000, [](uint32_t) { return 0ull; });
  const ws::app::AccessMapCaption l = ws::app::access_map_caption(load.m, load.e, &load.a);
  ASSERT_EQ(l.notes.size(), 1u);
  EXPECT_EQ(l.notes[0].text.rfind("broadcast: 32 lanes ask for 128 B but only 4 B are distinct", 0), 0u);
  Instr store = make(ws::MemSpace::Global, 4, 0x10000, [](uint32_t) { return 0ull; });
  store.e.kind = ws::AccessKind::Store;
  store.m.kind = ws::AccessKind::Store;
  const ws::app::AccessMapCaption st = ws::app::access_map_caption(store.m, store.e, &store.a);
  ASSERT_EQ(st.notes.size(), 1u);
  EXPECT_EQ(st.notes[0].text, "32 lanes write 128 B to only 4 B: one lane's value lands on each, the others are lost (which one is undefined)");
  EXPECT_EQ(a.numbers.find("400"), std::string::npos);
}

// A global atomic whose lanes share addresses: lanes t and t + 8 of each half-warp hit the same
// word (word t % 8 of the first sector, or of the second for t >= 16): 16 words, two lanes each.
// Every link is marked and each address says how many lanes queue there; an atomic whose lanes
// each have their own address has no mark.
TEST(AccessMapLayout, AnAtomicsLanesOnOneAddressAreCountedAtIt) {
  Instr x = make(ws::MemSpace::Global, 4, 4096, [](uint32_t t) { return 4ull * (t % 8) + (t >= 16 ? 32 : 0); });
  x.e.kind = ws::AccessKind::Atomic;
  x.m.kind = ws::AccessKind::Atomic;
  std::vector<uint64_t> at;
  for (uint32_t t = 0; t < 32; ++t) at.push_back(x.m.lane_address[t]);
  x.m.atomic = ws::rules::atomic_contention(kFull, at);
  const AccessMapLayout L = ws::app::access_map_layout(x.m, x.e, &x.a, 1000, 16, 24);
  ASSERT_EQ(L.collisions.size(), 16u);  // 16 distinct words, two lanes each
  for (const AccessMapLayout::Collision& c : L.collisions) EXPECT_EQ(c.lanes, 2u);
  for (const AccessMapLayout::Link& k : L.links) EXPECT_TRUE(k.conflict) << k.lane;
  // Each collision sits where its lanes' links end.
  for (const AccessMapLayout::Collision& c : L.collisions) {
    int ending = 0;
    for (const AccessMapLayout::Link& k : L.links) ending += std::fabs(k.x1 - c.x) < 0.01f && std::fabs(k.y1 - c.y) < 0.01f;
    EXPECT_EQ(ending, 2);
  }
  Instr st = make(ws::MemSpace::Global, 4, 4096, [](uint32_t t) { return 4ull * t; });
  st.e.kind = st.m.kind = ws::AccessKind::Atomic;
  const AccessMapLayout L2 = ws::app::access_map_layout(st.m, st.e, &st.a, 1000, 16, 24);
  EXPECT_TRUE(L2.collisions.empty());
  for (const AccessMapLayout::Link& k : L2.links) EXPECT_FALSE(k.conflict);
}
