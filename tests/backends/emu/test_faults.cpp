// Kernel faults become reports, never hangs or crashes.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "emu_test_util.h"
#include "test_kernels.cuh"

using namespace ws;

TEST(EmuFaults, BarrierInsideAConditionIsReportedNotHung) {
  emu::Memory mem;
  auto in = mem.upload<int>("in", test::iota_input(256));
  auto out = mem.alloc<int>("out", 1);
  auto r = emu::launch(mem, test::options(1, 256), {}, [=] { barrier_in_condition<256>(in, out); });
  ASSERT_FALSE(r.ok());
  const Diagnostic& d = r.trace.diagnostics.at(0);
  EXPECT_EQ(d.code, "barrier-divergence");
  // Threads 0..127 reach the barrier inside `if (tid < stride)`; 128..255 skip it, loop on,
  // and leave the kernel.
  EXPECT_NE(d.message.find("128 threads (0-127) wait at __syncthreads()"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("128 threads (128-255) exited without reaching it"), std::string::npos) << d.message;
  ASSERT_NE(d.site, Diagnostic::kNoSite);
  EXPECT_NE(r.trace.sites[d.site].text.find("__syncthreads();"), std::string::npos);
}

TEST(EmuFaults, OutOfBoundsNamesSiteThreadAndIndex) {
  emu::Memory mem;
  auto in = mem.upload<int>("g_in", test::iota_input(32));
  auto out = mem.alloc<int>("g_out", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { off_by_one(in, out); });
  ASSERT_FALSE(r.ok());
  const Diagnostic& d = r.trace.diagnostics.at(0);
  EXPECT_EQ(d.code, "out-of-bounds");
  EXPECT_EQ(d.thread, 31u);
  EXPECT_EQ(d.block, 0u);
  EXPECT_NE(d.message.find("g_in[32]"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("32 elements"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("thread (31,0,0)"), std::string::npos) << d.message;
  ASSERT_NE(d.site, Diagnostic::kNoSite);
  EXPECT_NE(r.trace.sites[d.site].text.find("out[i] = in[i + 1];"), std::string::npos);
  // Nothing was written past the end: the host buffers are intact and the emulator goes on.
  auto r2 = emu::launch(mem, test::options(1, 32), {}, [=] { shuffle_sum(in, out); });
  EXPECT_TRUE(r2.ok());
}

// With several workers the blocks after block 0 fail long before block 0 does: the run still
// reports block 0's failure first and keeps all of block 0's record, as one worker does.
TEST(EmuFaults, TheFirstFailingBlockIsReportedWhateverWorkerFailsFirst) {
  constexpr int kRounds = 2000;
  for (unsigned workers : {1u, 2u, 4u}) {
    SCOPED_TRACE(std::to_string(workers) + " workers");
    emu::Memory mem;
    auto in = mem.upload<int>("in", test::iota_input(32));
    auto out = mem.alloc<int>("out", 32 * 8);
    emu::LaunchOptions o = test::options(8, 32, workers);
    auto r = emu::launch(mem, o, {}, [=] { late_first_fault(in, out, kRounds); });
    ASSERT_FALSE(r.ok());
    const Diagnostic& d = r.trace.diagnostics.at(0);
    EXPECT_EQ(d.code, "out-of-bounds");
    EXPECT_EQ(d.block, 0u);
    EXPECT_EQ(d.thread, 0u);  // thread 0 reads in[32], the first element past the end
    // Block 0's loop issued one load per round before the failing one, each recorded.
    const auto loads = test::events_at(r.trace, "s += in[(i + unsigned(r)) % 32u]", EventType::Access,
                                       AccessKind::Load, 0, 0);
    EXPECT_EQ(loads.size(), size_t(kRounds));
    for (const Diagnostic& other : r.trace.diagnostics)
      if (other.severity == Severity::Error) EXPECT_EQ(other.block, 0u) << other.message;
  }
}

// Every lane of a warp goes out of bounds at one store: one report, naming the lowest thread,
// whatever order the emulator ran the lanes in (it runs them in different orders when it lets
// threads run on past loads and shuffles).
TEST(EmuFaults, WhenEveryLaneFaultsAtOnceTheLowestIsReported) {
  for (const test::RunAhead mode : test::kRunAheadModes) {
    for (int after_shuffle : {0, 1}) {
      SCOPED_TRACE(test::to_string(mode) + (after_shuffle ? ", after a shuffle" : ", a copy"));
      emu::Memory mem;
      auto a = mem.alloc<int>("a", 32);
      auto b = mem.upload<int>("b", test::iota_input(32));
      auto r = emu::launch(mem, test::options(1, 32, mode), {}, [=] { every_lane_out_of_bounds(a, b, after_shuffle); });
      ASSERT_FALSE(r.ok());
      ASSERT_EQ(r.trace.diagnostics.size(), 1u);
      EXPECT_EQ(r.trace.diagnostics[0].code, "out-of-bounds");
      EXPECT_EQ(r.trace.diagnostics[0].thread, 0u);
      EXPECT_NE(r.trace.diagnostics[0].message.find("a[32]"), std::string::npos) << r.trace.diagnostics[0].message;
    }
  }
}

// Static shared arrays over the per-block limit: every thread that touches the one that does not
// fit fails there (not only the first to touch it), so the report names the lowest, thread 0.
TEST(EmuFaults, SharedMemoryOverTheLimitIsReportedForTheLowestThread) {
  for (const test::RunAhead mode : test::kRunAheadModes) {
    SCOPED_TRACE(test::to_string(mode));
    emu::Memory mem;
    auto out = mem.alloc<int>("out", 64);
    auto r = emu::launch(mem, test::options(1, 64, mode), {}, [=] { too_much_shared(out); });
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.trace.diagnostics.size(), 1u);
    const Diagnostic& d = r.trace.diagnostics[0];
    EXPECT_EQ(d.code, "shared-memory-limit");
    EXPECT_EQ(d.thread, 0u);
    EXPECT_NE(d.message.find("needs 65536 bytes of shared memory"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("over the per-block limit of 49152 bytes"), std::string::npos) << d.message;
  }
}

TEST(EmuFaults, AFailedBlocksThreadsAreUnwoundWithTheirLocals) {
  emu::Memory mem;
  auto in = mem.upload<int>("in", test::iota_input(64));
  auto out = mem.alloc<int>("out", 64);
  std::atomic<int> destroyed{0};
  std::atomic<int>* counter = &destroyed;
  auto r = emu::launch(mem, test::options(1, 64), {}, [=] { fault_with_live_objects(in, out, counter); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.trace.diagnostics.at(0).code, "out-of-bounds");
  EXPECT_EQ(r.trace.diagnostics.at(0).thread, 7u);
  // Warp 0's threads but 7 ran to their end after its load, 7 stopped in the fault, and warp 1's
  // were left waiting at the load, inside the kernel: each thread's local is destroyed once.
  EXPECT_EQ(destroyed.load(), 64);
}

// A failure in a later block: the threads of the fibers that ran the earlier blocks' threads
// are unwound as well (under AddressSanitizer, with each fiber's own stack extent).
TEST(EmuFaults, AFailureInALaterBlockUnwindsEveryThreadOnce) {
  emu::Memory mem;
  auto in = mem.upload<int>("in", test::iota_input(64));
  auto out = mem.alloc<int>("out", 4 * 64);
  std::atomic<int> destroyed{0};
  std::atomic<int>* counter = &destroyed;
  auto r = emu::launch(mem, test::options(4, 64), {}, [=] { fault_in_block_2_with_live_objects(in, out, counter); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.trace.diagnostics.at(0).code, "out-of-bounds");
  EXPECT_EQ(r.trace.diagnostics.at(0).block, 2u);
  EXPECT_EQ(r.trace.diagnostics.at(0).thread, 5u);
  EXPECT_EQ(destroyed.load(), 3 * 64);  // blocks 0 and 1 to their end, block 2 unwound; 3 never ran
}

// A failed block's threads are unwound even when their queues are full and a destructor stores
// while the stack unwinds (its store must not be written past the full queue into the next
// thread's, which then went without its unwinding: 48 of 64 destructors ran).
TEST(EmuFaults, ThreadsUnwoundWithFullQueuesRunEveryDestructor) {
  for (const test::RunAhead mode : test::kRunAheadModes) {
    SCOPED_TRACE(test::to_string(mode));
    emu::Memory mem;
    auto a = mem.upload<int>("a", std::vector<int>(128, 0));
    std::atomic<int> destroyed{0};
    std::atomic<int>* counter = &destroyed;
    auto r = emu::launch(mem, test::options(1, 64, mode), {}, [=] { failure_unwinds_full_queues(a, counter); });
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.trace.diagnostics.at(0).code, "out-of-bounds");
    EXPECT_EQ(r.trace.diagnostics.at(0).thread, 0u);
    EXPECT_EQ(destroyed.load(), 64);
  }
}

// A runaway loop stopped by the step budget while the warp issues a converged run of stores: the
// report says where the threads are (the fifth store), as when each lane is moved on by itself.
TEST(EmuFaults, TheStepBudgetReportSaysWhereAConvergedWarpIs) {
  std::string first;
  for (const test::RunAhead mode : test::kRunAheadModes) {
    SCOPED_TRACE(test::to_string(mode));
    emu::Memory mem;
    auto a = mem.upload<int>("a", test::iota_input(256));
    emu::LaunchOptions o = test::options(1, 32, mode);
    o.step_budget = 4;  // the load and the first four stores
    auto r = emu::launch(mem, o, {}, [=] { stores_then_spin(a); });
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.trace.diagnostics.at(0).code, "step-budget");
    const std::string& msg = r.trace.diagnostics[0].message;
    EXPECT_NE(r.trace.sites.at(r.trace.diagnostics[0].site).text.find("a[160 + t] = v + 4;"), std::string::npos)
        << msg;
    if (first.empty()) first = msg;
    EXPECT_EQ(msg, first);
  }
}

// Kernel code that throws and catches its own exceptions runs on as usual.
TEST(EmuFaults, KernelCodeCatchesItsOwnExceptions) {
  emu::Memory mem;
  auto a = mem.upload<int>("a", std::vector<int>(128, 5));
  auto out = mem.alloc<int>("out", 4 * 64);
  auto r = emu::launch(mem, test::options(4, 64), {}, [=] { catches_its_own_exceptions(a, out); });
  ASSERT_TRUE(r.ok());
  const std::vector<int> got = mem.download(out);
  for (int i = 0; i < 4 * 64; ++i) {
    const int t = i % 64;
    EXPECT_EQ(got[i], (t % 3 == 0 ? 5 : 0) + 1 + (t % 2 == 0 ? 5 : 0) + 2) << "element " << i;
  }
}

TEST(EmuFaults, AnExceptionThrownByKernelCodeIsReportedAndTheEmulatorGoesOn) {
  emu::Memory mem;
  auto in = mem.upload<int>("in", test::iota_input(64));
  auto out = mem.alloc<int>("out", 64);
  for (int round = 0; round < 2; ++round) {  // a second launch after the first one's teardown
    auto r = emu::launch(mem, test::options(2, 32, 2), {}, [=] { throws_in_thread_3(in, out); });
    ASSERT_FALSE(r.ok());
    const Diagnostic& d = r.trace.diagnostics.at(0);
    EXPECT_EQ(d.code, "exception");
    EXPECT_EQ(d.thread, 3u);
    EXPECT_NE(d.message.find("the kernel threw: boom in thread 3"), std::string::npos) << d.message;
  }
  auto odd = emu::launch(mem, test::options(1, 32), {}, [=] { throws_an_int_in_thread_3(in, out); });
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.trace.diagnostics.at(0).code, "exception");
  EXPECT_NE(odd.trace.diagnostics.at(0).message.find("not a std::exception"), std::string::npos);
  auto ok = emu::launch(mem, test::options(1, 32), {}, [=] { shuffle_sum(in, out); });
  EXPECT_TRUE(ok.ok());
}

TEST(EmuFaults, StepBudgetStopsASpinWait) {
  emu::Memory mem;
  auto flag = mem.alloc<int>("flag", 1);
  mem.fill(flag, 0);
  auto opt = test::options(1, 32);
  opt.step_budget = 10000;
  auto r = emu::launch(mem, opt, {}, [=] { spin_forever(flag); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.trace.diagnostics.at(0).code, "step-budget");
  EXPECT_NE(r.trace.diagnostics.at(0).message.find("threads 0-31"), std::string::npos);
}

// A runaway loop in every block of a recorded launch: the record stops growing at its share of
// the memory limit (record_within), the step budget still names the cause, and the trace says
// what it dropped.
TEST(EmuFaults, ARunawayLoopsRecordStaysWithinItsShareOfTheMemoryLimit) {
  emu::Memory mem;
  auto flag = mem.alloc<int>("flag", 1);
  mem.fill(flag, 0);
  const uint64_t limit = 1 << 20;  // 1 MiB: 256 KiB of events, 256 KiB of lane offsets
  auto opt = test::options(8, 64);
  opt.record = emu::record_within(limit, opt.record);
  opt.step_budget = 20000;  // a block issues far more than the record's share holds
  auto r = emu::launch(mem, opt, {}, [=] { spin_forever(flag); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.trace.diagnostics.at(0).code, "step-budget");
  EXPECT_TRUE(r.trace.truncated);
  EXPECT_LE(r.trace.events.size(), limit / 4 / sizeof(Event));
  EXPECT_LE(r.trace.lane_offsets.size(), limit / 4 / sizeof(uint64_t));
  EXPECT_GT(r.trace.events.size(), 0u);
  EXPECT_GE(r.trace.events.size() + r.trace.dropped_events, 20000u) << "what was issued and not kept is counted";
  // The caps asked for stay when the limit holds more.
  const emu::RecordOptions asked;
  EXPECT_EQ(emu::record_within(uint64_t(1) << 40, asked).max_events, asked.max_events);
  EXPECT_EQ(emu::record_within(uint64_t(1) << 40, asked).max_lane_accesses, asked.max_lane_accesses);
}

TEST(EmuFaults, ShuffleMaskNamingAbsentLanes) {
  emu::Memory mem;
  auto in = mem.upload<int>("in", test::iota_input(32));
  auto out = mem.alloc<int>("out", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { shuffle_bad_mask(in, out); });
  ASSERT_FALSE(r.ok());
  const Diagnostic& d = r.trace.diagnostics.at(0);
  EXPECT_EQ(d.code, "warp-sync-mask");
  // Lanes 0..15 wait in the shuffle for lanes 16..31, which went on and left the kernel.
  EXPECT_NE(d.message.find("lanes 0000ffff wait for lanes ffffffff"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("lane 16 waits at the end of the kernel"), std::string::npos) << d.message;
}

TEST(EmuFaults, SyncwarpMaskNamingAbsentLanes) {
  emu::Memory mem;
  auto out = mem.alloc<int>("out", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { syncwarp_bad_mask(out); });
  ASSERT_FALSE(r.ok());
  const Diagnostic& d = r.trace.diagnostics.at(0);
  EXPECT_EQ(d.code, "warp-sync-mask");
  EXPECT_NE(d.message.find("__syncwarp"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("lanes 0000ffff"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("lane 16"), std::string::npos) << d.message;
}

TEST(EmuFaults, InvalidLaunchIsRefusedBeforeRunning) {
  emu::Memory mem;
  bool ran = false;
  auto opt = test::options(1, 2048);
  auto r = emu::launch(mem, opt, {}, [&] { ran = true; });
  EXPECT_FALSE(ran);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.trace.diagnostics.at(0).code, "invalid-launch");
  EXPECT_NE(r.trace.diagnostics.at(0).message.find("more than the limit of 1024 threads per block"),
            std::string::npos);
  opt = test::options(1, 32);
  opt.block.z = 0;
  EXPECT_NE(emu::validate(opt).find("zero dimension"), std::string::npos);
  opt = test::options(1, 32);
  opt.dynamic_shared_bytes = 64 * 1024;
  EXPECT_NE(emu::validate(opt).find("per-block limit of 49152 bytes"), std::string::npos);
}

TEST(EmuFaults, CancelStopsARunningLaunch) {
  emu::Memory mem;
  auto flag = mem.alloc<int>("flag", 1);
  mem.fill(flag, 0);
  auto opt = test::options(4, 32);
  opt.step_budget = ~0ull;  // only the cancel can stop this spin
  std::atomic<bool> cancel{false};
  opt.cancel = &cancel;
  std::jthread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel = true;
  });
  auto r = emu::launch(mem, opt, {}, [=] { spin_forever(flag); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.trace.diagnostics.at(0).code, "cancelled");
}

TEST(EmuFaults, CancelledBeforeTheStartRunsNothing) {
  emu::Memory mem;
  auto out = mem.alloc<int>("out", 32);
  auto in = mem.upload<int>("in", test::iota_input(32));
  std::atomic<bool> cancel{true};
  auto opt = test::options(1, 32);
  opt.cancel = &cancel;
  auto r = emu::launch(mem, opt, {}, [=] { shuffle_sum(in, out); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.trace.diagnostics.at(0).code, "cancelled");
  EXPECT_TRUE(r.trace.events.empty());
}

// A kernel function called directly on the host, outside ws::emu::launch, has no warp to run in:
// the program stops with a message that says so, also on a thread that ran a launch before.
TEST(EmuFaultsDeathTest, AKernelCalledOutsideALaunchSaysSo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  emu::Memory mem;
  auto out = mem.alloc<unsigned>("out", 32);
  auto r = emu::launch(mem, test::options(1, 32), {}, [=] { write_global_index(out); });
  ASSERT_TRUE(r.ok());
  EXPECT_DEATH(write_global_index(out), "a kernel was called outside ws::emu::launch");
}

// A worker that cannot map its threads' stacks (here: an address-space limit the child process
// sets for itself) ends the launch with an error that says what it needed and how to need less;
// the program goes on.
TEST(EmuFaultsDeathTest, AWorkerWithoutMemoryForItsStacksIsReported) {
#if defined(__SANITIZE_ADDRESS__)
  // (The child reports it, then ASan fails to map memory of its own under the limit: exit 1.)
  GTEST_SKIP() << "AddressSanitizer needs address space of its own, which the test's limit refuses";
#endif
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // (a fresh process: no stacks pooled yet)
  auto child = [] {
    emu::Memory mem;
    auto out = mem.alloc<unsigned>("out", 1024);
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    // Room for 64 MiB more: not for 1024 stacks of 256 KiB.
    const rlim_t limit = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(64) << 20);
    rlimit rl{limit, limit};
    if (pages == 0 || setrlimit(RLIMIT_AS, &rl) != 0) std::exit(3);
    // (Every thread stops at its load, so that all 1024 need a stack at once: a thread that runs
    // to its exit hands its fiber to the next.)
    auto r = emu::launch(mem, test::options(1, 1024), {}, [=] { add_one_in_place(out); });
    const bool reported = !r.trace.diagnostics.empty() && r.trace.diagnostics[0].code == "emulator-resources";
    std::fprintf(stderr, "%s\n", reported ? r.trace.diagnostics[0].message.c_str() : "not reported");
    std::exit(reported ? 0 : 1);
  };
  EXPECT_EXIT(child(), testing::ExitedWithCode(0),
              "an emulator worker could not get the memory it needs \\(std::bad_alloc\\) for its 1024 thread "
              "stacks or its blocks' records; fewer workers");
}
