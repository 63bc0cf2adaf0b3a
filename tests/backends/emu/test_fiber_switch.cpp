// The emulator's context switch (backends/emu/fiber, Boost.Context's fcontext as the emulator
// uses it): it must keep each context's registers and stack, start new contexts with an
// ABI-aligned stack, and let an exception unwind a fiber's own frames.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fiber_stack.h"
#include "fiber_switch.h"

namespace ws::emu {
namespace {

struct Switch {
  const char* name;
  FiberContext (*make)(void*, std::size_t, FiberEntry, void*);
  void (*swap)(FiberContext&, const FiberContext&);
};

const Switch kFcontext{"fcontext", &fiber_make, &fiber_swap};

class FiberSwitch : public ::testing::TestWithParam<Switch> {
 protected:
  // A ring of fibers that pass control on; the last one hands it back to main.
  struct Ring {
    const Switch* sw = nullptr;
    FiberContext main;
    std::vector<FiberContext> ctx;
    std::vector<int> visits;  // fiber index, in the order they ran
    int rounds = 0;
    int current = 0;
  };
  static constexpr std::size_t kStack = 64 * 1024;
  std::vector<FiberStack> stacks_;

  FiberContext make(FiberEntry entry, void* arg) {
    const FiberStack& s = stacks_.emplace_back(kStack, unsigned(stacks_.size()));
    return GetParam().make(s.top(), s.usable_bytes(), entry, arg);
  }
};

TEST_P(FiberSwitch, APingPongFiberRunsOnceForEverySwitchToIt) {
  struct Ping {
    const Switch* sw;
    FiberContext main, self;
    int n = 0;
  } ping{&GetParam(), {}, {}};
  ping.self = make(
      [](void* p) {
        auto& s = *static_cast<Ping*>(p);
        for (;;) {
          ++s.n;
          s.sw->swap(s.self, s.main);
        }
      },
      &ping);
  for (int i = 1; i <= 3; ++i) {
    GetParam().swap(ping.main, ping.self);
    EXPECT_EQ(ping.n, i);
  }
}

// Every fiber keeps values in locals across its switches (callee-saved registers and its own
// stack): a context that lost them would add up to the wrong sums.
TEST_P(FiberSwitch, EachFiberOfARingKeepsItsRegistersAndStackAcrossSwitches) {
  constexpr int kFibers = 37, kRounds = 50;
  struct Arg {
    Ring* ring;
    int index;
    int64_t sum = 0;
  };
  Ring ring;
  ring.sw = &GetParam();
  ring.ctx.resize(kFibers);
  std::vector<std::unique_ptr<Arg>> args;
  for (int i = 0; i < kFibers; ++i) {
    args.push_back(std::make_unique<Arg>(Arg{&ring, i}));
    ring.ctx[i] = make(
        [](void* p) {
          Arg& a = *static_cast<Arg*>(p);
          Ring& r = *a.ring;
          // Many live values across the switch, so that the compiler keeps some in callee-saved
          // registers and spills others to the stack.
          int64_t x0 = a.index, x1 = a.index * 3, x2 = a.index * 7, x3 = a.index * 11, x4 = a.index * 13;
          volatile char stack_bytes[256];
          for (int k = 0; k < 256; ++k) stack_bytes[k] = char(a.index + k);
          for (int round = 0;; ++round) {
            r.visits.push_back(a.index);
            const int next = a.index + 1;
            if (next == int(r.ctx.size())) r.sw->swap(r.ctx[a.index], r.main);
            else r.sw->swap(r.ctx[a.index], r.ctx[next]);
            int bad = 0;
            for (int k = 0; k < 256; ++k) bad += stack_bytes[k] != char(a.index + k);
            a.sum += x0 + x1 + x2 + x3 + x4 + bad * 1000000;
            x0 += 1, x1 += 2, x2 += 3, x3 += 4, x4 += 5;
          }
        },
        args.back().get());
  }
  for (int round = 0; round < kRounds; ++round) GetParam().swap(ring.main, ring.ctx[0]);
  ASSERT_EQ(ring.visits.size(), size_t(kFibers * kRounds));
  for (size_t v = 0; v < ring.visits.size(); ++v) ASSERT_EQ(ring.visits[v], int(v % kFibers)) << "visit " << v;
  for (int i = 0; i < kFibers; ++i) {
    // Round r (1-based, counted after the switch returns) adds 35 i + 15 (r - 1); rounds 1..49 ran.
    int64_t want = 0;
    for (int r = 1; r < kRounds; ++r) want += 35 * i + 15 * (r - 1);
    EXPECT_EQ(args[i]->sum, want) << "fiber " << i;
  }
}

// The ABI wants the stack 16-byte aligned at every call: a new context's first frames must get
// it (SSE spills of aligned locals fault otherwise).
[[gnu::noinline]] uintptr_t aligned_local_address() {
  alignas(16) volatile char buf[16] = {};
  return reinterpret_cast<uintptr_t>(&buf[0]);
}

TEST_P(FiberSwitch, ANewFiberStartsWithAnAlignedStack) {
  struct Probe {
    const Switch* sw;
    FiberContext main, self;
    uintptr_t addr = 1;
    uintptr_t low = 0, high = 0;
  } probe{&GetParam(), {}, {}};
  probe.self = make(
      [](void* p) {
        auto& s = *static_cast<Probe*>(p);
        s.addr = aligned_local_address();
        for (;;) s.sw->swap(s.self, s.main);
      },
      &probe);
  GetParam().swap(probe.main, probe.self);
  EXPECT_EQ(probe.addr % 16, 0u);
  const char* top = static_cast<const char*>(stacks_.back().top());
  EXPECT_LT(probe.addr, reinterpret_cast<uintptr_t>(top)) << "the fiber ran on its own stack";
  EXPECT_GT(probe.addr, reinterpret_cast<uintptr_t>(top) - kStack);
}

// How the emulator tears a suspended lane down: the lane, resumed, throws from its switch point;
// the exception unwinds the lane's frames (their destructors run) to the fiber's entry, which
// catches it and switches away for good.
TEST_P(FiberSwitch, AnExceptionThrownAfterASwitchUnwindsTheFibersFrames) {
  struct Teardown {
    const Switch* sw;
    FiberContext main, self;
    bool quitting = false;
    std::vector<std::string> log;
  } t{&GetParam(), {}, {}, false, {}};
  struct Quit {};
  struct Guard {
    Teardown* t;
    std::string name;
    ~Guard() { t->log.push_back("destroyed " + name); }
  };
  t.self = make(
      [](void* p) {
        auto& s = *static_cast<Teardown*>(p);
        try {
          Guard outer{&s, "outer"};
          [&] {
            Guard inner{&s, "inner"};
            for (;;) {
              s.log.push_back("suspended");
              s.sw->swap(s.self, s.main);
              if (s.quitting) throw Quit{};
            }
          }();
        } catch (const Quit&) {
          s.log.push_back("caught");
        }
        FiberContext gone;
        s.sw->swap(gone, s.main);
        std::abort();  // never resumed
      },
      &t);
  GetParam().swap(t.main, t.self);
  GetParam().swap(t.main, t.self);
  t.quitting = true;
  GetParam().swap(t.main, t.self);
  const std::vector<std::string> want = {"suspended", "suspended", "destroyed inner", "destroyed outer", "caught"};
  EXPECT_EQ(t.log, want);
}

INSTANTIATE_TEST_SUITE_P(Boost, FiberSwitch, ::testing::Values(kFcontext),
                         [](const ::testing::TestParamInfo<Switch>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace ws::emu
