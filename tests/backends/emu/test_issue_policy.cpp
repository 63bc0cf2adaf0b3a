// The issue rule (backends/emu/src/issue_policy.h) on hand-made warps: each lane is given by the
// site it waits at (a made-up file, line and column, and the loop around it), and every expected
// group is worked out by hand from the rule's steps, in the comment beside it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "issue_policy.h"

using namespace ws::emu;

namespace {

// A call site of a made-up kernel: its position and the innermost loop around it (lines, as
// [loop_begin, loop_end]; 0 = none).
struct SourceSite {
  const char* file;
  uint32_t line, column;
  uint32_t loop_begin = 0, loop_end = 0;
  uint64_t key(SubOp sub = SubOp::Load) const { return issue_order(line, column) | uint64_t(sub); }
};

// A lane as the rule sees it: its oldest operation, and its history.
struct FakeLane {
  const SourceSite* site = nullptr;
  SubOp sub = SubOp::Load;
  ReqType type = ReqType::Access;
  uint64_t instruction = 0;  // an access's allocation, width and kind
  uint32_t member_mask = 0;  // a warp-synchronous call's
  LaneState state = LaneState::Ready;
  uint32_t round = 0;
  uint64_t last_key = 0;
};

FakeLane access_at(const SourceSite& s, SubOp sub = SubOp::Load, uint64_t instruction = 7) {
  FakeLane l;
  l.site = &s;
  l.sub = sub;
  l.instruction = instruction;
  return l;
}
FakeLane warp_call_at(const SourceSite& s, uint32_t member_mask, LaneState state = LaneState::Ready) {
  FakeLane l;
  l.site = &s;
  l.sub = SubOp::WarpOp;
  l.type = ReqType::WarpOp;
  l.member_mask = member_mask;
  l.state = state;
  return l;
}
FakeLane barrier_at(const SourceSite& s) {
  FakeLane l;
  l.site = &s;
  l.sub = SubOp::Barrier;
  l.type = ReqType::Barrier;
  l.state = LaneState::AtBarrier;
  return l;
}

// The Heads of issue_policy.h over plain values.
struct FakeHeads {
  const std::vector<FakeLane>& lanes;
  const void* site(int i) const { return lanes[i].site; }
  SubOp sub(int i) const { return lanes[i].sub; }
  uint64_t key(int i) const { return lanes[i].site->key(lanes[i].sub); }
  ReqType type(int i) const { return lanes[i].type; }
  uint64_t instruction(int i) const { return lanes[i].instruction; }
  uint32_t member_mask(int i) const { return lanes[i].member_mask; }
  LaneState state(int i) const { return lanes[i].state; }
  uint32_t round(int i) const { return lanes[i].round; }
  uint64_t last_key(int i) const { return lanes[i].last_key; }
};

// The loop question (rule 4), answered from the sites' own loops; `asked` counts the questions.
struct FakeLoops {
  int asked = 0;
  bool inside_loop_around(const void* site, uint64_t key, const void* around) {
    ++asked;
    const SourceSite& s = *static_cast<const SourceSite*>(site);
    const SourceSite& a = *static_cast<const SourceSite*>(around);
    return a.loop_begin && key >= issue_order(a.loop_begin, 0) && key <= (issue_order(a.loop_end, 0xffff) | 0xff) &&
           std::string(s.file) == a.file;
  }
};

// The lanes that can take part (rule 2): the issuable ones that are not waiting for their warp.
uint32_t ready_mask(const std::vector<FakeLane>& lanes) {
  uint32_t m = 0;
  for (size_t i = 0; i < lanes.size(); ++i)
    if (can_issue(lanes[i].type) && lanes[i].state == LaneState::Ready) m |= 1u << i;
  return m;
}

IssueChoice choose(const std::vector<FakeLane>& lanes) {
  FakeLoops loops;
  return choose_issue_group(ready_mask(lanes), FakeHeads{lanes}, loops);
}

// Straight-line code of one file, no loops.
const SourceSite k10{"k.cu", 10, 5}, k11{"k.cu", 11, 5}, k12{"k.cu", 12, 5}, k14{"k.cu", 14, 3};

}  // namespace

