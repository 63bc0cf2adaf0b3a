// GPU runs in the run process (skipped without a GPU): a kernel that never ends and a sticky
// fault (an illegal address) each cost that process, and the next GPU run passes; a kept replay
// is timed there, and says so once its process is gone.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <thread>

#include "paths.h"
#include "ws/isolation/isolated_runs.h"
#include "ws/kernel_file/build.h"
#include "ws/run/catalog.h"
#include "ws/timing/timing.h"

namespace ws::isolation {
namespace {

using Clock = std::chrono::steady_clock;

class GpuRunProcess : public ::testing::Test {
 protected:
  void SetUp() override {
    use(300);
    if (!timing::device().present) GTEST_SKIP() << "no GPU: " << timing::device().why_not;
  }
  void TearDown() override { disable(); }
  static void use(double timeout) {
    IsolationOptions o;
    o.exe = test::warpscope_exe();
    o.timeout_seconds = timeout;
    enable(Catalog::instance(), o);
  }
  static std::string load_gpu(const std::string& name) {
    kernel_file::BuildOptions bo;
    bo.gpu = true;
    bo.device = timing::device().name + " (CUDA)";  // (as the run process names it: the build cache's key)
    std::string error;
    const std::string k = kernel_file::load(test::test_file(name), Catalog::instance(), bo, error);
    EXPECT_FALSE(k.empty()) << error;
    return k;
  }
  static RunConfig with(const std::string& p, int64_t v) {
    RunConfig c;
    c.params[p] = v;
    return c;
  }
  static std::string text(const RunResult& r) {
    std::string s = r.refused;
    for (const Diagnostic& d : r.errors) s += " [" + d.code + "] " + d.message;
    return s;
  }
};

TEST_F(GpuRunProcess, AKernelThatNeverEndsCostsOnlyTheRunProcess) {
  const std::string k = load_gpu("gpu_loop.cu");
  ASSERT_FALSE(k.empty());
  const RunResult warm = Catalog::instance().run(k, RunConfig{}, BackendKind::GpuFast);  // builds it there
  ASSERT_TRUE(warm.passed) << text(warm);
  use(5);
  const auto t0 = Clock::now();
  const RunResult r = Catalog::instance().run(k, with("loop", 1), BackendKind::GpuFast);
  const double took = std::chrono::duration<double>(Clock::now() - t0).count();
  ASSERT_FALSE(r.errors.empty()) << text(r);
  EXPECT_EQ(r.errors[0].code, "time-limit") << text(r);
  EXPECT_LT(took, 30.0);
  const RunResult after = Catalog::instance().run("reduce", RunConfig{}, BackendKind::GpuFast);
  EXPECT_TRUE(after.passed) << text(after);
  const RunResult traced = Catalog::instance().run("reduce", RunConfig{}, BackendKind::GpuTrace);
  EXPECT_TRUE(traced.passed) << text(traced);
  EXPECT_FALSE(traced.launches.empty());
}

TEST_F(GpuRunProcess, AStickyFaultCostsOnlyTheRunProcess) {
  const std::string k = load_gpu("gpu_fault.cu");
  ASSERT_FALSE(k.empty());
  const RunResult fine = Catalog::instance().run(k, RunConfig{}, BackendKind::GpuFast);
  ASSERT_TRUE(fine.passed) << text(fine);
  const int pid = process_id();
  const RunResult r = Catalog::instance().run(k, with("fault", 1), BackendKind::GpuFast);
  EXPECT_FALSE(r.completed);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(text(r).find("illegal"), std::string::npos) << text(r);
  // The process that lost its CUDA context ended after answering; the next run has a new one.
  const RunResult after = Catalog::instance().run("reduce", RunConfig{}, BackendKind::GpuFast);
  EXPECT_TRUE(after.passed) << text(after);
  EXPECT_NE(process_id(), pid);
}

TEST_F(GpuRunProcess, AKeptReplayIsTimedThereUntilItsProcessIsGone) {
  RunConfig cfg;
  cfg.variant = "3";
  cfg.n = 1 << 20;
  cfg.timing.reps = 5;
  cfg.timing.keep = true;
  const RunResult r = Catalog::instance().run("reduce", cfg, BackendKind::GpuFast);
  ASSERT_TRUE(r.passed) << text(r);
  ASSERT_EQ(r.timing.ms.size(), 5u);
  ASSERT_TRUE(r.timing.replay);
  TimingOptions o;
  o.reps = 4;
  RunTiming t;
  std::string error;
  ASSERT_TRUE(r.timing.replay->time(o, t, error)) << error;
  EXPECT_EQ(t.ms.size(), 4u);
  for (double ms : t.ms) EXPECT_GT(ms, 0.0);
  ::kill(process_id(), SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  (void)Catalog::instance().run("reduce", RunConfig{}, BackendKind::GpuFast);  // finds it gone, or starts anew
  (void)Catalog::instance().run("reduce", RunConfig{}, BackendKind::GpuFast);
  RunTiming t2;
  EXPECT_FALSE(r.timing.replay->time(o, t2, error));
  EXPECT_NE(error.find("restarted"), std::string::npos) << error;
}

}  // namespace
}  // namespace ws::isolation