TEST(IssuePolicy, AConvergedWarpIssuesAllItsLanes) {
  // One candidate: all 32 lanes at k11.
  const std::vector<FakeLane> lanes(32, access_at(k11));
  const IssueChoice c = choose(lanes);
  EXPECT_EQ(c.mask, 0xffffffffu);
  EXPECT_EQ(c.key, k11.key());
  EXPECT_TRUE(c.exact);
}

TEST(IssuePolicy, AnIfElseIssuesTheIfSideFirstAndMeetsAgainAfterIt) {
  // `if (lane % 2) a[lane] = ..; else b[lane] = ..; c[lane] = ..;`: odd lanes at 11, even at 12.
  std::vector<FakeLane> lanes(8);
  for (int i = 0; i < 8; ++i) lanes[i] = access_at(i % 2 ? k11 : k12);
  // Candidates k12 (lanes 0, 2, 4, 6) and k11 (1, 3, 5, 7): 11 < 12, so the odd lanes.
  EXPECT_EQ(choose(lanes).mask, 0b10101010u);
  // The odd lanes went on to 14, after the if/else; the even lanes at 12 < 14 go next.
  for (int i = 1; i < 8; i += 2) lanes[i] = access_at(k14);
  EXPECT_EQ(choose(lanes).mask, 0b01010101u);
  // All at 14: together again.
  for (int i = 0; i < 8; i += 2) lanes[i] = access_at(k14);
  EXPECT_EQ(choose(lanes).mask, 0xffu);
}

TEST(IssuePolicy, ALoadIssuesBeforeTheStoreOfOneStatement) {
  // `a[i] += x` at one site: lanes 0 and 1 have loaded already and wait at its store, lanes 2 and
  // 3 wait at its load. One site, two sub-operations: two candidates, and the load's key is lower.
  const std::vector<FakeLane> lanes = {access_at(k11, SubOp::Store), access_at(k11, SubOp::Store), access_at(k11, SubOp::Load),
                                       access_at(k11, SubOp::Load)};
  const IssueChoice c = choose(lanes);
  EXPECT_EQ(c.mask, 0b1100u);
  EXPECT_EQ(c.key, k11.key(SubOp::Load));
  EXPECT_TRUE(c.exact);
}

TEST(IssuePolicy, TwoAllocationsAtOneSiteAreTwoInstructions) {
  // One site, one sub-operation, one key, but lanes 1 and 3 touch another allocation (rule 6):
  // the lowest lane's instruction issues, lanes 0 and 2, and the choice is inexact.
  const std::vector<FakeLane> lanes = {access_at(k11, SubOp::Load, 1), access_at(k11, SubOp::Load, 2),
                                       access_at(k11, SubOp::Load, 1), access_at(k11, SubOp::Load, 2)};
  const IssueChoice c = choose(lanes);
  EXPECT_EQ(c.mask, 0b0101u);
  EXPECT_FALSE(c.exact);
}

TEST(IssuePolicy, ATieKeepsTheLowerLanesCandidate) {
  // Line 11, column 5 of two files: one key, neither before the other (rule 5). The candidate of
  // the lowest lane (lane 0: other.cu) stays, inexact; a later, smaller key still wins, exactly.
  const SourceSite other11{"other.cu", 11, 5};
  std::vector<FakeLane> lanes = {access_at(other11), access_at(k11), access_at(other11), access_at(k11)};
  IssueChoice c = choose(lanes);
  EXPECT_EQ(c.mask, 0b0101u);
  EXPECT_FALSE(c.exact);
  lanes.push_back(access_at(k10));
  c = choose(lanes);
  EXPECT_EQ(c.mask, 0b10000u);
  EXPECT_TRUE(c.exact);
}

TEST(IssuePolicy, LanesAtABarrierOrWaitingForTheirWarpTakeNoPart) {
  // Lanes 0 and 1 wait at a barrier on line 10, lane 2 waits at a shuffle on line 10 for lanes
  // that have not come: all three have smaller keys than lane 3's, at 12, but are not ready.
  const std::vector<FakeLane> lanes = {barrier_at(k10), barrier_at(k10), warp_call_at(k10, 0b1111, LaneState::WaitWarp),
                                       access_at(k12)};
  EXPECT_EQ(ready_mask(lanes), 0b1000u);
  EXPECT_EQ(choose(lanes).mask, 0b1000u);
}

TEST(IssuePolicy, ACompleteWarpSyncCallGoesFirst) {
  const SourceSite shuffle{"k.cu", 20, 9}, vote{"k.cu", 21, 9};
  // Lanes 0 and 1 wait at the shuffle for lanes 0-2; lane 2 is ready there: complete (rule 1).
  std::vector<FakeLane> lanes = {warp_call_at(shuffle, 0b111, LaneState::WaitWarp), warp_call_at(shuffle, 0b111, LaneState::WaitWarp),
                                 warp_call_at(shuffle, 0b111), access_at(k10)};
  EXPECT_EQ(complete_warp_sync_group(4, FakeHeads{lanes}), 0b111u);
  // Lane 2 is elsewhere: the call is incomplete, and so nothing goes first.
  lanes[2] = access_at(k12);
  EXPECT_EQ(complete_warp_sync_group(4, FakeHeads{lanes}), 0u);
  // Lane 3 waits at another call that is complete (it names only itself), but only the lowest
  // waiting lane's call counts.
  lanes[3] = warp_call_at(vote, 0b1000, LaneState::WaitWarp);
  EXPECT_EQ(complete_warp_sync_group(4, FakeHeads{lanes}), 0u);
  // No lane waits: nothing.
  const std::vector<FakeLane> none = {access_at(k10), warp_call_at(shuffle, 0b11)};
  EXPECT_EQ(complete_warp_sync_group(2, FakeHeads{none}), 0u);
}

TEST(IssuePolicy, ARoundBehindGoesFirstOnlyInsideTheLoopAroundTheOthers) {
  // A loop on lines 10-13 with sites 11 and 12 in it; 14 after it.
  const SourceSite l11{"k.cu", 11, 5, 10, 13}, l12{"k.cu", 12, 5, 10, 13}, l14{"k.cu", 14, 3};
  // Lanes 0 and 1 went round (they wait at 11, at their last key 11: rule 3 gives round 1);
  // lane 2 waits at 12 in round 0, inside the loop around 11: it goes first though 11 < 12.
  std::vector<FakeLane> lanes = {access_at(l11), access_at(l11), access_at(l12)};
  lanes[0].last_key = lanes[1].last_key = l11.key();
  FakeLoops loops;
  EXPECT_EQ(choose_issue_group(0b111, FakeHeads{lanes}, loops).mask, 0b100u);
  EXPECT_GT(loops.asked, 0);
  // Lane 2 left the loop instead (it waits at 14, round 0): it is not inside the loop around 11,
  // so source order decides, 11 first (lanes that `break` wait after the loop).
  lanes[2] = access_at(l14);
  EXPECT_EQ(choose(lanes).mask, 0b011u);
  // The same rounds without a loop around 11 (the same lines, no loop known): source order.
  const SourceSite m11{"k.cu", 11, 5}, m12{"k.cu", 12, 5};
  std::vector<FakeLane> flat = {access_at(m11), access_at(m11), access_at(m12)};
  flat[0].last_key = flat[1].last_key = m11.key();
  EXPECT_EQ(choose(flat).mask, 0b011u);
  // A candidate's round is its lowest lane's: lane 0 (in round 1 at 11) leads lanes 0 and 1 at
  // 11, whatever lane 1's own round; lane 2 at 12, round 0, still goes first.
  lanes[2] = access_at(l12);
  lanes[1].last_key = 0;
  EXPECT_EQ(choose(lanes).mask, 0b100u);
}

namespace {

// A warp of lanes that each visit a list of sites in turn (one access per site), issued by the
// rule with its history (IssueHistory) as the worker keeps it: the masks it issues, in order.
std::vector<uint32_t> run_warp(const std::vector<std::vector<const SourceSite*>>& programs) {
  const uint32_t n = uint32_t(programs.size());
  IssueHistory history;
  history.resize(n);
  history.reset();
  std::vector<size_t> pc(n, 0);
  std::vector<uint32_t> issued;
  FakeLoops loops;
  for (;;) {
    std::vector<FakeLane> lanes(n);
    uint32_t ready = 0;
    for (uint32_t i = 0; i < n; ++i) {
      if (pc[i] == programs[i].size()) continue;
      lanes[i] = access_at(*programs[i][pc[i]]);
      lanes[i].round = history.round(i);
      lanes[i].last_key = history.last_key(i);
      ready |= 1u << i;
    }
    if (!ready) return issued;
    const IssueChoice c = choose_issue_group(ready, FakeHeads{lanes}, loops);
    history.issued(0, c.mask, (ready & ~c.mask) != 0, c.key);
    issued.push_back(c.mask);
    for (uint32_t m = c.mask; m; m &= m - 1) ++pc[std::countr_zero(m)];
  }
}

}  // namespace

TEST(IssuePolicy, AnIfElseInALoopMeetsAgainAtEveryIteration) {
  // The worked example of issue_policy.h, three iterations, then line 14 after the loop:
  //   10  for (int i = 0; i < 3; ++i) {
  //   11    if (lane % 2) v += a[i];
  //   12    else          v += b[i];
  //   13  }
  //   14  out[lane] = v;
  const SourceSite l11{"k.cu", 11, 5, 10, 13}, l12{"k.cu", 12, 5, 10, 13}, l14{"k.cu", 14, 3};
  const std::vector<const SourceSite*> odd = {&l11, &l11, &l11, &l14}, even = {&l12, &l12, &l12, &l14};
  // 1. All round 0: 11 < 12, the odd lanes; the warp is divergent.
  // 2. Odd lanes at 11 again (their last key): round 1; even lanes at 12, round 0, inside the
  //    loop around 11: the even lanes.
  // 3. Even lanes at 12 again: round 1, as the odd lanes: 11 < 12, the odd lanes (now round 1,
  //    and at 11 again: round 2).
  // 4. Even lanes round 1 < 2, inside the loop: the even lanes.
  // 5. Both round 2: the odd lanes, which go on to 14.
  // 6. Odd lanes at 14 (round 2, not a jump back), even lanes at 12 (round 1 + 1): equal, 12 < 14.
  // 7. All at 14: one candidate.
  EXPECT_EQ(run_warp({even, odd, even, odd}),
            (std::vector<uint32_t>{0b1010, 0b0101, 0b1010, 0b0101, 0b1010, 0b0101, 0b1111}));
}

TEST(IssuePolicy, WithoutTheLoopTheIfSideRunsEveryIterationFirst) {
  // The same lines with no loop known around them (a loop the source reader cannot see): source
  // order alone. The odd lanes at 11 come before 12 in every iteration, then the even lanes run
  // theirs while the odd ones wait at 14 (rounds differ, but 12 is inside no loop around 14).
  const std::vector<const SourceSite*> odd = {&k11, &k11, &k11, &k14}, even = {&k12, &k12, &k12, &k14};
  EXPECT_EQ(run_warp({even, odd, even, odd}),
            (std::vector<uint32_t>{0b1010, 0b1010, 0b1010, 0b0101, 0b0101, 0b0101, 0b1111}));
}

TEST(IssuePolicy, AContinueWaitsForTheRestOfTheIteration) {
  //   10  for (int i = 0; i < 2; ++i) {
  //   11    v += a[i];
  //   12    if (lane % 2) continue;
  //   13    v += b[i];
  //   14  }
  //   15  out[lane] = v;
  // Odd lanes skip 13. After 11 (all), the even lanes wait at 13 and the odd lanes are back at
  // 11 (round 1); 13 is inside the loop around 11 and round 0: the even lanes first, then all
  // meet at 11 in round 1, and once more at 15.
  const SourceSite l11{"k.cu", 11, 5, 10, 14}, l13{"k.cu", 13, 5, 10, 14}, l15{"k.cu", 15, 3};
  const std::vector<const SourceSite*> odd = {&l11, &l11, &l15}, even = {&l11, &l13, &l11, &l13, &l15};
  // 1. 1111 at 11. 2. Even at 13 (round 0) before odd at 11 (round 1): 0101. The warp is
  // divergent: 3. even lanes at 11 (round 0 + 1), odd lanes at 11 too: one candidate, 1111, and
  // the warp is convergent again. 4. Even at 13, odd at 15: 13 < 15, 0101. 5. 1111 at 15.
  EXPECT_EQ(run_warp({even, odd, even, odd}), (std::vector<uint32_t>{0b1111, 0b0101, 0b1111, 0b0101, 0b1111}));
}
